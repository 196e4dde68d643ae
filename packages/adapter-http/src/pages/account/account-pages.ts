import type { Language, LinkView, StatsAcrossView, TagCount } from '@shortener/core';
import { errorLine as errorLineOf, invalidIf, noticeLine } from '../notice.js';
import type { LinkFormView } from '../home-page.js';
import { linkForm } from '../home-page.js';
import type { SafeHtml } from '../layout.js';
import { accountAreaPage, html } from '../layout.js';
import { inputField, messageCard, textareaField } from '../page-parts.js';
import { fill, textOf } from '../text.js';
import type { AccountText } from './account-text.js';
import { ssoTextOf } from './sso-text.js';
import { accountTextOf } from './account-text.js';
import { linksSection } from './account-links.js';
import { domainsTextOf } from './domains-text.js';
import { importTextOf } from './import-text.js';
import { overviewSection } from './overview-section.js';
import { settingsTextOf } from './settings-text.js';
import { teamTextOf } from './team-text.js';
import { toolsTextOf } from './tools-text.js';

/** The scripts of the account pages: SimpleWebAuthn's browser bundle, then the pages' own module. */
const SCRIPTS = ['webauthn.js', 'account.js', 'copy.js', 'app.js', 'flash.js', 'zone.js'] as const;

function accountPage(language: Language, title: string, main: SafeHtml): string {
  return accountAreaPage(language, title, main, SCRIPTS);
}

/** An account page whose first card is headed by the page's title (`<h1 id="{id}-title">`); `after` follows it. */
function cardPage(
  language: Language,
  id: string,
  title: string,
  card: SafeHtml,
  after: SafeHtml | '' = '',
): string {
  return accountPage(
    language,
    title,
    html`<section class="card" aria-labelledby="${id}-title">
        <h1 id="${id}-title">${title}</h1>
        ${card}
      </section>
      ${after}`,
  );
}

const errorLine = (message: string | undefined) => errorLineOf(message, 'form-error');
const invalid = (message: string | undefined) => invalidIf(message, 'form-error');

/** The passkey button and its live status line; `data-*` carry the endpoints and the texts. */
function passkeyButton(
  t: AccountText,
  id: string,
  label: string,
  endpoints: Record<string, string>,
): SafeHtml {
  const data = Object.entries(endpoints).map(([name, url]) => html` data-${name}="${url}"`);
  return html`<p>
      <button
        type="button"
        class="button"
        id="${id}"
        ${data}
        data-failed="${t.passkeyFailed}"
        data-unsupported="${t.passkeyUnsupported}"
      >
        ${label}
      </button>
    </p>
    <p class="hint" id="${id}-status" role="status" aria-live="polite"></p>`;
}

/** What the sign-in page shows. */
export interface SignInView {
  readonly language: Language;
  readonly name?: string;
  readonly error?: string;
  readonly signupOpen: boolean;
  /** Where to go once signed in: a path of this site the visitor asked for (`signInReturn`). */
  readonly next?: string | null;
  /** What a team invite link being opened offers (decisions §21), said above the form. */
  readonly invitation?: string;
  /** Sign-in through the identity provider (decisions §22): its button, or that it cannot be reached. */
  readonly sso?: { readonly label: string; readonly available: boolean; readonly passwords: boolean };
}

/** The provider's button (or why there is none), first on the page. */
function ssoButton(view: SignInView): SafeHtml | '' {
  const sso = view.sso;
  if (sso === undefined) return '';
  if (!sso.available)
    return html`<p class="form-error" role="alert" id="sso-unavailable">
      ${ssoTextOf(view.language).unavailable}
    </p>`;
  const next = view.next ? `?next=${encodeURIComponent(view.next)}` : '';
  return html`<p><a class="button" id="sso-sign-in" href="/login/oidc${next}">${sso.label}</a></p>`;
}

