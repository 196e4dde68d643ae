import { ROLE_REFUSED, actingAccountOf } from '../server/acting.js';
import {
  CreateKeyInput,
  changePassword,
  confirmSignIn,
  domainError,
  endSessionById,
  makeApiKey,
  parseInput,
  renamePasskey,
  revokeApiKey,
} from '@shortener/core';
import { guardedCoreOf } from '../deps.js';
import { HTTP_STATUS } from '../errors.js';
import { sendError, stateOf } from '../koa-helpers.js';
import { buttonDoc, doneParameter, html, seeOther as seeOtherDoc } from '../openapi/openapi-pages.js';
import { ConfirmForm, KeyForm, PasskeyNameForm, PasswordForm } from './account-forms.js';
import { pathParameter } from '../openapi/openapi-paths.js';
import { EXAMPLE_ID, idParameter } from '../routes/route-parameters.js';
import { settingsTextOf } from '../pages/account/settings-text.js';
import { queryOf } from '../request.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { seeOther } from '../server/account-area.js';
import { clearSessionCookie, sessionSiteOf, setSessionCookie } from '../server/session.js';
import { NOT_RECENT, RETRY, again, recentOrAsked, renderSettings } from './settings-view.js';
import { WEBHOOK_SETTINGS_ROUTES } from './webhook-settings-routes.js';

const PASSKEY_ID = pathParameter(
  'id',
  'The passkey’s credential id (base64url).',
  'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1OU',
);

/** The confirmations `?done=` asks for after a redirect, by their text. */
const DONE: Readonly<
  Record<
    string,
    | 'keyRevoked'
    | 'sessionEnded'
    | 'passkeyRemoved'
    | 'passkeyRenamed'
    | 'webhookRemoved'
    | 'identityLinked'
    | 'identityUnlinked'
  >
> = {
  'webhook-removed': 'webhookRemoved',
  'sso-linked': 'identityLinked',
  'sso-unlinked': 'identityUnlinked',
  revoked: 'keyRevoked',
  ended: 'sessionEnded',
  removed: 'passkeyRemoved',
  renamed: 'passkeyRenamed',
};

/**
 * `/account/settings` and its form posts (decisions §10, §14, §16): API keys, the password, sessions,
 * passkeys and webhooks. Every form works without script; the account area's guard refuses a post from
 * another site (403). Another account's id is 404 `not_found`.
 */
