import type { Caller, DomainError, SignedIn } from '@shortener/core';
import {
  CreateLinkInput,
  claimLinks,
  countText,
  createLinkWithinBudget,
  getStatsAcross,
  isTag,
  listDomains,
  listLinks,
  listTags,
  parseInput,
  permits,
  toLinkView,
} from '@shortener/core';
import type { Context } from 'koa';
import { rateLimitHeaders } from '../server/rate-limit.js';
import type { HttpDeps } from '../deps.js';
import { budgetedCoreOf } from '../deps.js';
import { HTTP_STATUS, errorBody } from '../errors.js';
import { setHeaders, stateOf } from '../koa-helpers.js';
import {
  HTML,
  doneParameter,
  html,
  query,
  search,
  seeOther as seeOtherDoc,
} from '../openapi/openapi-pages.js';
import { LinkForm } from '../server/forms.js';
import { ClaimForm } from './account-forms.js';
import type { Json } from '../openapi/openapi-schemas.js';
import type { AccountHomeView } from '../pages/account/account-pages.js';
import { accountHomePage } from '../pages/account/account-pages.js';
import { accountTextOf } from '../pages/account/account-text.js';
import { linkPageTextOf } from '../pages/account/link-page-text.js';
import { formToCreateInput, formValues } from '../pages/form-input.js';
import { fill } from '../pages/text.js';
import { queryOf } from '../request.js';
import { ROLE_REFUSED } from '../server/acting.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { pageSearchOf, searchTooLongMessage } from '../server/query.js';
import { seeOther, sendAccountPage } from '../server/account-area.js';
import { RANGE_PARAMETERS, statsInWindow, windowOf, zoneOf } from '../server/stats-window.js';
import type { StatsWindow } from '../server/stats-window.js';

const again = (description: string): Json => ({
  description: `The page again, with ${description} (HTML).`,
  content: HTML,
});

/**
 * The `tag` filter of `/account`: one tag as given (spaces collapsed; the listing compares its key, so
 * `café menu` finds `Café Menu`), or '' (anything else filters nothing).
 */
const tagOf = (raw: unknown): string =>
  typeof raw === 'string' && isTag(raw) ? raw.trim().replace(/\s+/gu, ' ') : '';

/** The `health` filter of `/account` (decisions §23): `broken`, or '' (anything else filters nothing). */
const healthOf = (raw: unknown): 'broken' | '' => (raw === 'broken' ? 'broken' : '');

/** Links on one page of `/account`. */
const LINKS_PER_PAGE = 20;

/**
 * Sends `/account`: a page of the links of the account acted for (the query's `q` and `cursor`; a cursor
 * that is not ours shows the first page), and the forms the caller's role may use, with `extra` after a
 * failed post.
 */
