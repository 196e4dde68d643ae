import type { ApiKeyView, IdentityLink, KeyOrigin, Language, Passkey, SessionRecord } from '@shortener/core';
import { noticeLine } from '../notice.js';
import type { SafeHtml } from '../layout.js';
import { accountAreaPage, html } from '../layout.js';
import { headCard, inputField, listOrNone, shownOnce } from '../page-parts.js';
import { keyWord } from '../stats-words.js';
import { fill } from '../text.js';
import { newPasswordField } from './account-pages.js';
import { accountTextOf } from './account-text.js';
import type { SettingsText } from './settings-text.js';
import { settingsTextOf } from './settings-text.js';
import { ssoTextOf } from './sso-text.js';
import { webhooksSection } from './webhooks-section.js';
import type { WebhooksView } from './webhooks-section.js';

/** What `/account/settings` shows. */
export interface SettingsView {
  readonly language: Language;
  /** The account's keys, each with how it was made (decisions §14). */
  readonly keys: readonly (ApiKeyView & { readonly createdVia: KeyOrigin })[];
  /** Whether the keys section is shown (decisions §21: the role acted with manages keys). */
  readonly keysShown?: boolean;
  readonly sessions: readonly SessionRecord[];
  readonly currentSessionId: string;
  readonly passkeys: readonly Passkey[];
  /** Whether the session began with a password or passkey in the last 10 minutes (decisions §14). */
  readonly recent: boolean;
  /** A key just created: its name and secret, shown this once. */
  readonly newKey?: { readonly name: string; readonly key: string };
  /** A line above the forms: an error of the last form (`error`), or what it did. */
  readonly notice?: { readonly error: boolean; readonly text: string };
  /** The account's webhooks (decisions §16); absent where no events are delivered. */
  readonly webhooks?: WebhooksView['webhooks'];
  /** A webhook just added: its URL and secret, shown this once. */
  readonly webhookCreated?: WebhooksView['created'];
  /** Sign-in through the identity provider (decisions §22): absent where SSO is off. */
  readonly sso?: { readonly label: string; readonly linked: readonly IdentityLink[] };
}

/** A date as the page's language writes it (UTC, as everywhere in the service). */
export const when = (language: Language, at: number | string): string =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
    new Date(at),
  );

/** A button that asks again before it posts: a disclosure, so it works without script and by keyboard. */
function confirmed(action: string, open: string, question: string, confirm: string): SafeHtml {
  return html`<details class="confirm">
    <summary>${open}</summary>
    <form method="post" action="${action}">
      <p>${question}</p>
      <button type="submit" class="danger">${confirm}</button>
    </form>
  </details>`;
}

/** How a key was made, as the list says it ('' when unknown). */
function madeBy(t: SettingsText, via: KeyOrigin): string {
  if (via === 'browser') return t.madeInBrowser;
  if (via === 'api') return t.madeByApi;
  return via === 'cli' ? t.madeByOperator : '';
}

/** A key's limits (decisions §21) after its role: the domains and destination hosts it is held to. */
function limitsOf(key: SettingsView['keys'][number]): string {
  const limits = [
    ...(key.domains ?? []).map((domain) => `domain ${domain}`),
    ...(key.url_hosts ?? []).map((host) => `to ${host}`),
  ];
  return limits.length === 0 ? '' : ` · ${limits.join(', ')}`;
}