/** `/login`: name and password, or a passkey (decisions §10). */
export function signInPage(view: SignInView): string {
  const t = accountTextOf(view.language);
  return cardPage(
    view.language,
    'sign-in',
    t.signInTitle,
    html`${view.invitation === undefined ? '' : html`<p id="join-invite">${view.invitation}</p>`}
      ${errorLine(view.error)} ${ssoButton(view)}
      ${
        view.sso?.passwords === false
          ? ''
          : html`${view.sso === undefined ? '' : html`<p>${t.or}</p>`}
              <form method="post" action="/login" class="stack">
                ${view.next ? html`<input type="hidden" name="next" value="${view.next}" />` : ''}
                ${nameField(t, view.name ?? '', 'username webauthn', view.error)}
                ${inputField('password', t.passwordLabel, html`name="password" type="password" required maxlength="128" autocomplete="current-password"${invalid(view.error)}`)}
                <button type="submit">${t.signIn}</button>
              </form>`
      }
      <p>${t.or}</p>
      ${passkeyButton(t, 'passkey-sign-in', t.passkeySignIn, { options: '/login/passkey/options', finish: '/login/passkey' })}
      <p>${view.signupOpen ? html`<a href="/account/signup">${t.signUpLink}</a>` : t.noAccount}</p>`,
  );
}

/** `/account/invite/{token}`: set a password and/or register a passkey for the invited account. */
export function invitePage(language: Language, name: string, token: string, error?: string): string {
  const t = accountTextOf(language);
  const path = `/account/invite/${token}`;
  return cardPage(
    language,
    'invite',
    fill(t.inviteTitle, { name }),
    html`<p>${fill(t.inviteIntro, { name })}</p>
      <p class="hint" id="invite-reset">${t.inviteReset}</p>
      ${errorLine(error)}
      <form method="post" action="${path}" class="stack">
        <input type="text" name="name" value="${name}" autocomplete="username" hidden readonly />
        ${newPasswordField(t, error)}
        <button type="submit">${t.setPassword}</button>
      </form>
      <p>${t.or}</p>
      ${passkeyButton(t, 'passkey-register', t.passkeyRegister, { options: `${path}/passkey/options`, finish: `${path}/passkey` })}`,
  );
}

function nameField(t: AccountText, value: string, autocomplete: string, error: string | undefined): SafeHtml {
  return inputField(
    'name',
    t.nameLabel,
    html`name="name" value="${value}" required maxlength="64" autocomplete="${autocomplete}"
    autocapitalize="none" spellcheck="false"${invalid(error)}`,
  );
}

/** The new-password field (id `password`, 8-128 characters) of the invite, sign-up and settings forms. */
export function newPasswordField(t: AccountText, error: string | undefined): SafeHtml {
  return inputField(
    'password',
    t.newPasswordLabel,
    html`name="password" type="password" required minlength="8" maxlength="128" autocomplete="new-password"
    aria-describedby="password-hint"${invalid(error)}`,
    html`<small class="hint" id="password-hint">${t.newPasswordHint}</small>`,
  );
}

/** The page of an invite link that is unknown, used or expired. */
export function inviteGonePage(language: Language): string {
  const t = accountTextOf(language);
  const card = { title: t.inviteGoneTitle, text: t.inviteGone, href: '/login', link: t.signInTitle };
  return accountPage(language, t.inviteGoneTitle, messageCard(card));
}

/** `/account/signup` when `SIGNUP=open`: a name and a password. */
export function signUpPage(language: Language, name = '', error?: string): string {
  const t = accountTextOf(language);
  return cardPage(
    language,
    'sign-up',
    t.signUpTitle,
    html`<p>${t.signUpIntro}</p>
      ${errorLine(error)}
      <form method="post" action="/account/signup" class="stack">
        ${nameField(t, name, 'username', error)} ${newPasswordField(t, error)}
        <button type="submit">${t.signUp}</button>
      </form>`,
  );
}

/** A line under a form: an error (alert) or a notice (status). */
export type { Notice } from '../notice.js';
import type { Notice } from '../notice.js';

