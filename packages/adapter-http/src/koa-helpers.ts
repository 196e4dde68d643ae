import type { DomainError, Language, Result } from '@shortener/core';
import type { Context } from 'koa';
import { HTTP_STATUS, errorBody } from './errors.js';

/** Per-request state set by the first middlewares. */
export interface RequestState {
  language: Language;
  /** The client's address by the proxy rule (decisions §9); a rate-limit key, never stored. */
  ip: string;
  /** The scheme the client used, by the same rule. */
  protocol: 'http' | 'https';
}

/** The request state of a Koa context. */
export const stateOf = (ctx: Context): RequestState => ctx.state as RequestState;

/** Answers with the error object and the status of its code. */
export function sendError(ctx: Context, error: DomainError, status: number = HTTP_STATUS[error.code]): void {
  ctx.status = status;
  ctx.body = errorBody(error, stateOf(ctx).language);
}

/** Sets `Retry-After` (whole seconds, rounded up) when a result was refused by a limit. */
export function setRetryAfter(
  ctx: Context,
  result: { ok: boolean } | { ok: false; retryAfterMs: number },
): void {
  if (!result.ok && 'retryAfterMs' in result)
    ctx.set('Retry-After', String(Math.ceil(result.retryAfterMs / 1000)));
}

/** Sends a result: the mapped value with `status` on success, the error object otherwise. Returns success. */
export function sendResult<T>(
  ctx: Context,
  result: Result<T>,
  render: (value: T) => unknown,
  status = 200,
): boolean {
  if (!result.ok) {
    sendError(ctx, result.error);
    return false;
  }
  ctx.status = status;
  ctx.body = render(result.value);
  return true;
}

/** Sets many response headers. */
export function setHeaders(ctx: Context, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
}
