import { domainError } from '@shortener/core';
import type { Caller } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from './deps.js';
import { sendError } from './koa-helpers.js';
import { callerOf } from './request.js';
import { withSession } from './session.js';

/**
 * The account asking, by one of its API keys or its session cookie (the account area's routes:
 * keys, webhooks); otherwise the error is sent (401) and null returned.
 */
export async function accountOfRequest(deps: HttpDeps, ctx: Context): Promise<string | null> {
  const caller = await callerOf(deps, ctx.req);
  const withCookie = caller.ok ? await withSession(deps, ctx, caller.value) : caller;
  const accountId = withCookie.ok ? (withCookie.value as Caller).accountId : null;
  if (!withCookie.ok) sendError(ctx, withCookie.error);
  else if (accountId === null) sendError(ctx, domainError('unauthorized', 'Sign in or use an API key.'));
  return accountId;
}
