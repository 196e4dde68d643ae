import {
  ANONYMOUS,
  domainError,
  findLinkShown,
  findRedirectLink,
  followLink,
  getStats,
  guessLinkPassword,
  isTimeZone,
  redirectState,
  toLinkView,
  toPublicLinkView,
} from '@shortener/core';
import type { RedirectOutcome } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { guardedCoreOf } from '../deps.js';
import { sendError, setHeaders, stateOf } from '../koa-helpers.js';
import { FORM_TYPE, jsonContent, ref } from '../openapi/openapi-paths.js';
import { FAILURE, header, html, query } from '../openapi/openapi-pages.js';
import { gone, notFound, redirects } from './page-docs.js';
import { previewPageHeaders } from '../pages/layout.js';
import { previewPage } from '../pages/preview-page.js';
import { readBody } from '../request.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { refuseMethod } from '../server/methods.js';
import { noteOtherOrphan } from '../server/orphan-visits.js';
import { sendMissing, sendOutcome } from './redirect-answers.js';
import { serveRedirect, slugOfPath, visitOf } from './redirect.js';
import { linkCacheOf, routeRequest, saltFor, withRouting } from './routing.js';

const PREVIEW_PATH = /^\/([A-Za-z0-9_-]{1,64})(?:\+|%2[Bb])$/;

/** One-segment paths served to GET only: a POST there is 405, not a missing link. */
const GET_ONLY = new Set(['/healthz', '/openapi.json', '/docs', '/llms.txt', '/robots.txt']);

const SLUG = ref('parameters', 'slug');

type Locked = Extract<RedirectOutcome, { kind: 'password' }>;

/** `/{slug}+`: the preview page, with the public statistics of the last 30 days. */
async function preview(ctx: Context, deps: HttpDeps, slug: string): Promise<void> {
  const { core } = deps;
  const { language } = stateOf(ctx);
  const link = await findLinkShown(core, ctx.host, slug);
  if (link === null) {
    noteOtherOrphan(deps, ctx);
    ctx.respond = false;
    return sendMissing(ctx.req, ctx.res, language, null);
  }
  // the days of the browser's zone (its script asks again with `tz`); a zone not known counts in UTC
  const asked = typeof ctx.query.tz === 'string' ? ctx.query.tz : null;
  const tz = asked !== null && isTimeZone(asked) ? asked : 'UTC';
  const stats = link.publicStats ? await getStats(core, link.id, { days: 30, tz }, ANONYMOUS) : null;
  const view = toLinkView(link, core.config, core.clock.now());
  setHeaders(ctx, {
    'Cache-Control': 'no-cache',
    ...previewPageHeaders(new URL(core.config.baseUrl).origin),
  });
  ctx.body = previewPage({
    language,
    link: view,
    stats: stats?.ok ? stats.value : null,
    zoneReload: asked === null,
  });
}

/** The password post of a protected link: the right password redirects (a click), as `GET` would. */
async function unlock(ctx: Context, deps: HttpDeps, state: Locked, query: string): Promise<void> {
  const { language, ip } = stateOf(ctx);
  const { link } = state;
  const body = (await readBody(ctx.req, true)) as Record<string, unknown> | null | undefined;
  const password = typeof body === 'object' && body !== null ? body.password : undefined;
  const guess = await guessLinkPassword(guardedCoreOf(deps), link, ip, password);
  if (!guess.ok && 'retryAfterMs' in guess) {
    deps.metrics?.limited('password');
    ctx.set('Retry-After', String(Math.ceil(guess.retryAfterMs / 1000)));
    return sendError(ctx, guess.error);
  }
  ctx.respond = false;
  if (!guess.ok) return sendOutcome(deps, ctx.req, ctx.res, language, state, { wrongPassword: true });
  const routing = withRouting(deps, link)?.routing ?? null;
  const salt = await saltFor(deps, routing, deps.core.clock.now());
  const routed = routing === null ? null : routeRequest(deps, ctx.req, link, routing, query, salt);
  // the Referer of this post is the password form itself, not where the visitor came from
  const visit = { ...visitOf(deps, ctx.req, routed), referrer: null };
  const outcome = await followLink(deps.core, deps.recorder, link, visit);
  sendOutcome(deps, ctx.req, ctx.res, language, outcome, { routed });
}

/**
 * A short link's own paths that Koa serves: its preview, its public facts, the password post, and
 * GET/HEAD `/{slug}` as a fallback (the server answers those before Koa: decisions §1). In this order:
 * `/:slug` also matches `/{slug}+` and `/{slug}.json`, and passes them on.
 */
