import type Router from '@koa/router';
import {
  domainError,
  findLinkShown,
  findRedirectLink,
  followLink,
  guessLinkPassword,
  redirectState,
  toPublicLinkView,
} from '@shortener/core';
import { guardedCoreOf } from '../deps.js';
import type { HttpDeps } from '../deps.js';
import { sendError, stateOf } from '../koa-helpers.js';
import type { LinkCache } from './link-cache.js';
import { refuseMethod } from '../server/methods.js';
import { sendOutcome, serveRedirect, slugOfPath, visitOf } from './redirect.js';
import { readBody } from '../request.js';
import type { RoutedLink } from './routing.js';
import { routeRequest, withRouting } from './routing.js';

/** One-segment paths served to GET only: a POST there is 405, not a missing link. */
const GET_ONLY = new Set(['/healthz', '/openapi.json', '/llms.txt', '/robots.txt']);

/** The public link routes Koa serves: `/{slug}.json`, the password POST, and GET/HEAD `/{slug}` as a fallback. */
export function addPublicRoutes(router: Router, deps: HttpDeps, linkCache: LinkCache<RoutedLink>): void {
  const { core } = deps;

  router.get('/:slug.json', async (ctx) => {
    const link = await findLinkShown(core, ctx.host, ctx.params.slug ?? '');
    if (link === null) return sendError(ctx, domainError('not_found'));
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = toPublicLinkView(link, core.config, core.clock.now());
  });

  router.get('/:slug', async (ctx, next) => {
    const target = slugOfPath(ctx.url);
    if (target === null) return next();
    ctx.respond = false;
    await serveRedirect(deps, linkCache, ctx.req, ctx.res, target.slug, target.query);
  });

  router.post('/:slug', async (ctx, next) => {
    const target = slugOfPath(ctx.url);
    if (target === null && GET_ONLY.has(ctx.path)) return refuseMethod(ctx);
    if (target === null) return next();
    const { language, ip } = stateOf(ctx);
    const link = await findRedirectLink(core, ctx.host, target.slug);
    const state = redirectState(link, core.clock.now());
    if (state.kind !== 'password') {
      ctx.respond = false;
      return sendOutcome(deps, ctx.req, ctx.res, language, state);
    }
    const body = await readBody(ctx.req, true);
    const password =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>).password : undefined;
    const guess = await guessLinkPassword(guardedCoreOf(deps), state.link, ip, password);
    if (!guess.ok && 'retryAfterMs' in guess) {
      deps.metrics?.limited('password');
      ctx.set('Retry-After', String(Math.ceil(guess.retryAfterMs / 1000)));
      return sendError(ctx, guess.error);
    }
    ctx.respond = false;
    if (!guess.ok) return sendOutcome(deps, ctx.req, ctx.res, language, state, { wrongPassword: true });
    const routing = withRouting(deps, state.link)?.routing ?? null;
    const routed = routing === null ? null : routeRequest(deps, ctx.req, state.link, routing, target.query);
    // the Referer of this post is the password form itself, not where the visitor came from
    const visit = { ...visitOf(deps, ctx.req, routed?.rule ?? null), referrer: null };
    const outcome = await followLink(core, deps.recorder, state.link, visit);
    sendOutcome(deps, ctx.req, ctx.res, language, outcome, { routed });
  });
}
