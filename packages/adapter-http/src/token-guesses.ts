import { underTokenGuessLimit } from '@shortener/core';
import type { Context, Next } from 'koa';
import { guardedCoreOf } from './deps.js';
import type { HttpDeps } from './deps.js';
import { sendError, stateOf } from './koa-helpers.js';

/**
 * Runs `handle` under the token guess limit of decisions §14: one unit is spent before the token is
 * looked at and given back when `handle` says the token was right; past the limit, 429 `rate_limited`
 * with `Retry-After` and `handle` never runs.
 */
export async function underTokenLimit(
  deps: HttpDeps,
  ctx: Context,
  kind: 'edit' | 'invite',
  handle: () => Promise<boolean>,
  target = '',
): Promise<void> {
  const { ip } = stateOf(ctx);
  const limited = await underTokenGuessLimit(
    guardedCoreOf(deps),
    { kind, ip, target },
    handle,
    (right) => right,
  );
  if (limited.ok) return;
  ctx.set('Retry-After', String(Math.ceil(limited.retryAfterMs / 1000)));
  deps.metrics?.limited('token');
  sendError(ctx, limited.error);
}

/** The link a path of the JSON API names (`/api/v1/links/{id}…`), or '' for any other path. */
const LINK_PATH = /^\/api\/v1\/links\/([^/]+)/;

/**
 * A request that carries `X-Edit-Token` spends from the edit-token guess limit of the link its path
 * names before any route looks at the token; an answer other than 401/403 means the token was right (or
 * not needed) and gives it back.
 */
export function limitEditTokenGuesses(deps: HttpDeps) {
  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.get('x-edit-token').trim() === '') return next();
    const target = LINK_PATH.exec(ctx.path)?.[1] ?? '';
    const check = async () => {
      await next();
      return ctx.status !== 401 && ctx.status !== 403;
    };
    await underTokenLimit(deps, ctx, 'edit', check, target);
  };
}