function keysSection(view: SettingsView, t: SettingsText): SafeHtml {
  const { language } = view;
  const items = view.keys.map(
    (key) =>
      html`<li class="key" data-prefix="${key.prefix}">
        <strong>${key.name}</strong>
        <span>${t.prefix} <code>${key.prefix}</code></span>
        <span class="key-role">Role: ${key.role}${limitsOf(key)}</span>
        <span>${t.created}: ${when(language, key.created_at)} ${madeBy(t, key.createdVia)}</span>
        <span>${t.lastUsed}: ${key.last_used_at === null ? t.never : when(language, key.last_used_at)}</span>
        ${
          key.revoked_at === null
            ? confirmed(
                `/account/settings/keys/${key.id}/revoke`,
                t.revoke,
                fill(t.revokeConfirm, { name: key.name }),
                fill(t.revokeKey, { name: key.name }),
              )
            : html`<span class="revoked">${t.revoked}: ${when(language, key.revoked_at)}</span>`
        }
      </li>`,
  );
  const shown = view.newKey;
  return html`<section class="card" aria-labelledby="keys-title">
    <h2 id="keys-title">${t.keysTitle}</h2>
    <p class="hint">${t.keysIntro}</p>
    ${shown === undefined ? '' : shownOnce(fill(t.newKeyShown, { name: shown.name }), shown.key, t)}
    <form method="post" action="/account/settings/keys" class="stack">
      ${inputField('key-name', t.keyName, html`name="name" required maxlength="64" autocomplete="off"`)}
      <p>
        <label for="key-role">Role</label>
        <select id="key-role" name="role">
          <option value="admin">admin: all you may do</option>
          <option value="editor">editor: links and tags</option>
          <option value="viewer">viewer: read only</option>
          <option value="creator">creator: only makes links</option>
        </select>
      </p>
      ${inputField('key-url-hosts', 'Destination hosts (optional, comma-separated)', html`name="url_hosts" maxlength="2000" autocomplete="off" placeholder="example.com"`)}
      <button type="submit">${t.createKey}</button>
    </form>
    ${listOrNone(items, { id: 'keys', class: 'settings-list' }, html`<p>${t.noKeys}</p>`)}
  </section>`;
}

function passwordSection(t: SettingsText, language: Language): SafeHtml {
  const a = accountTextOf(language);
  return html`<section class="card" aria-labelledby="password-title">
    <h2 id="password-title">${t.passwordTitle}</h2>
    <form method="post" action="/account/settings/password" class="stack">
      ${inputField('current-password', t.currentPassword, html`name="current_password" type="password" maxlength="128" autocomplete="current-password"`)}
      ${newPasswordField(a, undefined)}
      <button type="submit">${t.changePassword}</button>
    </form>
  </section>`;
}

function sessionsSection(view: SettingsView, t: SettingsText): SafeHtml {
  const word = keyWord(view.language);
  const items = view.sessions.map((session) => {
    const current = session.id === view.currentSessionId;
    return html`<li class="session" ${current ? html` aria-current="true"` : ''}>
      ${current ? html`<strong>${t.thisSession}</strong>` : ''}
      ${session.browser === null ? '' : html`<span class="client">${fill(t.sessionClient, { browser: word(session.browser), device: word(session.device ?? 'other') })}</span>`}
      <span>${t.created}: ${when(view.language, session.createdAt)}</span>
      <span>${t.lastSeen}: ${when(view.language, session.lastSeenAt)}</span>
      <form method="post" action="/account/settings/sessions/${session.id}/end">
        <button type="submit" class="button danger">${t.endSession}</button>
      </form>
    </li>`;
  });
  return html`<section class="card" aria-labelledby="sessions-title">
    <h2 id="sessions-title">${t.sessionsTitle}</h2>
    <ul id="sessions" class="settings-list">
      ${items}
    </ul>
  </section>`;
}