/** What `/account` shows: the account, a page of its links, the forms (with what a failed post sent). */
export interface AccountHomeView {
  readonly language: Language;
  /** What the last action did (a link deleted), shown at the top. */
  readonly notice?: Notice;
  readonly name: string;
  readonly admin: boolean;
  /** Whether the caller's role makes links (decisions §21: a viewer sees no create or claim form). */
  readonly creates?: boolean;
  /** Whether it changes links (a viewer's list has no Edit links). */
  readonly changes?: boolean;
  /** `/account/domains` is served (the server has custom domains on). */
  readonly domainsPage?: boolean;
  readonly links: readonly LinkView[];
  /** The search, and the cursor of the next page (null at the end); `paged` when not on the first page. */
  readonly q: string;
  /** The tag the list is filtered by ('' for none; decisions §15). */
  readonly tag?: string;
  /** The health the list is filtered by: `broken`, or '' for none (decisions §23). */
  readonly health?: 'broken' | '';
  /** The server checks links' health: the list offers its "Broken links" filter. */
  readonly healthFilter?: boolean;
  readonly nextCursor: string | null;
  readonly paged: boolean;
  /** Why the search was refused (too long), shown by the search form. */
  readonly searchError?: string;
  readonly domains: readonly string[];
  /** The creation form's values and error after a failed post. */
  readonly create?: Pick<LinkFormView, 'values' | 'error'>;
  /** The claim form's answer, and the tokens sent when they failed. */
  readonly claim?: Notice & { readonly tokens?: string };
  readonly claimMax: number;
  /** The statistics over the account's links, or the tag's (a GET of the page only: the overview). */
  readonly overview?: {
    readonly stats: StatsAcrossView;
    readonly tags: readonly TagCount[];
    /** Of a range of dates asked for (`from`, `to`), not of the last days. */
    readonly ranged: boolean;
    /** Why the range asked for was not shown; the last 30 days are. */
    readonly rangeError?: string;
  };
  /** The account's tags, suggested in the new-link form. */
  readonly tagNames?: readonly string[];
}

/**
 * `/account` (decisions §10): who is signed in, the account's links (newest first, search, paging), a
 * form to create a link for the account, and one to claim anonymous links by their edit tokens. Every
 * part works without script; the script only adds passkeys.
 */
export function accountHomePage(view: AccountHomeView): string {
  const { language } = view;
  const t = accountTextOf(language);
  return cardPage(
    language,
    'account',
    t.accountTitle,
    html`${noticeLine(view.notice, 'account-notice')}
      <p id="signed-in-as">${fill(t.signedInAs, { name: view.name })}</p>
      <ul class="actions">
        <li><a href="/account/settings">${settingsTextOf(language).settingsLink}</a></li>
        <li><a href="/account/teams">${teamTextOf(language).title}</a></li>
        <li><a href="/account/import">${importTextOf(language).title}</a></li>
        <li><a href="/account/tools">${toolsTextOf(language).title}</a></li>
        ${view.domainsPage ? html`<li><a href="/account/domains">${domainsTextOf(language).title}</a></li>` : ''}
        ${view.admin ? html`<li><a href="/admin">${t.administration}</a></li>` : ''}
      </ul>
      <form method="post" action="/logout">
        <button type="submit" class="button danger">${t.signOut}</button>
      </form>
      ${passkeyButton(t, 'passkey-register', t.addPasskey, { options: '/account/passkeys/options', finish: '/account/passkeys', done: t.passkeyAdded })}`,
    html`${view.overview === undefined ? '' : overviewSection(view.language, view.overview, view.tag ?? '')}
    ${linksSection(view, t)} ${view.creates === false ? '' : creationSections(view, t)}`,
  );
}

/** The forms that make links: a new link, and claiming anonymous ones. */
function creationSections(view: AccountHomeView, t: AccountText): SafeHtml {
  const { language } = view;
  return html`${linkForm(
    textOf(language),
    { language, domains: view.domains, ...view.create, tagSuggestions: view.tagNames ?? [] },
    {
      id: 'create-form',
      action: '/account/links',
      heading: 'h2',
      autofocus: false,
      title: t.createTitle,
      intro: t.createIntro,
    },
  )}
  ${claimSection(view, t)}`;
}

function claimSection(view: AccountHomeView, t: AccountText): SafeHtml {
  const claim = view.claim;
  const failed = claim?.error === true;
  return html`<section class="card" aria-labelledby="claim-title">
    <h2 id="claim-title">${t.claimTitle}</h2>
    <p>${fill(t.claimIntro, { max: view.claimMax })}</p>
    ${noticeLine(claim, 'claim-result')}
    <form method="post" action="/account/claim" class="stack">
      ${textareaField(
        'tokens',
        t.claimLabel,
        html`name="tokens" rows="3" required autocomplete="off" autocapitalize="none" spellcheck="false"
        ${failed ? html` aria-invalid="true" aria-describedby="claim-result"` : ''}`,
        claim?.tokens ?? '',
      )}
      <button type="submit">${t.claimSubmit}</button>
    </form>
  </section>`;
}

/** A page that says one thing (a sign-in through the provider refused, say), with a link onwards. */
export function messagePage(
  language: Language,
  title: string,
  text: string,
  onwards: { readonly href: string; readonly label: string },
): string {
  return accountPage(language, title, messageCard({ title, text, href: onwards.href, link: onwards.label }));
}
