import type { SignedIn } from '@shortener/core';
import { listSessions, requireRecentSignIn, toApiKeyView } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { stateOf } from '../koa-helpers.js';
import { htmlOrError } from '../openapi/openapi-pages.js';
import { ref } from '../openapi/openapi-paths.js';
import type { SettingsView } from '../pages/account/settings-page.js';
import { settingsPage } from '../pages/account/settings-page.js';
import { settingsTextOf } from '../pages/account/settings-text.js';
import { sendAccountPage } from '../server/account-area.js';
import { actingAccountOf, pageMay } from '../server/acting.js';

// What the settings routes share: the page, the recent sign-in rule, and their documentation's pieces.

/** What a render adds to the settings page after a form. */
export type Extra = Pick<SettingsView, 'newKey' | 'notice' | 'webhookCreated'>;

/** Sends `/account/settings` for the signed-in account. */
export async function renderSettings(
  ctx: Context,
  deps: HttpDeps,
  signedIn: SignedIn,
  status: number,
  extra: Extra = {},
): Promise<void> {
  const { core } = deps;
  const accountId = signedIn.account.id;
  // keys and webhooks are the account's the switcher chose (decisions §21); the rest is the person's
  const acting = actingAccountOf(ctx, signedIn);
  const keysShown = pageMay(ctx, 'keys.manage');
  const webhooksShown = pageMay(ctx, 'webhooks.manage');
  const [keys, sessions, passkeys, webhooks, identities] = await Promise.all([
    keysShown ? core.accounts.listApiKeys(acting) : null,
    listSessions(core, accountId),
    core.credentials.listPasskeys(accountId),
    webhooksShown ? deps.webhooks?.events.listWebhooks(acting) : undefined,
    deps.sso?.deps.identities.listIdentities(accountId),
  ]);
  const view: SettingsView = {
    language: stateOf(ctx).language,
    keys: (keys ?? []).map((key) => ({ ...toApiKeyView(key), createdVia: key.createdVia })),
    keysShown,
    sessions,
    currentSessionId: signedIn.session.id,
    passkeys,
    recent: requireRecentSignIn(core, signedIn).ok,
    ...(webhooks === undefined ? {} : { webhooks }),
    ...(deps.sso === undefined || identities === undefined
      ? {}
      : { sso: { label: deps.sso.buttonLabel, linked: identities } }),
    ...extra,
  };
  sendAccountPage(ctx, status, settingsPage(view));
}

/**
 * Whether the session's sign-in is recent (decisions §14), for forms that give lasting access; when it
 * is not, the page is sent asking for the password (403).
 */
export async function recentOrAsked(ctx: Context, deps: HttpDeps, signedIn: SignedIn): Promise<boolean> {
  if (requireRecentSignIn(deps.core, signedIn).ok) return true;
  const text = settingsTextOf(stateOf(ctx).language).confirmNeeded;
  await renderSettings(ctx, deps, signedIn, 403, { notice: { error: true, text } });
  return false;
}

export const RETRY = { 'Retry-After': ref('headers', 'Retry-After') };
/** The answers of a form that gives lasting access (decisions §14): refused without a recent sign-in. */
export const NOT_RECENT = {
  403: htmlOrError(
    'No password or passkey entered in this session in the last 10 minutes: the page asking for it',
  ),
};
export const again = htmlOrError('The page again with the error');
