import type Router from '@koa/router';
import {
  acceptInviteWithPassword,
  countFailedSignIn,
  domainError,
  endSession,
  openInvite,
  signInRetryAfter,
  signInWithPassword,
  signUp,
  startSession,
} from '@shortener/core';
import type { Context, Next } from 'koa';
import type { HttpDeps } from './deps.js';
import { sendError, setHeaders, stateOf } from './koa-helpers.js';
import { accountTextOf } from './pages/account/account-text.js';
import {
  accountHomePage,
  invitePage,
  inviteGonePage,
  signInPage,
  signUpPage,
} from './pages/account/account-pages.js';
import { ACCOUNT_PAGE_HEADERS } from './pages/layout.js';
import { fill } from './pages/text.js';
import { readBody } from './request.js';
import {
  clearSessionCookie,
  fromSameOrigin,
  onSessionHost,
  sessionSiteOf,
  sessionTokenOf,
  setSessionCookie,
  signedInOf,
} from './session.js';

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
  };
}

/** Starts a session for the account and sets its cookie: the only place a cookie is set. */
export async function signInTo(deps: HttpDeps, ctx: Context, accountId: string): Promise<void> {
  const { token } = await startSession(deps.core, accountId);
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

/** `/login`, `/logout`, `/account`, `/account/invite/{token}` and `/account/signup` (decisions §10). */
export function addAccountRoutes(router: Router, deps: HttpDeps): void {
  const { core } = deps;
  const guard = accountAreaGuard(deps);
  const throttle = { rateLimiter: deps.rateLimiter, clock: core.clock, config: core.config };
  const signupOpen = core.config.signup === 'open';

  router.get('/login', guard, async (ctx) => {
    if ((await signedInOf(deps, ctx)) !== null) return seeOther(ctx, '/account');
    sendAccountPage(ctx, 200, signInPage({ language: stateOf(ctx).language, signupOpen }));
  });

  router.post('/login', guard, async (ctx) => {
    const { language, ip } = stateOf(ctx);
    const body = await readBody(ctx.req);
    const [name, password] = [fieldOf(body, 'name'), fieldOf(body, 'password')];
    const failed = (status: number, error: string) =>
      sendAccountPage(ctx, status, signInPage({ language, signupOpen, name, error }));
    const wait = await signInRetryAfter(throttle, name, ip);
    if (wait > 0) {
      ctx.set('Retry-After', String(Math.ceil(wait / 1000)));
      return failed(429, fill(accountTextOf(language).tooManyTries, { minutes: Math.ceil(wait / 60_000) }));
    }
    const account = await signInWithPassword(core, name, password);
    if (!account.ok) {
      await countFailedSignIn(throttle, name, ip);
      return failed(401, accountTextOf(language).wrongCredentials);
    }
    await signInTo(deps, ctx, account.value.id);
    seeOther(ctx, '/account');
  });

  router.post('/logout', guard, async (ctx) => {
    const site = sessionSiteOf(core.config.baseUrl);
    const token = sessionTokenOf(ctx, site);
    if (token !== null) await endSession(core, token);
    clearSessionCookie(ctx, site);
    seeOther(ctx, '/login');
  });

  router.get('/account', guard, async (ctx) => {
    const signedIn = await signedInOf(deps, ctx);
    if (signedIn === null) return seeOther(ctx, '/login');
    sendAccountPage(ctx, 200, accountHomePage(stateOf(ctx).language, signedIn.account.name));
  });

  router.get('/account/invite/:token', guard, async (ctx) => {
    const { language } = stateOf(ctx);
    const token = ctx.params.token ?? '';
    const opened = await openInvite(core, token);
    if (!opened.ok) return sendAccountPage(ctx, 404, inviteGonePage(language));
    sendAccountPage(ctx, 200, invitePage(language, opened.value.account.name, token));
  });

  router.post('/account/invite/:token', guard, async (ctx) => {
    const { language } = stateOf(ctx);
    const token = ctx.params.token ?? '';
    const password = fieldOf(await readBody(ctx.req), 'password');
    const opened = await openInvite(core, token);
    const accepted = opened.ok ? await acceptInviteWithPassword(core, token, password) : opened;
    if (!accepted.ok && accepted.error.code === 'not_found')
      return sendAccountPage(ctx, 404, inviteGonePage(language));
    if (!accepted.ok) {
      const name = opened.ok ? opened.value.account.name : '';
      return sendAccountPage(
        ctx,
        400,
        invitePage(language, name, token, accountTextOf(language).newPasswordHint),
      );
    }
    await signInTo(deps, ctx, accepted.value.id);
    seeOther(ctx, '/account');
  });

  router.get('/account/signup', guard, async (ctx) => {
    if (signupOpen) sendAccountPage(ctx, 200, signUpPage(stateOf(ctx).language));
  });

  router.post('/account/signup', guard, async (ctx) => {
    if (!signupOpen) return;
    const { language } = stateOf(ctx);
    const body = await readBody(ctx.req);
    const name = fieldOf(body, 'name');
    const account = await signUp(core, name, fieldOf(body, 'password'));
    if (!account.ok) return sendAccountPage(ctx, 400, signUpPage(language, name, account.error.message));
    await signInTo(deps, ctx, account.value.id);
    seeOther(ctx, '/account');
  });
}
