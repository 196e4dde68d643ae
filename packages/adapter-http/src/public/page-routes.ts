import type Router from '@koa/router';
import type { DomainError } from '@shortener/core';
import {
  ANONYMOUS,
  CreateLinkInput,
  createLinkWithinBudget,
  findLinkShown,
  getStats,
  parseInput,
  toLinkView,
} from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { budgetedCoreOf } from '../deps.js';
import { HTTP_STATUS, errorBody } from '../errors.js';
import { setHeaders, stateOf } from '../koa-helpers.js';
import { assets } from '../pages/assets.js';
import { formToCreateInput, formValues } from '../pages/form-input.js';
import { createdPage, homePage } from '../pages/home-page.js';
import { LINK_PAGE_HEADERS, PAGE_REFERRER_POLICY, contentSecurityPolicy } from '../pages/layout.js';
import { previewPage } from '../pages/preview-page.js';
import { rateLimitHeaders } from '../api/rate-limit.js';
import { sendMissing } from './redirect.js';
import { readBody } from '../request.js';
import { signedInOf, withSession } from '../account/session.js';

const PREVIEW_PATH = /^\/([A-Za-z0-9_-]{1,64})(?:\+|%2[Bb])$/;
const YEAR = 365 * 24 * 3600;

/** The pages: the home form (`GET /`, and `POST /` for browsers without script), `/{slug}+`, `/assets/*`. */
export function addPageRoutes(router: Router, deps: HttpDeps): void {
  const { core } = deps;
  const domains = core.config.shortDomains.map((d) => d.host);
  const accountHref = new URL('/account', core.config.baseUrl).href;
  const homeHeaders = {
    ...LINK_PAGE_HEADERS,
    'Content-Security-Policy': contentSecurityPolicy(core.config.shortDomains.map((d) => d.origin)),
    'Referrer-Policy': PAGE_REFERRER_POLICY,
    'Cache-Control': 'no-store',
  };
  const sendPage = (ctx: Context, status: number, body: string, headers = LINK_PAGE_HEADERS) => {
    setHeaders(ctx, { 'Cache-Control': 'no-cache', ...headers });
    ctx.status = status;
    ctx.body = body;
  };

  router.get('/assets/:file', (ctx) => {
    const asset = assets().find(ctx.params.file ?? '');
    if (asset === undefined) return; // the app's 404
    setHeaders(ctx, { 'Cache-Control': `public, max-age=${YEAR}, immutable`, ETag: asset.etag });
    if (ctx.get('if-none-match') === asset.etag) return void (ctx.status = 304);
    ctx.type = asset.contentType;
    ctx.body = asset.body;
  });

  router.get('/', async (ctx) => {
    const signedIn = await signedInOf(deps, ctx);
    const signedInAs = signedIn?.account.name;
    sendPage(
      ctx,
      200,
      homePage({ language: stateOf(ctx).language, domains, accountHref, signedInAs }),
      homeHeaders,
    );
  });

  router.post('/', async (ctx) => {
    const { language, ip } = stateOf(ctx);
    const values = formValues(await readBody(ctx.req, true));
    const failed = (error: DomainError, status = HTTP_STATUS[error.code]) => {
      const shown = { ...error, message: errorBody(error, language).error.message };
      sendPage(ctx, status, homePage({ language, domains, values, error: shown, accountHref }), homeHeaders);
    };
    const input = parseInput(CreateLinkInput, formToCreateInput(values));
    if (!input.ok) return failed(input.error);
    // signed in, the link is the account's, as the home page says (and as its script's API call makes it)
    const caller = await withSession(deps, ctx, ANONYMOUS);
    if (!caller.ok) return failed(caller.error);
    const budgeted = await createLinkWithinBudget(budgetedCoreOf(deps), input.value, caller.value, ip);
    if (budgeted.decision !== null) setHeaders(ctx, rateLimitHeaders(budgeted.decision));
    const created = budgeted.result;
    if (!created.ok) return failed(created.error);
    const view = toLinkView(
      created.value.link,
      core.config,
      core.clock.now(),
      created.value.editToken ?? undefined,
    );
    sendPage(ctx, 201, createdPage(language, view, accountHref), homeHeaders);
  });

  router.get('/:slug', async (ctx, next) => {
    const match = PREVIEW_PATH.exec(ctx.path);
    if (!match?.[1]) return next();
    const { language } = stateOf(ctx);
    const link = await findLinkShown(core, ctx.host, match[1]);
    if (link === null) {
      ctx.respond = false;
      return sendMissing(ctx.req, ctx.res, language, null);
    }
    const stats = link.publicStats ? await getStats(core, link.id, { days: 30 }, ANONYMOUS) : null;
    const view = toLinkView(link, core.config, core.clock.now());
    sendPage(ctx, 200, previewPage({ language, link: view, stats: stats?.ok ? stats.value : null }));
  });
}
