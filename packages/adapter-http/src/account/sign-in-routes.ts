import {
  acceptInviteWithPassword,
  endSession,
  openInvite,
  parseInput,
  signIn,
  signUp,
} from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { guardedCoreOf } from '../deps.js';
import { sendError, stateOf } from '../koa-helpers.js';
import {
  SIGNED_IN,
  html,
  htmlOrError,
  query,
  seeOther as seeOtherDoc,
  token,
} from '../openapi/openapi-pages.js';
import { FORM_TYPE, ref } from '../openapi/openapi-paths.js';
import { accountTextOf } from '../pages/account/account-text.js';
import { invitePage, inviteGonePage, signInPage, signUpPage } from '../pages/account/account-pages.js';
import { fill } from '../pages/text.js';
import { queryOf, readBody } from '../request.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { underTokenLimit } from '../token-guesses.js';
import { seeOther, sendAccountPage, signInTo } from '../server/account-area.js';
import { clearSessionCookie, sessionSiteOf, sessionTokenOf, signedInOf } from '../server/session.js';
import { signInReturn } from '../server/sign-in-return.js';
import { InviteForm, SignInForm, SignUpForm } from './account-forms.js';

const retryAfter = { 'Retry-After': ref('headers', 'Retry-After') };

/** What `/login` shows of the identity provider (decisions §22), or undefined when there is none. */
async function ssoView(deps: HttpDeps) {
  const sso = deps.sso;
  if (sso === undefined) return undefined;
  return { label: sso.buttonLabel, available: await sso.available(), passwords: sso.passwordSignIn };
}
const withSso = (sso: Awaited<ReturnType<typeof ssoView>>) => (sso === undefined ? {} : { sso });
/** Whether `/account/signup` takes new accounts: `SIGNUP=open`, and passwords are used (decisions §22). */
export const signupOpen = (deps: HttpDeps): boolean =>
  deps.core.config.signup === 'open' && deps.sso?.passwordSignIn !== false;
/** The name-and-password form of sign-in and sign-up, posted by the page or sent as JSON. */
const NAME_AND_PASSWORD = {
  example: { name: 'alice', password: 'correct horse battery' },
  bodyTypes: [FORM_TYPE, 'application/json'],
};

/** Sets the password through an invite and signs in; whether the token was a live invite. */
async function acceptInvite(ctx: Context, deps: HttpDeps, token: string, password: string): Promise<boolean> {
  const { language } = stateOf(ctx);
  const opened = await openInvite(deps.core, token);
  const accepted = opened.ok ? await acceptInviteWithPassword(deps.core, token, password) : opened;
  if (!accepted.ok && accepted.error.code === 'not_found') {
    sendAccountPage(ctx, 404, inviteGonePage(language));
    return false;
  }
  if (!accepted.ok) {
    const name = opened.ok ? opened.value.account.name : '';
    sendAccountPage(ctx, 400, invitePage(language, name, token, accountTextOf(language).newPasswordHint));
    return true;
  }
  await signInTo(deps, ctx, accepted.value.id);
  seeOther(ctx, '/account');
  return true;
}

/**
 * Signing in and out, invite links and open sign-up (decisions §10, §14). An invite token spends from
 * the token guess limit before it is looked up.
 */
