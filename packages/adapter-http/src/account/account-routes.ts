import { createUserAgentParser } from '../public/user-agent.js';
import type Router from '@koa/router';
import type { DomainError, SignedIn } from '@shortener/core';
import {
  CreateLinkInput,
  claimLinks,
  countText,
  createLinkWithinBudget,
  domainError,
  isTag,
  listLinks,
  parseInput,
  startSession,
  toLinkView,
} from '@shortener/core';
import type { Context, Next } from 'koa';
import type { HttpDeps } from '../deps.js';
import { budgetedCoreOf } from '../deps.js';
import { HTTP_STATUS, errorBody } from '../errors.js';
import { sendError, setHeaders, stateOf } from '../koa-helpers.js';
import type { AccountHomeView } from '../pages/account/account-pages.js';
import { accountTextOf } from '../pages/account/account-text.js';
import { linkPageTextOf } from '../pages/account/link-page-text.js';
import { formToCreateInput, formValues } from '../pages/form-input.js';
import { rateLimitHeaders } from '../api/rate-limit.js';
import { accountHomePage } from '../pages/account/account-pages.js';
import { ACCOUNT_PAGE_HEADERS } from '../pages/layout.js';
import { fill } from '../pages/text.js';
import { pageSearchOf, searchTooLongMessage } from '../server/query.js';
import { queryOf, readBody } from '../request.js';
import { fromSameOrigin, onSessionHost, sessionSiteOf, setSessionCookie, signedInOf } from './session.js';

/**
 * Guards the account area (decisions §10): it exists on {base_url}'s host only (elsewhere the app's 404),
 * and a form post must come from its own pages (`Origin` or `Sec-Fetch-Site`), else `403 forbidden`.
 */
export function accountAreaGuard(deps: HttpDeps) {
  const site = sessionSiteOf(deps.core.config.baseUrl);
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!onSessionHost(ctx, site)) return;
    if (ctx.method === 'POST' && !fromSameOrigin(ctx, site)) {
      return sendError(ctx, domainError('forbidden', 'Account forms must be sent from this site.'));
    }
    await next();
  };
}

const clients = createUserAgentParser();

/** Starts a session for the account and sets its cookie: the only place a cookie is set. */
export async function signInTo(deps: HttpDeps, ctx: Context, accountId: string): Promise<void> {
  // what signed in, for the settings' list of sessions: device class and browser, never the address
  const { device, browser } = clients.describe(ctx.get('user-agent'));
  const { token } = await startSession(deps.core, accountId, { device, browser });
  setSessionCookie(ctx, sessionSiteOf(deps.core.config.baseUrl), token);
}

/** Sends an account page: no caching, the pages' CSP, no referrer beyond this site. */
export function sendAccountPage(ctx: Context, status: number, body: string): void {
  setHeaders(ctx, ACCOUNT_PAGE_HEADERS);
  ctx.status = status;
  ctx.body = body;
}

/** 303 to `location`, with no body (a form's answer). */
export const seeOther = (ctx: Context, location: string): void => {
  ctx.status = 303;
  ctx.set('Location', location);
  ctx.body = '';
};

/** A posted form's text field ('' when absent or not text). */
export const fieldOf = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' ? value : '';
};

/** The `tag` filter of `/account`: one tag, lower-cased, or '' (anything else filters nothing). */
const tagOf = (raw: unknown): string => (typeof raw === 'string' && isTag(raw) ? raw.toLowerCase() : '');

/** Links on one page of `/account`. */
const LINKS_PER_PAGE = 20;

/**
 * Sends `/account`: a page of the account's links (the query's `q` and `cursor`; a cursor that is not
 * ours shows the first page), and the forms, with `extra` after a failed post.
 */