function passkeysSection(view: SettingsView, t: SettingsText): SafeHtml {
  const items = view.passkeys.map(
    (passkey) =>
      html`<li class="passkey">
        <strong>${passkey.name}</strong>
        <span>${t.created}: ${when(view.language, passkey.createdAt)}</span>
        <span
          >${t.lastUsed}:
          ${passkey.lastUsedAt === null ? t.never : when(view.language, passkey.lastUsedAt)}</span
        >
        <form
          method="post"
          action="/account/settings/passkeys/${encodeURIComponent(passkey.id)}/rename"
          class="inline-form"
        >
          <input
            name="name"
            value="${passkey.name}"
            required
            maxlength="64"
            aria-label="${fill(t.passkeyNameLabel, { name: passkey.name })}"
          />
          <button type="submit" class="button">${t.rename}</button>
        </form>
        <form method="post" action="/account/settings/passkeys/${encodeURIComponent(passkey.id)}/delete">
          <button type="submit" class="button danger">
            ${fill(t.removePasskey, { name: passkey.name })}
          </button>
        </form>
      </li>`,
  );
  return html`<section class="card" aria-labelledby="passkeys-title">
    <h2 id="passkeys-title">${t.passkeysTitle}</h2>
    ${listOrNone(items, { id: 'passkeys', class: 'settings-list' }, html`<p>${t.noPasskeys}</p>`)}
    <p><a href="/account">${accountTextOf(view.language).addPasskey}</a></p>
  </section>`;
}

/**
 * The identity provider (decisions §22): the identities the account signs in with, or a button that
 * links one (the provider's round trip, after a recent sign-in: never by name or email).
 */
function ssoSection(view: SettingsView): SafeHtml {
  const sso = view.sso;
  if (sso === undefined) return html``;
  const t = ssoTextOf(view.language);
  const unlink = settingsTextOf(view.language).unlinkIdentity;
  const items = sso.linked.map(
    (identity) =>
      html`<li class="identity">
        <strong>${identity.issuer}</strong>
        <span>${fill(t.linkedAt, { when: when(view.language, identity.linkedAt) })}</span>
        <form method="post" action="/account/settings/identities/unlink">
          <input type="hidden" name="issuer" value="${identity.issuer}" />
          <input type="hidden" name="subject" value="${identity.subject}" />
          <button type="submit" class="button danger">${unlink}</button>
        </form>
      </li>`,
  );
  return html`<section class="card" aria-labelledby="sso-title">
    <h2 id="sso-title">${t.cardTitle}</h2>
    ${
      items.length === 0
        ? html`<p class="hint">${fill(t.linkIntro, { label: sso.label })}</p>
            <p><a class="button" href="/login/oidc?link=1">${t.linkButton}</a></p>`
        : html`<p class="hint">${fill(t.linkedAs, { label: sso.label })}</p>
            <ul id="identities" class="settings-list">
              ${items}
            </ul>`
    }
  </section>`;
}

/** The password form that makes the session a recent sign-in, shown while it is not one. */
function confirmSection(t: SettingsText): SafeHtml {
  return html`<section class="card" aria-labelledby="confirm-title" id="confirm">
    <h2 id="confirm-title">${t.confirmTitle}</h2>
    <p class="hint">${t.confirmIntro}</p>
    <form method="post" action="/account/settings/confirm" class="stack">
      ${inputField('confirm-password', t.confirmPassword, html`name="password" type="password" required maxlength="128" autocomplete="current-password"`)}
      <button type="submit">${t.confirmButton}</button>
    </form>
    <p class="hint">${t.confirmPasskey}</p>
  </section>`;
}

function webhooksOf(view: SettingsView) {
  if (view.webhooks === undefined) return '';
  const created = view.webhookCreated;
  return webhooksSection({ webhooks: view.webhooks, ...(created ? { created } : {}) }, view.language);
}

/** `/account/settings` (decisions §10): API keys, password, sessions and passkeys, every form a plain post. */
export function settingsPage(view: SettingsView): string {
  const t = settingsTextOf(view.language);
  return accountAreaPage(
    view.language,
    t.settingsTitle,
    html`${headCard('settings', t.settingsTitle, t.backToAccount, noticeLine(view.notice, 'settings-notice'))}
    ${view.recent ? '' : confirmSection(t)} ${view.keysShown === false ? '' : keysSection(view, t)}
    ${passwordSection(t, view.language)} ${sessionsSection(view, t)} ${passkeysSection(view, t)}
    ${ssoSection(view)} ${webhooksOf(view)}`,
    ['settings.js', 'flash.js'],
  );
}
