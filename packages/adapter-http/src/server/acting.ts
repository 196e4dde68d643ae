import type { Caller, SignedIn } from '@shortener/core';
import { actingFor, sessionCaller } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { onSessionHost, sessionSiteOf } from './session.js';

/** The cookie that keeps the account the pages act for (the switcher, decisions §21): a name, no secret. */
export const ACTING_COOKIE = 'shortener_account';

/** The account name the pages act for, from the switcher's cookie; null for the person's own. */
export function actingNameOf(ctx: Context, baseUrl: string): string | null {
  if (!onSessionHost(ctx, sessionSiteOf(baseUrl))) return null;
  for (const part of ctx.get('cookie').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name !== ACTING_COOKIE) continue;
    try {
      return decodeURIComponent(value.join('=')) || null;
    } catch {
      return null;
    }
  }
  return null;
}

/** Sets (or with null clears) the account the pages act for. */
export function setActingCookie(ctx: Context, baseUrl: string, name: string | null): void {
  const site = sessionSiteOf(baseUrl);
  const secure = site.secure ? '; Secure' : '';
  const value = name === null ? '=; Max-Age=0' : `=${encodeURIComponent(name)}; Max-Age=31536000`;
  ctx.append('Set-Cookie', `${ACTING_COOKIE}${value}; Path=/; HttpOnly; SameSite=Lax${secure}`);
}

/**
 * The caller of a signed-in page: the person, acting for the team the switcher chose when they are still
 * its member (else their own account).
 */
export async function pageCallerOf(deps: HttpDeps, ctx: Context, signedIn: SignedIn): Promise<Caller> {
  const own = sessionCaller(signedIn.account);
  const name = actingNameOf(ctx, deps.core.config.baseUrl);
  if (name === null) return own;
  const acting = await actingFor(deps.core, own, name);
  return acting.ok ? acting.value : own;
}
