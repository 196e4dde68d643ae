import type Router from '@koa/router';
import type { SignedIn } from '@shortener/core';
import {
  CreateKeyInput,
  changePassword,
  confirmSignIn,
  createApiKey,
  domainError,
  endSessionById,
  listSessions,
  parseInput,
  renamePasskey,
  requireRecentSignIn,
  revokeApiKey,
  toApiKeyView,
} from '@shortener/core';
import type { Context } from 'koa';
import { accountAreaGuard, fieldOf, seeOther, sendAccountPage } from './account-kit.js';
import { toSignIn } from './sign-in-return.js';
import { addWebhookSettingsRoutes } from './webhook-settings-routes.js';
import { guardedCoreOf } from '../deps.js';
import type { HttpDeps } from '../deps.js';
import { HTTP_STATUS } from '../errors.js';
import { sendError, stateOf } from '../koa-helpers.js';
import type { SettingsView } from '../pages/account/settings-page.js';
import { settingsPage } from '../pages/account/settings-page.js';
import { settingsTextOf } from '../pages/account/settings-text.js';
import { queryOf, readBody } from '../request.js';
import { clearSessionCookie, sessionSiteOf, setSessionCookie, signedInOf } from './session.js';

type Extra = Pick<SettingsView, 'newKey' | 'notice' | 'webhookCreated'>;

/** The confirmations `?done=` asks for after a redirect, by their text. */
const DONE: Readonly<
  Record<string, 'keyRevoked' | 'sessionEnded' | 'passkeyRemoved' | 'passkeyRenamed' | 'webhookRemoved'>
> = {
  'webhook-removed': 'webhookRemoved',
  revoked: 'keyRevoked',
  ended: 'sessionEnded',
  removed: 'passkeyRemoved',
  renamed: 'passkeyRenamed',
};

/**
 * `/account/settings` and its form posts (decisions §10): create and revoke API keys, change the password
 * (ending the other sessions), end sessions, remove passkeys. Every form works without script; the
 * account area's guard refuses a post from another site (403). Another account's id is 404 `not_found`.
 */