async function sendAccountHome(
  deps: HttpDeps,
  ctx: Context,
  { signedIn, caller }: { readonly signedIn: SignedIn; readonly caller: Caller },
  status: number,
  extra: Pick<AccountHomeView, 'create' | 'claim'> = {},
): Promise<void> {
  const { core } = deps;
  const { language } = stateOf(ctx);
  const search = pageSearchOf(queryOf(ctx.query));
  const { q, cursor } = search;
  const tag = tagOf(queryOf(ctx.query).tag);
  const health = healthOf(queryOf(ctx.query).health);
  const list = (after: string) =>
    listLinks(
      core,
      {
        limit: LINKS_PER_PAGE,
        ...(q ? { q } : {}),
        ...(after ? { cursor: after } : {}),
        ...(tag ? { tag: [tag] } : {}),
        ...(health ? { health } : {}),
      },
      caller,
    );
  let page = await list(cursor);
  const paged = page.ok && cursor !== '';
  if (!page.ok) page = await list('');
  const now = core.clock.now();
  // on a GET, the statistics over the links (or the tag's) in the browser's zone (decisions §18)
  const tz = zoneOf(queryOf(ctx.query).tz);
  const window = windowOf(queryOf(ctx.query));
  const read = (query: StatsWindow & { tz: string }) => getStatsAcross(core, tag || null, query, caller);
  const across = ctx.method === 'GET' ? await statsInWindow(read, window, tz) : null;
  const tags = await listTags(core, caller);
  // after the owner deleted a link (post, redirect, get): the confirmation at the top
  const deleted = queryOf(ctx.query).done === 'deleted' && status === 200;
  const view: AccountHomeView = {
    language,
    ...(deleted ? { notice: { error: false, text: linkPageTextOf(language).deleted } } : {}),
    name: signedIn.account.name,
    admin: signedIn.account.role === 'admin',
    creates: permits(caller, 'links.create'),
    changes: permits(caller, 'links.change'),
    domainsPage: deps.domains !== undefined,
    links: page.ok ? page.value.links.map((link) => toLinkView(link, core.config, now)) : [],
    q,
    tag,
    health,
    healthFilter: deps.linkHealth !== undefined,
    nextCursor: page.ok ? page.value.nextCursor : null,
    paged,
    // the short domains, then the account's active own domains (decisions §20)
    domains: [
      ...core.config.shortDomains.map((d) => d.host),
      ...(await activeOwnHosts(deps, caller.accountId ?? '')),
    ],
    claimMax: core.config.limits.claimMax,
    // a tag's view shows no top tags
    ...(across?.stats.ok
      ? {
          overview: {
            stats: across.stats.value,
            tags: tags.ok && tag === '' ? tags.value : [],
            ranged: 'from' in window && across.rangeError === null,
            ...(across.rangeError === null ? {} : { rangeError: across.rangeError }),
          },
        }
      : {}),
    tagNames: tags.ok ? tags.value.map((t) => t.name) : [],
    ...(search.tooLong ? { searchError: searchTooLongMessage(language) } : {}),
    ...extra,
  };
  sendAccountPage(ctx, search.tooLong ? 400 : status, accountHomePage(view));
}