export const SHORT_LINK_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/{slug}+',
    routerPath: '/:slug',
    area: 'public',
    onShortDomains: true,
    access: 'anyone',
    doc: {
      id: 'previewLink',
      summary: 'Preview a short link',
      description: 'Shows destination, creation date and public statistics without redirecting or counting.',
      tag: 'public',
      parameters: [
        SLUG,
        query(
          'tz',
          'The time zone (IANA) whose days the clicks are counted in; the page’s script asks with the browser’s. Absent or unknown: UTC.',
          'Europe/Vienna',
        ),
      ],
      responses: { 200: html('The preview page (no destination for a protected link).'), 404: notFound },
    },
    handle: (ctx, { deps }, next) => {
      const slug = PREVIEW_PATH.exec(ctx.path)?.[1];
      return slug === undefined ? next() : preview(ctx, deps, slug);
    },
  }),
  route({
    method: 'get',
    path: '/{slug}.json',
    area: 'public',
    onShortDomains: true,
    access: 'anyone',
    doc: {
      id: 'getPublicLink',
      summary: 'Public facts of a short link',
      description: '`url` is omitted for a password-protected link; `clicks` appears only with public stats.',
      tag: 'public',
      parameters: [SLUG],
      responses: {
        200: {
          description: 'The public link.',
          headers: { 'Cache-Control': header('`no-cache`.', { const: 'no-cache' }, true) },
          content: jsonContent(ref('schemas', 'PublicLink')),
        },
      },
      errors: [404],
    },
    handle: async (ctx, { deps, params }) => {
      const { core } = deps;
      const link = await findLinkShown(core, ctx.host, params.slug ?? '');
      if (link === null) {
        noteOtherOrphan(deps, ctx);
        return sendError(ctx, domainError('not_found'));
      }
      ctx.set('Cache-Control', 'no-cache');
      ctx.body = toPublicLinkView(link, core.config, core.clock.now());
    },
  }),
  route({
    method: 'get',
    path: '/{slug}',
    area: 'public',
    onShortDomains: true,
    access: 'anyone',
    doc: {
      id: 'followLink',
      summary: 'Follow a short link',
      description:
        'Redirects to the destination and counts a click (bots are redirected but counted apart). A ' +
        'password-protected link answers a password form instead. Served before the web framework: the ' +
        'query string is read only for `lang`, redirect rules on `query` and `forward_query`.',
      tag: 'public',
      parameters: [SLUG],
      responses: {
        200: html('The password form of a protected link.'),
        ...redirects('Redirect to the destination.'),
        404: notFound,
        410: gone,
      },
      errors: [500],
      common: false,
    },
    handle: async (ctx, { deps }, next) => {
      const target = slugOfPath(ctx.url);
      if (target === null) return next();
      ctx.respond = false;
      await serveRedirect(deps, linkCacheOf(deps), ctx.req, ctx.res, target.slug, target.query);
    },
  }),
  route({
    method: 'post',
    path: '/{slug}',
    area: 'public',
    onShortDomains: true,
    access: 'anyone',
    doc: {
      id: 'unlockLink',
      summary: 'Submit the password of a protected link',
      description:
        'Form post of the password page (a JSON body `{ "password" }` works too). The right password ' +
        'redirects (a click); 10 wrong tries per IP and link in 15 minutes lock further tries. A link ' +
        'without a password just redirects.',
      tag: 'public',
      parameters: [SLUG],
      body: {
        type: 'object',
        properties: { password: { type: 'string', description: 'The link’s password.' } },
        required: ['password'],
      },
      example: { password: 'correct horse' },
      bodyTypes: [FORM_TYPE, 'application/json'],
      responses: {
        ...redirects('Right password: redirect.'),
        401: html('Wrong or missing password: the form again, with an error.'),
        404: notFound,
        410: gone,
        default: FAILURE,
      },
      errors: [429],
    },
    handle: async (ctx, { deps }, next) => {
      const target = slugOfPath(ctx.url);
      if (target === null && GET_ONLY.has(ctx.path)) return refuseMethod(ctx);
      if (target === null) return next();
      const link = await findRedirectLink(deps.core, ctx.host, target.slug);
      const state = redirectState(link, deps.core.clock.now());
      if (state.kind === 'password') return unlock(ctx, deps, state, target.query);
      ctx.respond = false;
      sendOutcome(deps, ctx.req, ctx.res, stateOf(ctx).language, state);
    },
  }),
];