export const SETTINGS_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/account/settings',
    area: 'account',
    access: 'signed-in',
    doc: {
      id: 'settingsPage',
      summary: 'The settings of the signed-in account',
      description: 'API keys, password, sessions and passkeys; without a session, a redirect to `/login`.',
      parameters: [
        doneParameter(
          '`revoked`, `ended`, `removed`, `renamed`, `webhook-removed`, `sso-linked`, `sso-unlinked`',
        ),
      ],
      responses: { 200: html('The page.'), 303: seeOtherDoc('Not signed in: to `/login`.') },
    },
    handle: async (ctx, { deps, signedIn }) => {
      if (signedIn === null) return;
      // after a revoke, an ended session or a removed passkey (post, redirect, get): the confirmation
      const t = settingsTextOf(stateOf(ctx).language);
      const done = DONE[String(queryOf(ctx.query).done)];
      const extra = done === undefined ? {} : { notice: { error: false, text: t[done] } };
      await renderSettings(ctx, deps, signedIn, 200, extra);
    },
  }),
  route({
    method: 'post',
    path: '/account/settings/confirm',
    area: 'account',
    access: 'signed-in',
    body: ConfirmForm,
    form: true,
    doc: {
      id: 'confirmSignIn',
      summary: 'Confirm the password (a recent sign-in)',
      description:
        'Making API keys, adding or removing passkeys and setting a password without one need a ' +
        'password or passkey entered in the last 10 minutes (decisions §14). The right password ' +
        'replaces the session by a new one (a new cookie); wrong ones count as failed sign-ins.',
      example: { password: 'correct horse battery' },
      responses: {
        200: html('Confirmed: the page saying so, with a new session cookie.', {
          'Set-Cookie': { description: 'The new session.', required: true, schema: { type: 'string' } },
        }),
        401: html('A wrong password: the page again.'),
        429: html('Too many failures: the page again.', RETRY),
      },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn: me, body }) => {
      if (me === null) return;
      const { language, ip } = stateOf(ctx);
      const confirmed = await confirmSignIn(guardedCoreOf(deps), me, body.password ?? '', ip);
      if (!confirmed.ok) {
        const limited = 'retryAfterMs' in confirmed;
        if (limited) {
          ctx.set('Retry-After', String(Math.ceil(confirmed.retryAfterMs / 1000)));
          deps.metrics?.limited('sign_in');
        }
        const text = limited ? confirmed.error.message : settingsTextOf(language).confirmNeeded;
        return renderSettings(ctx, deps, me, limited ? 429 : 401, { notice: { error: true, text } });
      }
      setSessionCookie(ctx, sessionSiteOf(deps.core.config.baseUrl), confirmed.value.token);
      const text = settingsTextOf(language).confirmDone;
      const session = confirmed.value.session;
      await renderSettings(ctx, deps, { ...me, session }, 200, { notice: { error: false, text } });
    },
  }),
  route({
    method: 'post',
    path: '/account/settings/keys',
    area: 'account',
    access: 'signed-in',
    does: 'keys.manage',
    body: KeyForm,
    form: true,
    doc: {
      id: 'createKeyByForm',
      summary: 'Create a named API key',
      description:
        'The settings page with the new key in `#new-key`, shown this once. Needs a recent sign-in.',
      example: { name: 'laptop' },
      responses: { 201: html('Created: the page showing the key.'), 400: again, ...NOT_RECENT },
      errors: [401],
    },
    handle: async (ctx, { deps, caller, signedIn: me, body }) => {
      if (me === null || !(await recentOrAsked(ctx, deps, me))) return;
      const hosts = (body.url_hosts ?? '').split(/[\s,]+/).filter((host) => host !== '');
      const input = parseInput(CreateKeyInput, {
        name: body.name ?? '',
        ...(body.role ? { role: body.role } : {}),
        ...(hosts.length > 0 ? { url_hosts: hosts } : {}),
      });
      const created = input.ok ? await makeApiKey(deps.core, caller, input.value, 'browser') : input;
      if (!created.ok)
        return renderSettings(ctx, deps, me, 400, { notice: { error: true, text: created.error.message } });
      const newKey = { name: created.value.key.name, key: created.value.secret };
      await renderSettings(ctx, deps, me, 201, { newKey });
    },
  }),
  route({
    method: 'post',
    path: '/account/settings/keys/{id}/revoke',
    area: 'account',
    access: 'signed-in',
    does: 'keys.manage',
    doc: buttonDoc(
      'revokeKeyByForm',
      'Revoke an API key',
      'The key is refused (401) from then on.',
      idParameter('key'),
      undefined,
      ROLE_REFUSED,
    ),
    handle: async (ctx, { deps, signedIn: me, params }) => {
      if (me === null) return;
      const revoked = await revokeApiKey(deps.core, params.id ?? '', actingAccountOf(ctx, me));
      if (!revoked.ok) return sendError(ctx, revoked.error);
      seeOther(ctx, '/account/settings?done=revoked');
    },
  }),
  route({
    method: 'post',
    path: '/account/settings/password',
    area: 'account',
    access: 'signed-in',
    body: PasswordForm,
    form: true,
    doc: {
      id: 'changePasswordByForm',
      summary: 'Change the password',
      description:
        'Ends every other session of the account; the page says it did. Wrong current passwords are ' +
        'limited (10 per account in 15 minutes, then 429); an account without a password needs a ' +
        'recent sign-in to set one.',
      example: { current_password: 'correct horse battery', password: 'staple battery horse' },
      responses: {
        200: html('Changed: the page saying so.'),
        400: again,
        ...NOT_RECENT,
        429: html('Too many wrong current passwords: the page again.', RETRY),
      },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn: me, body }) => {
      if (me === null) return;
      const current = body.current_password ?? '';
      const changed = await changePassword(guardedCoreOf(deps), me, current, body.password ?? '');
      if (!changed.ok) {
        if ('retryAfterMs' in changed) ctx.set('Retry-After', String(Math.ceil(changed.retryAfterMs / 1000)));
        const { code } = changed.error;
        const status = code === 'rate_limited' || code === 'forbidden' ? HTTP_STATUS[code] : 400;
        return renderSettings(ctx, deps, me, status, {
          notice: { error: true, text: changed.error.message },
        });
      }
      const text = settingsTextOf(stateOf(ctx).language).passwordChanged;
      await renderSettings(ctx, deps, me, 200, { notice: { error: false, text } });
    },
  }),
  route({
    method: 'post',
    path: '/account/settings/sessions/{id}/end',
    area: 'account',
    access: 'signed-in',
    doc: buttonDoc(
      'endSessionByForm',
      'End a session of the account',
      'Ending the session in use signs out.',
      pathParameter('id', 'The session’s id (as listed on the page, never its token).', EXAMPLE_ID),
      'Done: to `/account/settings`, or `/login` after ending this session.',
    ),
    handle: async (ctx, { deps, signedIn: me, params }) => {
      if (me === null) return;
      const id = params.id ?? '';
      const ended = await endSessionById(deps.core, me.account.id, id);
      if (!ended.ok) return sendError(ctx, ended.error);
      if (id !== me.session.id) return seeOther(ctx, '/account/settings?done=ended');
      clearSessionCookie(ctx, sessionSiteOf(deps.core.config.baseUrl));
      seeOther(ctx, '/login');
    },
  }),
  route({
    method: 'post',
    path: '/account/settings/passkeys/{id}/rename',
    area: 'account',
    access: 'signed-in',
    body: PasskeyNameForm,
    form: true,
    doc: {
      id: 'renamePasskeyByForm',
      summary: 'Rename a passkey',
      description: 'A name of 1-64 characters; then back to the settings, which say it was renamed.',
      parameters: [PASSKEY_ID],
      example: { name: 'Work laptop' },
      responses: { 303: seeOtherDoc('Renamed: to `/account/settings?done=renamed`.'), 400: again },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn: me, params, body }) => {
      if (me === null) return;
      const renamed = await renamePasskey(deps.core, me.account.id, params.id ?? '', body.name ?? '');
      if (!renamed.ok && renamed.error.code === 'not_found') return sendError(ctx, renamed.error);
      if (!renamed.ok)
        return renderSettings(ctx, deps, me, 400, { notice: { error: true, text: renamed.error.message } });
      seeOther(ctx, '/account/settings?done=renamed');
    },
  }),
  route({
    method: 'post',
    path: '/account/settings/passkeys/{id}/delete',
    area: 'account',
    access: 'signed-in',
    doc: buttonDoc(
      'deletePasskeyByForm',
      'Remove a passkey',
      'It no longer signs in. Needs a recent sign-in.',
      PASSKEY_ID,
      undefined,
      NOT_RECENT,
    ),
    handle: async (ctx, { deps, signedIn: me, params }) => {
      if (me === null || !(await recentOrAsked(ctx, deps, me))) return;
      if (!(await deps.core.credentials.deletePasskey(me.account.id, params.id ?? '')))
        return sendError(ctx, domainError('not_found', 'No such passkey.', 'passkey'));
      seeOther(ctx, '/account/settings?done=removed');
    },
  }),
  ...WEBHOOK_SETTINGS_ROUTES,
];