export const SIGN_IN_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/login',
    area: 'account',
    access: 'anyone',
    doc: {
      id: 'signInPage',
      summary: 'The sign-in page',
      description:
        'Name and password, or a passkey. `next`, a page of the account area (`/account…`, `/admin…`), ' +
        'is where signing in leads; the pages that need a session send browsers here with it.',
      parameters: [query('next', 'The page to return to once signed in.', '/account/settings')],
      responses: { 200: html('The page.'), 303: seeOtherDoc('Signed in already: to `next`, or `/account`.') },
    },
    handle: async (ctx, { deps }) => {
      const next = signInReturn(queryOf(ctx.query).next);
      if ((await signedInOf(deps, ctx)) !== null) return seeOther(ctx, next ?? '/account');
      const sso = await ssoView(deps);
      // the provider only, and asked to go there: no page in between
      if (sso?.available === true && deps.sso?.autoRedirect === true && !sso.passwords)
        return seeOther(ctx, `/login/oidc${next === null ? '' : `?next=${encodeURIComponent(next)}`}`);
      const view = { language: stateOf(ctx).language, signupOpen: signupOpen(deps), next, ...withSso(sso) };
      sendAccountPage(ctx, 200, signInPage(view));
    },
  }),
  route({
    method: 'post',
    path: '/login',
    area: 'account',
    access: 'anyone',
    body: SignInForm,
    doc: {
      id: 'signIn',
      summary: 'Sign in with name and password',
      description:
        'The same answer for an unknown name and a wrong password. 10 failures per account and 30 per ' +
        'address (an IPv6 one per /64) in 15 minutes refuse further tries with 429.',
      ...NAME_AND_PASSWORD,
      responses: {
        303: seeOtherDoc('Signed in: to `next`, or `/account`.', SIGNED_IN),
        401: html('Wrong name or password: the page again.'),
        403: htmlOrError(
          'Passwords are not used here (`PASSWORD_SIGN_IN=off`): the page again; a post from another site: the error object',
        ),
        429: html('Too many failures: the page again.', retryAfter),
      },
    },
    handle: async (ctx, { deps, body }) => {
      const { language, ip } = stateOf(ctx);
      const { name = '', password = '' } = body;
      const next = signInReturn(body.next);
      const sso = await ssoView(deps);
      const failed = (status: number, error: string) =>
        sendAccountPage(
          ctx,
          status,
          signInPage({ language, signupOpen: signupOpen(deps), name, error, next, ...withSso(sso) }),
        );
      if (sso?.passwords === false)
        return failed(403, 'Passwords are not used here: sign in through the identity provider.');
      const account = await signIn(guardedCoreOf(deps), name, password, ip);
      if (!account.ok && 'retryAfterMs' in account) {
        const wait = account.retryAfterMs;
        ctx.set('Retry-After', String(Math.ceil(wait / 1000)));
        deps.metrics?.limited('sign_in');
        return failed(429, fill(accountTextOf(language).tooManyTries, { minutes: Math.ceil(wait / 60_000) }));
      }
      if (!account.ok) return failed(401, accountTextOf(language).wrongCredentials);
      await signInTo(deps, ctx, account.value.id);
      seeOther(ctx, next ?? '/account');
    },
  }),
  route({
    method: 'post',
    path: '/logout',
    area: 'account',
    access: 'anyone',
    doc: {
      id: 'signOut',
      summary: 'Sign out',
      description: 'Ends the session and removes its cookie.',
      responses: { 303: seeOtherDoc('To `/login`.', 'The session cookie, emptied (Max-Age=0).') },
    },
    handle: async (ctx, { deps }) => {
      const site = sessionSiteOf(deps.core.config.baseUrl);
      const session = sessionTokenOf(ctx, site);
      const signedIn = session === null ? null : await signedInOf(deps, ctx);
      if (session !== null) await endSession(deps.core, session);
      clearSessionCookie(ctx, site);
      // an account of the provider signs out there too, when it offers RP-initiated logout (decisions §22)
      const provider =
        signedIn === null || deps.sso === undefined
          ? null
          : (await deps.sso.deps.identities.listIdentities(signedIn.account.id)).length === 0
            ? null
            : await deps.sso.provider.endSessionUrl(`${deps.core.config.baseUrl.replace(/\/$/, '')}/`);
      seeOther(ctx, provider ?? '/login');
    },
  }),
  route({
    method: 'get',
    path: '/account/signup',
    area: 'account',
    access: 'anyone',
    doc: {
      id: 'signUpPage',
      summary: 'The sign-up page (`SIGNUP=open` only)',
      description:
        'Otherwise, or with `PASSWORD_SIGN_IN=off`, 404: the 404 page for a browser, the error object for ' +
        'anyone else.',
      responses: { 200: html('The page.'), 404: htmlOrError('`SIGNUP` is not open') },
    },
    handle: (ctx, { deps }) => {
      if (signupOpen(deps)) sendAccountPage(ctx, 200, signUpPage(stateOf(ctx).language));
    },
  }),
  route({
    method: 'post',
    path: '/account/signup',
    area: 'account',
    access: 'anyone',
    doc: {
      id: 'signUp',
      summary: 'Create an account (`SIGNUP=open` only)',
      description:
        'Not with `PASSWORD_SIGN_IN=off` (404). A name (unique without regard to case) and a password; signs in. At most ' +
        '`RATE_LIMIT_SIGNUP_HOUR` (default 3) accounts per address (an IPv6 one per /64) per hour, then ' +
        '429; a new account has the anonymous creation limits for its first 24 hours.',
      body: SignUpForm,
      ...NAME_AND_PASSWORD,
      responses: {
        303: seeOtherDoc('Created: to `/account`.', SIGNED_IN),
        400: html('The page with the error.'),
        429: html('Too many accounts from this address: the page again.', retryAfter),
      },
    },
    // the body is read only when sign-up is open: otherwise the app's 404, as for any missing page
    handle: async (ctx, { deps }) => {
      if (!signupOpen(deps)) return;
      const { language, ip } = stateOf(ctx);
      const body = parseInput(SignUpForm, await readBody(ctx.req));
      if (!body.ok) return sendError(ctx, body.error);
      const { name = '', password = '' } = body.value;
      const account = await signUp(guardedCoreOf(deps), name, password, ip);
      if (!account.ok && 'retryAfterMs' in account) {
        ctx.set('Retry-After', String(Math.ceil(account.retryAfterMs / 1000)));
        deps.metrics?.limited('signup');
        return sendAccountPage(ctx, 429, signUpPage(language, name, account.error.message));
      }
      if (!account.ok) return sendAccountPage(ctx, 400, signUpPage(language, name, account.error.message));
      await signInTo(deps, ctx, account.value.id);
      seeOther(ctx, '/account');
    },
  }),
  route({
    method: 'get',
    path: '/account/invite/{token}',
    area: 'account',
    access: 'anyone',
    doc: {
      id: 'invitePage',
      summary: 'The page of an invite link',
      description:
        'Set a password and/or register a passkey for the invited account. Unknown tokens count ' +
        'against the token guess limit (30 per address in 15 minutes, then 429).',
      parameters: [token],
      responses: { 200: html('The page.'), 404: htmlOrError('Unknown, used or expired link') },
      errors: [429],
    },
    handle: async (ctx, { deps, params }) => {
      const { language } = stateOf(ctx);
      const invite = params.token ?? '';
      await underTokenLimit(deps, ctx, 'invite', async () => {
        const opened = await openInvite(deps.core, invite);
        if (!opened.ok) sendAccountPage(ctx, 404, inviteGonePage(language));
        else sendAccountPage(ctx, 200, invitePage(language, opened.value.account.name, invite));
        return opened.ok;
      });
    },
  }),
  route({
    method: 'post',
    path: '/account/invite/{token}',
    area: 'account',
    access: 'anyone',
    body: InviteForm,
    doc: {
      id: 'acceptInvite',
      summary: 'Set the password through an invite link',
      description:
        'Uses the link up, ends the account’s sessions, removes its passkeys and webhooks (a reset) and signs in.',
      parameters: [token],
      errors: [429],
      example: { password: 'correct horse battery' },
      bodyTypes: [FORM_TYPE, 'application/json'],
      responses: {
        303: seeOtherDoc('Done: to `/account`.', SIGNED_IN),
        400: html('A password of the wrong length: the page again.'),
        404: htmlOrError('Unknown, used or expired link'),
      },
    },
    handle: async (ctx, { deps, params, body }) => {
      const password = body.password ?? '';
      await underTokenLimit(deps, ctx, 'invite', () => acceptInvite(ctx, deps, params.token ?? '', password));
    },
  }),
];
