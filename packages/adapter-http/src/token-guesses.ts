import type { GuessBudget } from '@shortener/core';
import { domainError, spendGuess, tokenGuessBudget, tooManyGuesses } from '@shortener/core';
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
  const budget: GuessBudget = tokenGuessBudget(deps.core.config, kind, stateOf(ctx).ip, target);
  const guess = await spendGuess(guardedCoreOf(deps), [budget]);
  if (!guess.allowed) {
    const refused = tooManyGuesses(guess, 'Too many wrong tokens from this address; try again later.');
    if (!refused.ok && 'retryAfterMs' in refused) {
      ctx.set('Retry-After', String(Math.ceil(refused.retryAfterMs / 1000)));
    }
    deps.metrics?.limited('token');
    return sendError(ctx, refused.ok ? domainError('rate_limited') : refused.error);
  }
  let right = true; // a failure to check (the store away) is no wrong guess: given back
  try {
    right = await handle();
  } finally {
    await guess.settle(right);
  }
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
