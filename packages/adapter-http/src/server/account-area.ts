import { domainError, startSession } from '@shortener/core';
import type { Context, Next } from 'koa';
import type { HttpDeps } from '../deps.js';
import { sendError, setHeaders } from '../koa-helpers.js';
import { ACCOUNT_PAGE_HEADERS } from '../pages/layout.js';
import { fillAccountPage } from './acting.js';
import { createUserAgentParser } from './user-agent.js';
import { fromSameOrigin, onSessionHost, sessionSiteOf, setSessionCookie } from './session.js';

// What the account area's routes share (account/, admin/ and the route kit): its guard, starting a
// session, and how its pages answer.

/**
 * Guards the account area (decisions §10): it exists on {base_url}'s host only (elsewhere the app's 404),
 * and a form post must come from its own pages (`Origin` or `Sec-Fetch-Site`), else `403 forbidden`.
 */
export function accountAreaGuard(deps: HttpDeps) {
  const site = sessionSiteOf(deps.core.config.baseUrl);
  return async (ctx: Context, next: Next): Promise<void> => {
    if (!onSessionHost(ctx, site)) return;
    if (ctx.method === 'POST' && !fromSameOrigin(ctx, site)) {
      return sendError(ctx, domainError('forbidden', 'Account forms must be sent from this site.'));
    }
    await next();
    await fillAccountPage(deps, ctx);
  };
}

const clients = createUserAgentParser();

/** Starts a session for the account and sets its cookie: the only place a cookie is set. */
export async function signInTo(deps: HttpDeps, ctx: Context, accountId: string): Promise<void> {
  // what signed in, for the settings' list of sessions: device class and browser, never the address
  const { device, browser } = clients.describe(ctx.get('user-agent'));
  const { token } = await startSession(deps.core, accountId, { device, browser });
  setSessionCookie(ctx, sessionSiteOf(deps.core.config.baseUrl), token);
}

/** Sends an account page: no caching, the pages' CSP, no referrer beyond this site. */
export function sendAccountPage(ctx: Context, status: number, body: string): void {
  setHeaders(ctx, ACCOUNT_PAGE_HEADERS);
  ctx.status = status;
  ctx.body = body;
}

/** 303 to `location`, with no body (a form's answer). */
export const seeOther = (ctx: Context, location: string): void => {
  ctx.status = 303;
  ctx.set('Location', location);
  ctx.body = '';
};

/** A posted form's text field ('' when absent or not text). */
export const fieldOf = (body: unknown, name: string): string => {
  const value = (body as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' ? value : '';
};