/** `/account`, with its forms to create a link and to claim anonymous ones (decisions §10, §15). */
export const ACCOUNT_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/account',
    area: 'account',
    access: 'signed-in',
    does: 'links.read',
    doc: {
      id: 'accountPage',
      summary: 'The signed-in account',
      description:
        'Its name, a page of its links (20, newest first), and the forms to create a link and to claim ' +
        'anonymous ones; without a session, a redirect to `/login`. A cursor that is not one of ours ' +
        'shows the first page.',
      parameters: [
        search('summer'),
        query('tag', 'Shows the links carrying this tag (decisions §15).', 'summer'),
        query(
          'health',
          '`broken`: shows the links whose destinations broke (decisions §23); combines with `q` and `tag`.',
          'broken',
        ),
        doneParameter('`deleted`'),
        query('days', 'The overview’s window: 7, 30 (default), 90 or 365 days.', '90'),
        ...RANGE_PARAMETERS,
        query(
          'tz',
          'The IANA time zone of the days (the page’s script sends the browser’s); UTC by default.',
          'Europe/Vienna',
        ),
        query(
          'cursor',
          'The page after this one, as the page’s “Next page” link gives it.',
          'MTczMjQwMDAwMDAwMC5hYmM',
        ),
      ],
      responses: {
        200: html('The page.'),
        303: seeOtherDoc('Not signed in: to `/login`.'),
        400: again('the first page unsearched and the error: `q` or `cursor` is over 200 characters'),
      },
    },
    handle: async (ctx, { deps, signedIn, caller }) => {
      if (signedIn !== null) await sendAccountHome(deps, ctx, { signedIn, caller }, 200);
    },
  }),
  route({
    method: 'post',
    path: '/account/links',
    area: 'account',
    access: 'signed-in',
    does: 'links.create',
    body: LinkForm,
    form: true,
    doc: {
      id: 'createAccountLinkByForm',
      summary: 'Create a link for the signed-in account',
      description:
        'The fields of the home page’s form; the link belongs to the account (no edit token). ' +
        'Limited like creation with an API key.',
      example: { url: 'https://example.com/a/long/path', title: 'Summer sale' },
      responses: {
        ...ROLE_REFUSED,
        303: seeOtherDoc('Created: to the link’s page `/account/links/{id}?done=created`, which says so.'),
        400: again('what was typed and the error'),
        429: again('the error: the creation limit is reached'),
      },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn, caller, body }) => {
      if (signedIn === null) return;
      const values = formValues(body);
      const failed = (error: DomainError) => {
        const shown = { ...error, message: errorBody(error, stateOf(ctx).language).error.message };
        return sendAccountHome(deps, ctx, { signedIn, caller }, HTTP_STATUS[error.code], {
          create: { values, error: shown },
        });
      };
      const input = parseInput(CreateLinkInput, formToCreateInput(values));
      if (!input.ok) return failed(input.error);
      const budgeted = await createLinkWithinBudget(
        budgetedCoreOf(deps),
        input.value,
        caller,
        stateOf(ctx).ip,
      );
      if (budgeted.decision !== null) setHeaders(ctx, rateLimitHeaders(budgeted.decision));
      const created = budgeted.result;
      if (!created.ok) return failed(created.error);
      seeOther(ctx, `/account/links/${created.value.link.id}?done=created`);
    },
  }),
  route({
    method: 'post',
    path: '/account/claim',
    area: 'account',
    access: 'signed-in',
    does: 'links.create',
    body: ClaimForm,
    form: true,
    doc: {
      id: 'claimLinksByForm',
      summary: 'Claim anonymous links by their edit tokens',
      description:
        'Tokens separated by lines, spaces or commas; the links move to the account and their tokens ' +
        'stop working. The page says how many were added (none: the tokens are unknown or claimed).',
      example: { tokens: 'et_4fTq9ZrW2mXb7LcN1vYs8KdJ3hGp6QaE' },
      responses: {
        ...ROLE_REFUSED,
        200: html('The page, saying how many links were added.'),
        400: again('the error (no token, or more than the limit)'),
      },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn, caller, body }) => {
      if (signedIn === null) return;
      const { language } = stateOf(ctx);
      const t = accountTextOf(language);
      const sent = body.tokens ?? '';
      const tokens = sent.split(/[\s,;]+/).filter((token) => token !== '');
      const answer = (status: number, error: boolean, text: string) =>
        sendAccountHome(deps, ctx, { signedIn, caller }, status, {
          claim: { error, text, ...(error ? { tokens: sent } : {}) },
        });
      if (tokens.length === 0) return answer(400, true, t.claimEmpty);
      const claimed = await claimLinks(deps.core, tokens, caller);
      if (!claimed.ok) {
        return answer(
          HTTP_STATUS[claimed.error.code],
          true,
          errorBody(claimed.error, language).error.message,
        );
      }
      if (claimed.value === 0) return answer(200, true, t.claimedNone);
      const count = countText(language, claimed.value, t.linkWord, t.linksWord);
      // tokens that matched nothing are said too, when valid ones came with them (issue 26)
      const unmatched = new Set(tokens).size - claimed.value;
      const tokenCount = countText(language, unmatched, t.tokenWord, t.tokensWord);
      const rest = unmatched > 0 ? ` ${fill(t.claimedSome, { unmatched: tokenCount })}` : '';
      return answer(200, false, `${fill(t.claimed, { count })}${rest}`);
    },
  }),
];

/** The hosts of the account's active own domains, oldest first (none where the server has no domains). */
async function activeOwnHosts(deps: HttpDeps, accountId: string): Promise<string[]> {
  if (deps.domains === undefined) return [];
  const all = await listDomains(deps.domains, accountId);
  return all.filter((domain) => domain.state === 'active').map((domain) => domain.host);
}
