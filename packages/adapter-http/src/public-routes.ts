import type Router from '@koa/router';
import {
  domainError,
  findRedirectLink,
  followLink,
  limitSubjectOf,
  redirectState,
  toPublicLinkView,
  verifyPassword,
} from '@shortener/core';
import type { HttpDeps } from './deps.js';
import { sendError, setHeaders, stateOf } from './koa-helpers.js';
import type { LinkCache } from './link-cache.js';
import { refuseMethod } from './methods.js';
import { rateLimitHeaders } from './rate-limit.js';
import { sendOutcome, serveRedirect, slugOfPath, visitOf } from './redirect.js';
import { readBody } from './request.js';
import { settleVisits } from './settle.js';

const PASSWORD_TRIES = [{ windowMs: 15 * 60_000, limit: 10 }];
/** One-segment paths served to GET only: a POST there is 405, not a missing link. */
const GET_ONLY = new Set(['/healthz', '/openapi.json', '/llms.txt']);

/** The public link routes Koa serves: `/{slug}.json`, the password POST, and GET/HEAD `/{slug}` as a fallback. */
export function addPublicRoutes(router: Router, deps: HttpDeps, linkCache: LinkCache): void {
  const { core } = deps;

  router.get('/:slug.json', async (ctx) => {
    await settleVisits(deps);
    const link = await findRedirectLink(core, ctx.host, ctx.params.slug ?? '');
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
      return sendOutcome(ctx.req, ctx.res, language, state);
    }
    const throttleKey = `password:${state.link.id}:${limitSubjectOf(ip, core.config.limits.ipv6PrefixBits)}`;
    const left = await deps.rateLimiter.hit(throttleKey, PASSWORD_TRIES, 0, core.clock.now());
    if (left.remaining === 0) {
      deps.metrics?.limited('password');
      setHeaders(ctx, rateLimitHeaders({ ...left, allowed: false, retryAfterMs: left.resetMs }));
      return sendError(ctx, domainError('rate_limited', 'Too many wrong passwords; try again later.'));
    }
    const body = await readBody(ctx.req, true);
    const password =
      typeof body === 'object' && body !== null ? (body as Record<string, unknown>).password : undefined;
    const passes =
      typeof password === 'string' && (await verifyPassword(password, state.link.passwordHash ?? ''));
    ctx.respond = false;
    if (!passes) {
      await deps.rateLimiter.hit(throttleKey, PASSWORD_TRIES, 1, core.clock.now());
      return sendOutcome(ctx.req, ctx.res, language, state, true);
    }
    sendOutcome(
      ctx.req,
      ctx.res,
      language,
      // the Referer of this post is the password form itself, not where the visitor came from
      await followLink(core, deps.recorder, state.link, { ...visitOf(deps, ctx.req), referrer: null }),
    );
  });
}