async function sendAccountHome(
  deps: HttpDeps,
  ctx: Context,
  signedIn: SignedIn,
  status: number,
  extra: Pick<AccountHomeView, 'create' | 'claim'> = {},
): Promise<void> {
  const { core } = deps;
  const { language } = stateOf(ctx);
  const search = pageSearchOf(queryOf(ctx.query));
  const { q, cursor } = search;
  const tag = tagOf(queryOf(ctx.query).tag);
  const caller = { accountId: signedIn.account.id, editToken: null };
  const list = (after: string) =>
    listLinks(
      core,
      {
        limit: LINKS_PER_PAGE,
        ...(q ? { q } : {}),
        ...(after ? { cursor: after } : {}),
        ...(tag ? { tag: [tag] } : {}),
      },
      caller,
    );
  let page = await list(cursor);
  const paged = page.ok && cursor !== '';
  if (!page.ok) page = await list('');
  const now = core.clock.now();
  // after the owner deleted a link (post, redirect, get): the confirmation at the top
  const deleted = queryOf(ctx.query).done === 'deleted' && status === 200;
  const view: AccountHomeView = {
    language,
    ...(deleted ? { notice: { error: false, text: linkPageTextOf(language).deleted } } : {}),
    name: signedIn.account.name,
    admin: signedIn.account.role === 'admin',
    links: page.ok ? page.value.links.map((link) => toLinkView(link, core.config, now)) : [],
    q,
    tag,
    nextCursor: page.ok ? page.value.nextCursor : null,
    paged,
    domains: core.config.shortDomains.map((d) => d.host),
    claimMax: core.config.limits.claimMax,
    ...(search.tooLong ? { searchError: searchTooLongMessage(language) } : {}),
    ...extra,
  };
  sendAccountPage(ctx, search.tooLong ? 400 : status, accountHomePage(view));
}

/** `/account`, with its creation and claim forms (decisions §10). */
export function addAccountRoutes(router: Router, deps: HttpDeps): void {
  const { core } = deps;
  const guard = accountAreaGuard(deps);

  router.get('/account', guard, async (ctx) => {
    const signedIn = await signedInOf(deps, ctx);
    if (signedIn === null) return seeOther(ctx, '/login');
    await sendAccountHome(deps, ctx, signedIn, 200);
  });

  router.post('/account/links', guard, async (ctx) => {
    const signedIn = await signedInOf(deps, ctx);
    if (signedIn === null) return sendError(ctx, domainError('unauthorized', 'Sign in first.'));
    const values = formValues(await readBody(ctx.req, true));
    const failed = (error: DomainError) => {
      const shown = { ...error, message: errorBody(error, stateOf(ctx).language).error.message };
      return sendAccountHome(deps, ctx, signedIn, HTTP_STATUS[error.code], {
        create: { values, error: shown },
      });
    };
    const caller = { accountId: signedIn.account.id, editToken: null };
    const input = parseInput(CreateLinkInput, formToCreateInput(values));
    if (!input.ok) return failed(input.error);
    const budgeted = await createLinkWithinBudget(budgetedCoreOf(deps), input.value, caller, stateOf(ctx).ip);
    if (budgeted.decision !== null) setHeaders(ctx, rateLimitHeaders(budgeted.decision));
    const created = budgeted.result;
    if (!created.ok) return failed(created.error);
    seeOther(ctx, `/account/links/${created.value.link.id}?done=created`);
  });

  router.post('/account/claim', guard, async (ctx) => {
    const signedIn = await signedInOf(deps, ctx);
    if (signedIn === null) return sendError(ctx, domainError('unauthorized', 'Sign in first.'));
    const { language } = stateOf(ctx);
    const t = accountTextOf(language);
    const sent = fieldOf(await readBody(ctx.req, true), 'tokens');
    const tokens = sent.split(/[\s,;]+/).filter((token) => token !== '');
    const answer = (status: number, error: boolean, text: string) =>
      sendAccountHome(deps, ctx, signedIn, status, {
        claim: { error, text, ...(error ? { tokens: sent } : {}) },
      });
    if (tokens.length === 0) return answer(400, true, t.claimEmpty);
    const claimed = await claimLinks(core, tokens, { accountId: signedIn.account.id, editToken: null });
    if (!claimed.ok) {
      return answer(HTTP_STATUS[claimed.error.code], true, errorBody(claimed.error, language).error.message);
    }
    if (claimed.value === 0) return answer(200, true, t.claimedNone);
    const count = countText(language, claimed.value, t.linkWord, t.linksWord);
    // tokens that matched nothing are said too, when valid ones came with them (issue 26)
    const unmatched = new Set(tokens).size - claimed.value;
    const tokenCount = countText(language, unmatched, t.tokenWord, t.tokensWord);
    const rest = unmatched > 0 ? ` ${fill(t.claimedSome, { unmatched: tokenCount })}` : '';
    return answer(200, false, `${fill(t.claimed, { count })}${rest}`);
  });
}
