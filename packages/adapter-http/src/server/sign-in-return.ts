import type { Context } from 'koa';

/**
 * Paths a sign-in may return to: pages of the account area on this site and team invite links (never
 * `//host`, `/\\host`).
 */
const RETURN_PATH = /^\/(?:account|admin|join\/tinv_[0-9A-Za-z]+)(?:[/?#][^\s\\]*)?$/;

/**
 * The page to go to once signed in: `next` when it is a page of the account area on this site (an
 * open redirect is never possible: no other host, no scheme), else null.
 */
export function signInReturn(next: unknown): string | null {
  return typeof next === 'string' && next.length <= 200 && RETURN_PATH.test(next) && !next.startsWith('//')
    ? next
    : null;
}

/** 303 to `/login`, asking it to come back to this page (a GET) once signed in. */
export function toSignIn(ctx: Context): void {
  const back = signInReturn(ctx.url);
  ctx.status = 303;
  ctx.set(
    'Location',
    back === null || back === '/account' ? '/login' : `/login?next=${encodeURIComponent(back)}`,
  );
  ctx.body = '';
}
