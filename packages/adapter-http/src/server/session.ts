import type { Caller, Result, SignedIn } from '@shortener/core';
import { SESSION_MAX_MS, authenticateSession, domainError, err, ok, sessionCaller } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';

/** Where the session cookie lives: {base_url}'s host only (decisions §10). */
export interface SessionSite {
  /** `__Host-shortener_session` over https, `shortener_session` when {base_url} is plain http. */
  readonly cookieName: string;
  readonly secure: boolean;
  /** {base_url}'s host (with port when not default), lower-case. */
  readonly host: string;
  /** {base_url}'s origin: the only `Origin` a cookie-authenticated change may come from. */
  readonly origin: string;
}

const sites = new Map<string, SessionSite>();

/** The session site of {base_url}. */
export function sessionSiteOf(baseUrl: string): SessionSite {
  let site = sites.get(baseUrl);
  if (site === undefined) {
    const url = new URL(baseUrl);
    const secure = url.protocol === 'https:';
    site = {
      cookieName: secure ? '__Host-shortener_session' : 'shortener_session',
      secure,
      host: url.host.toLowerCase(),
      origin: url.origin,
    };
    sites.set(baseUrl, site);
  }
  return site;
}

/** Whether the request was sent to {base_url}'s host, the only one where sessions exist. */
export const onSessionHost = (ctx: Context, site: SessionSite): boolean =>
  ctx.host.toLowerCase() === site.host;

/** Whether the request comes from a page of {base_url}: its `Origin`, or `Sec-Fetch-Site: same-origin`. */
export function fromSameOrigin(ctx: Context, site: SessionSite): boolean {
  return ctx.get('origin') === site.origin || ctx.get('sec-fetch-site') === 'same-origin';
}

/** The session token of the request's cookie, on {base_url}'s host only. */
export function sessionTokenOf(ctx: Context, site: SessionSite): string | null {
  if (!onSessionHost(ctx, site)) return null;
  for (const part of ctx.get('cookie').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === site.cookieName) return value.join('=');
  }
  return null;
}

/** Sets the session cookie (signing in): HttpOnly, SameSite=Lax, Path=/, Secure on https. */
export function setSessionCookie(ctx: Context, site: SessionSite, token: string): void {
  const maxAge = Math.floor(SESSION_MAX_MS / 1000);
  const secure = site.secure ? '; Secure' : '';
  ctx.set(
    'Set-Cookie',
    `${site.cookieName}=${token}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`,
  );
}

/** Removes the session cookie (signing out). */
export function clearSessionCookie(ctx: Context, site: SessionSite): void {
  const secure = site.secure ? '; Secure' : '';
  ctx.set('Set-Cookie', `${site.cookieName}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
}

/** The signed-in account of the request's session cookie, or null. */
export async function signedInOf(deps: HttpDeps, ctx: Context): Promise<SignedIn | null> {
  const token = sessionTokenOf(ctx, sessionSiteOf(deps.core.config.baseUrl));
  if (token === null) return null;
  const signedIn = await authenticateSession(deps.core, token);
  return signedIn.ok ? signedIn.value : null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The caller of a JSON API request, the session cookie included (decisions §10): a request without an
 * API key is the signed-in account's when it carries a live session. A change so authenticated must come
 * from {base_url}'s own pages, else `forbidden`; a read from another site does not use the session.
 */
export async function withSession(deps: HttpDeps, ctx: Context, caller: Caller): Promise<Result<Caller>> {
  if (caller.accountId !== null || ctx.get('authorization') !== '') return ok(caller);
  const signedIn = await signedInOf(deps, ctx);
  if (signedIn === null) return ok(caller);
  const sameOrigin = fromSameOrigin(ctx, sessionSiteOf(deps.core.config.baseUrl));
  if (!SAFE_METHODS.has(ctx.method)) {
    if (!sameOrigin)
      return err(domainError('forbidden', 'A change signed in by cookie must come from this site.'));
  } else if (!sameOrigin && ['cross-site', 'same-site'].includes(ctx.get('sec-fetch-site'))) {
    return ok(caller);
  }
  return ok(sessionCaller(signedIn.account, caller.editToken));
}
