import type { PasskeyDeps } from '@shortener/core';
import {
  beginPasskeyRegistration,
  PASSKEY_OPTIONS_PER_MINUTE,
  beginPasskeySignIn,
  changePassword,
  finishPasskeyRegistration,
  finishPasskeySignIn,
} from '@shortener/core';
import { z } from 'zod';
import { guardedCoreOf, perServer } from '../deps.js';
import { sendError, sendResult, stateOf } from '../koa-helpers.js';
import { SIGNED_IN, json, setCookie, token } from '../openapi/openapi-pages.js';
import { PasswordForm } from './account-forms.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { underTokenLimit } from '../token-guesses.js';
import { signInTo } from '../server/account-area.js';
import { createPasskeyCeremony } from './webauthn.js';

/** A browser's WebAuthn answer, as JSON: checked by the ceremony, not here. */
const WebAuthnAnswer = z.unknown();
const ANSWER_DOC = {
  body: { type: 'object' },
  description: 'The browser’s answer to `navigator.credentials.create` (as JSON), or `{}` for the options.',
  example: {},
};

export const redirectAnswer = json('Signed in: where to go next.', {
  type: 'object',
  properties: { redirect: { type: 'string' } },
  required: ['redirect'],
});
export const publicKeyOptions = json('Options for `navigator.credentials` (WebAuthn, as JSON).', {
  type: 'object',
});
const signedInAnswer = { ...redirectAnswer, headers: setCookie(SIGNED_IN) };

/** The passkey ceremony of this server's {base_url}, made once. */
const passkeysOf = perServer((deps): PasskeyDeps => ({
  ...deps.core,
  passkeys: createPasskeyCeremony(deps.core.config.baseUrl),
}));

/**
 * The JSON endpoints behind the account pages' buttons (decisions §10, not part of the public API):
 * passkey sign-in, passkey registration through an invite or for the signed-in account, and the password
 * change. An invite token spends from the token guess limit before it is looked up (decisions §14).
 */
export const PASSKEY_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'post',
    path: '/login/passkey/options',
    area: 'account',
    access: 'anyone',
    doc: {
      id: 'passkeySignInOptions',
      summary: 'Start a passkey sign-in',
      description: `A challenge for any passkey of this site, valid 5 minutes; at most ${PASSKEY_OPTIONS_PER_MINUTE} a minute per client address.`,
      body: { type: 'object' },
      bodyOptional: true,
      example: {},
      responses: { 200: publicKeyOptions },
      errors: [429],
    },
    handle: async (ctx, { deps }) => {
      const options = await beginPasskeySignIn(
        { ...passkeysOf(deps), ...guardedCoreOf(deps) },
        stateOf(ctx).ip,
      );
      if (!options.ok && 'retryAfterMs' in options)
        ctx.set('Retry-After', String(Math.ceil(options.retryAfterMs / 1000)));
      sendResult(ctx, options, (value) => value);
    },
  }),
  route({
    method: 'post',
    path: '/login/passkey',
    area: 'account',
    access: 'anyone',
    body: WebAuthnAnswer,
    doc: {
      id: 'passkeySignIn',
      summary: 'Finish a passkey sign-in',
      description: 'The browser’s answer (`navigator.credentials.get`, as JSON).',
      body: { type: 'object' },
      example: { id: 'credential-id', response: {} },
      responses: { 200: signedInAnswer },
      errors: [401],
    },
    handle: async (ctx, { deps, body }) => {
      const account = await finishPasskeySignIn(passkeysOf(deps), body);
      if (!account.ok) return sendError(ctx, account.error);
      await signInTo(deps, ctx, account.value.id);
      ctx.body = { redirect: '/account' };
    },
  }),
  route({
    method: 'post',
    path: '/account/invite/{token}/passkey/options',
    area: 'account',
    access: 'anyone',
    doc: {
      id: 'inviteKeyOptions',
      summary: 'Start registering a passkey through an invite',
      ...ANSWER_DOC,
      parameters: [token],
      responses: { 200: publicKeyOptions },
      errors: [404, 429],
    },
    handle: async (ctx, { deps, params }) => {
      await underTokenLimit(deps, ctx, 'invite', async () => {
        const options = await beginPasskeyRegistration(passkeysOf(deps), { inviteToken: params.token ?? '' });
        sendResult(ctx, options, (o) => o);
        return options.ok || options.error.code !== 'not_found';
      });
    },
  }),
  route({
    method: 'post',
    path: '/account/invite/{token}/passkey',
    area: 'account',
    access: 'anyone',
    body: WebAuthnAnswer,
    doc: {
      id: 'invitePasskey',
      summary: 'Register a passkey through an invite; signs in',
      ...ANSWER_DOC,
      parameters: [token],
      responses: { 200: signedInAnswer },
      errors: [401, 404, 429],
    },
    handle: async (ctx, { deps, params, body }) => {
      await underTokenLimit(deps, ctx, 'invite', async () => {
        const enrolment = { inviteToken: params.token ?? '' };
        const account = await finishPasskeyRegistration(passkeysOf(deps), enrolment, body);
        if (!account.ok) {
          sendError(ctx, account.error);
          return account.error.code !== 'not_found';
        }
        await signInTo(deps, ctx, account.value.id);
        ctx.body = { redirect: '/account' };
        return true;
      });
    },
  }),
  route({
    method: 'post',
    path: '/account/passkeys/options',
    area: 'account',
    access: 'signed-in',
    doc: {
      id: 'passkeyOptions',
      summary: 'Start adding a passkey to the signed-in account',
      ...ANSWER_DOC,
      responses: { 200: publicKeyOptions },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn }) => {
      if (signedIn === null) return;
      sendResult(ctx, await beginPasskeyRegistration(passkeysOf(deps), { signedIn }), (o) => o);
    },
  }),
  route({
    method: 'post',
    path: '/account/passkeys',
    area: 'account',
    access: 'signed-in',
    body: WebAuthnAnswer,
    doc: {
      id: 'addPasskey',
      summary: 'Add a passkey to the signed-in account',
      ...ANSWER_DOC,
      responses: { 200: json('Added.', { type: 'object', properties: { ok: { const: true } } }) },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn, body }) => {
      if (signedIn === null) return;
      const added = await finishPasskeyRegistration(passkeysOf(deps), { signedIn }, body);
      sendResult(ctx, added, () => ({ ok: true }));
    },
  }),
  route({
    method: 'post',
    path: '/account/password',
    area: 'account',
    access: 'signed-in',
    body: PasswordForm,
    doc: {
      id: 'changePassword',
      summary: 'Change the password of the signed-in account',
      description:
        'Ends every other session of the account. Wrong current passwords are limited (10 per account ' +
        'in 15 minutes, then 429); an account without a password needs a recent sign-in (403).',
      example: { current_password: 'correct horse battery', password: 'staple battery horse' },
      responses: { 204: { description: 'Changed.' } },
      errors: [401, 429],
    },
    handle: async (ctx, { deps, signedIn, body }) => {
      if (signedIn === null) return;
      const { current_password: current = '', password = '' } = body;
      const changed = await changePassword(guardedCoreOf(deps), signedIn, current, password);
      if (!changed.ok && 'retryAfterMs' in changed)
        ctx.set('Retry-After', String(Math.ceil(changed.retryAfterMs / 1000)));
      sendResult(ctx, changed, () => null, 204);
    },
  }),
];