export function addSettingsRoutes(router: Router, deps: HttpDeps): void {
  const { core } = deps;
  const guard = accountAreaGuard(deps);
  const render = async (ctx: Context, signedIn: SignedIn, status: number, extra: Extra = {}) => {
    const accountId = signedIn.account.id;
    const [keys, sessions, passkeys, webhooks] = await Promise.all([
      core.accounts.listApiKeys(accountId),
      listSessions(core, accountId),
      core.credentials.listPasskeys(accountId),
      deps.webhooks?.events.listWebhooks(accountId),
    ]);
    const view: SettingsView = {
      language: stateOf(ctx).language,
      keys: keys.map((key) => ({ ...toApiKeyView(key), createdVia: key.createdVia })),
      sessions,
      currentSessionId: signedIn.session.id,
      passkeys,
      recent: requireRecentSignIn(core, signedIn).ok,
      ...(webhooks === undefined ? {} : { webhooks }),
      ...extra,
    };
    sendAccountPage(ctx, status, settingsPage(view));
  };
  /** The signed-in account; a page without a session goes to /login, a post is 401. */
  const signedIn = async (ctx: Context): Promise<SignedIn | null> => {
    const found = await signedInOf(deps, ctx);
    if (found !== null) return found;
    if (ctx.method === 'GET') toSignIn(ctx);
    else sendError(ctx, domainError('unauthorized', 'Sign in first.'));
    return null;
  };
  /** The signed-in account when its sign-in is recent (decisions §14); else the page asks to confirm. */
  const recentlySignedIn = async (ctx: Context): Promise<SignedIn | null> => {
    const me = await signedIn(ctx);
    if (me === null || requireRecentSignIn(core, me).ok) return me;
    const text = settingsTextOf(stateOf(ctx).language).confirmNeeded;
    await render(ctx, me, 403, { notice: { error: true, text } });
    return null;
  };

  addWebhookSettingsRoutes(router, deps, { guard, signedIn, recentlySignedIn, render });

  router.post('/account/settings/confirm', guard, async (ctx) => {
    const me = await signedIn(ctx);
    if (me === null) return;
    const { language, ip } = stateOf(ctx);
    const password = fieldOf(await readBody(ctx.req, true), 'password');
    const confirmed = await confirmSignIn(guardedCoreOf(deps), me, password, ip);
    if (!confirmed.ok) {
      if ('retryAfterMs' in confirmed) {
        ctx.set('Retry-After', String(Math.ceil(confirmed.retryAfterMs / 1000)));
        deps.metrics?.limited('sign_in');
      }
      const status = 'retryAfterMs' in confirmed ? 429 : 401;
      const text =
        'retryAfterMs' in confirmed ? confirmed.error.message : settingsTextOf(language).confirmNeeded;
      return render(ctx, me, status, { notice: { error: true, text } });
    }
    setSessionCookie(ctx, sessionSiteOf(core.config.baseUrl), confirmed.value.token);
    const session = confirmed.value.session;
    const text = settingsTextOf(language).confirmDone;
    await render(ctx, { ...me, session }, 200, { notice: { error: false, text } });
  });

  router.get('/account/settings', guard, async (ctx) => {
    const me = await signedIn(ctx);
    if (me === null) return;
    // after a revoke, an ended session or a removed passkey (post, redirect, get): the confirmation
    const t = settingsTextOf(stateOf(ctx).language);
    const done = DONE[String(queryOf(ctx.query).done)];
    await render(ctx, me, 200, done === undefined ? {} : { notice: { error: false, text: t[done] } });
  });

  router.post('/account/settings/keys', guard, async (ctx) => {
    const me = await recentlySignedIn(ctx);
    if (me === null) return;
    const input = parseInput(CreateKeyInput, { name: fieldOf(await readBody(ctx.req, true), 'name') });
    const created = input.ok ? await createApiKey(core, me.account.id, input.value.name, 'browser') : input;
    if (!created.ok) return render(ctx, me, 400, { notice: { error: true, text: created.error.message } });
    await render(ctx, me, 201, { newKey: { name: created.value.key.name, key: created.value.secret } });
  });

  router.post('/account/settings/keys/:id/revoke', guard, async (ctx) => {
    const me = await signedIn(ctx);
    if (me === null) return;
    const revoked = await revokeApiKey(core, ctx.params.id ?? '', me.account.id);
    if (!revoked.ok) return sendError(ctx, revoked.error);
    seeOther(ctx, '/account/settings?done=revoked');
  });

  router.post('/account/settings/password', guard, async (ctx) => {
    const me = await signedIn(ctx);
    if (me === null) return;
    const body = await readBody(ctx.req, true);
    const changed = await changePassword(
      guardedCoreOf(deps),
      me,
      fieldOf(body, 'current_password'),
      fieldOf(body, 'password'),
    );
    if (!changed.ok) {
      if ('retryAfterMs' in changed) ctx.set('Retry-After', String(Math.ceil(changed.retryAfterMs / 1000)));
      const { code } = changed.error;
      const status = code === 'rate_limited' || code === 'forbidden' ? HTTP_STATUS[code] : 400;
      return render(ctx, me, status, { notice: { error: true, text: changed.error.message } });
    }
    const text = settingsTextOf(stateOf(ctx).language).passwordChanged;
    await render(ctx, me, 200, { notice: { error: false, text } });
  });

  router.post('/account/settings/sessions/:id/end', guard, async (ctx) => {
    const me = await signedIn(ctx);
    if (me === null) return;
    const id = ctx.params.id ?? '';
    const ended = await endSessionById(core, me.account.id, id);
    if (!ended.ok) return sendError(ctx, ended.error);
    if (id !== me.session.id) return seeOther(ctx, '/account/settings?done=ended');
    clearSessionCookie(ctx, sessionSiteOf(core.config.baseUrl));
    seeOther(ctx, '/login');
  });

  router.post('/account/settings/passkeys/:id/rename', guard, async (ctx) => {
    const me = await signedIn(ctx);
    if (me === null) return;
    const name = fieldOf(await readBody(ctx.req, true), 'name');
    const renamed = await renamePasskey(core, me.account.id, ctx.params.id ?? '', name);
    if (!renamed.ok && renamed.error.code === 'not_found') return sendError(ctx, renamed.error);
    if (!renamed.ok) return render(ctx, me, 400, { notice: { error: true, text: renamed.error.message } });
    seeOther(ctx, '/account/settings?done=renamed');
  });

  router.post('/account/settings/passkeys/:id/delete', guard, async (ctx) => {
    const me = await recentlySignedIn(ctx);
    if (me === null) return;
    if (!(await core.credentials.deletePasskey(me.account.id, ctx.params.id ?? '')))
      return sendError(ctx, domainError('not_found', 'No such passkey.', 'passkey'));
    seeOther(ctx, '/account/settings?done=removed');
  });
}
