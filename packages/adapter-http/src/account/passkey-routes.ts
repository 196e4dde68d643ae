import { underTokenLimit } from '../token-guesses.js';
import type Router from '@koa/router';
import type { PasskeyDeps, PasskeyEnrolment, SignedIn } from '@shortener/core';
import {
  beginPasskeyRegistration,
  beginPasskeySignIn,
  changePassword,
  domainError,
  finishPasskeyRegistration,
  finishPasskeySignIn,
} from '@shortener/core';
import type { Context } from 'koa';
import { accountAreaGuard, signInTo } from './account-routes.js';
import { guardedCoreOf } from '../deps.js';
import type { HttpDeps } from '../deps.js';
import { sendError, sendResult } from '../koa-helpers.js';
import { readBody } from '../request.js';
import { signedInOf } from './session.js';
import { createPasskeyCeremony } from './webauthn.js';

/**
 * The JSON endpoints behind the account pages' buttons (not part of the public API): passkey sign-in,
 * passkey registration through an invite or for the signed-in account, and the password change.
 */
export function addPasskeyRoutes(router: Router, deps: HttpDeps): void {
  const guard = accountAreaGuard(deps);
  const passkeys: PasskeyDeps = { ...deps.core, passkeys: createPasskeyCeremony(deps.core.config.baseUrl) };
  const signedInAccount = async (ctx: Context): Promise<SignedIn | null> => {
    const signedIn = await signedInOf(deps, ctx);
    if (signedIn === null) sendError(ctx, domainError('unauthorized', 'Sign in first.'));
    return signedIn;
  };

  router.post('/login/passkey/options', guard, async (ctx) => {
    ctx.body = await beginPasskeySignIn(passkeys);
  });

  router.post('/login/passkey', guard, async (ctx) => {
    const account = await finishPasskeySignIn(passkeys, await readBody(ctx.req));
    if (!account.ok) return sendError(ctx, account.error);
    await signInTo(deps, ctx, account.value.id);
    ctx.body = { redirect: '/account' };
  });

  const invite = (ctx: Context): PasskeyEnrolment => ({ inviteToken: ctx.params.token ?? '' });
  // an invite token spends from the token guess limit before it is looked up (decisions §14)
  router.post('/account/invite/:token/passkey/options', guard, async (ctx) => {
    await underTokenLimit(deps, ctx, 'invite', async () => {
      const options = await beginPasskeyRegistration(passkeys, invite(ctx));
      sendResult(ctx, options, (o) => o);
      return options.ok || options.error.code !== 'not_found';
    });
  });

  router.post('/account/invite/:token/passkey', guard, async (ctx) => {
    const body = await readBody(ctx.req);
    await underTokenLimit(deps, ctx, 'invite', async () => {
      const account = await finishPasskeyRegistration(passkeys, invite(ctx), body);
      if (!account.ok) {
        sendError(ctx, account.error);
        return account.error.code !== 'not_found';
      }
      await signInTo(deps, ctx, account.value.id);
      ctx.body = { redirect: '/account' };
      return true;
    });
  });

  router.post('/account/passkeys/options', guard, async (ctx) => {
    const signedIn = await signedInAccount(ctx);
    if (signedIn !== null) sendResult(ctx, await beginPasskeyRegistration(passkeys, { signedIn }), (o) => o);
  });

  router.post('/account/passkeys', guard, async (ctx) => {
    const signedIn = await signedInAccount(ctx);
    if (signedIn === null) return;
    const added = await finishPasskeyRegistration(passkeys, { signedIn }, await readBody(ctx.req));
    sendResult(ctx, added, () => ({ ok: true }));
  });

  router.post('/account/password', guard, async (ctx) => {
    const signedIn = await signedInOf(deps, ctx);
    if (signedIn === null) return sendError(ctx, domainError('unauthorized', 'Sign in first.'));
    const body = (await readBody(ctx.req)) as Record<string, unknown> | null;
    const text = (name: string) => (typeof body?.[name] === 'string' ? (body[name] as string) : '');
    const changed = await changePassword(
      guardedCoreOf(deps),
      signedIn,
      text('current_password'),
      text('password'),
    );
    if (!changed.ok && 'retryAfterMs' in changed) {
      ctx.set('Retry-After', String(Math.ceil(changed.retryAfterMs / 1000)));
    }
    sendResult(ctx, changed, () => null, 204);
  });
}
