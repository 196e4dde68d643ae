import type { Account, Language, LinkView, OrphanVisitsView } from '@shortener/core';
import { noticeLine } from '../notice.js';
import { countText } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { accountAreaPage, html } from '../layout.js';
import {
  checkField,
  headCard,
  inputField,
  listOrNone,
  messageCard,
  pagerNav,
  shownOnce,
} from '../page-parts.js';
import { rowActions } from '../row-actions.js';
import { fill, textOf } from '../text.js';
import type { Notice } from './account-pages.js';
import type { AdminText } from './admin-text.js';
import { adminTextOf } from './admin-text.js';
import { orphansSummary } from './orphans-page.js';

/** A link as `/admin` lists it: the view, and the name of its owner (null: anonymous). */
export interface AdminLink {
  readonly link: LinkView;
  readonly owner: string | null;
}

/** What `/admin` shows. */
export interface AdminView {
  readonly language: Language;
  readonly links: readonly AdminLink[];
  readonly q: string;
  readonly nextCursor: string | null;
  readonly paged: boolean;
  readonly accounts: readonly Account[];
  /** The signed-in admin (who cannot disable their own account). */
  readonly selfId: string;
  /** Where the forms come back to: this page with its search and cursor. */
  readonly here: string;
  /** The answer to the last form: an error, or the invite link made. */
  readonly notice?: Notice;
  readonly invite?: { readonly name: string; readonly url: string };
  /** A reset link just made for an existing account. */
  readonly reset?: { readonly name: string; readonly url: string };
  readonly inviteValues?: { readonly name: string; readonly admin: boolean };
  /** The visits that found nothing in the last 30 days, where they are counted (their page has more). */
  readonly orphans?: OrphanVisitsView;
}

const page = (language: Language, title: string, main: SafeHtml) =>
  accountAreaPage(language, title, main, ['settings.js', 'copy.js', 'flash.js']);

const dateOf = (language: Language, time: number | string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(time));

/** `/admin` (decisions §10): every link (search, paging, disable/enable, delete) and the accounts. */
export function adminPage(view: AdminView): string {
  const t = adminTextOf(view.language);
  return page(
    view.language,
    t.adminTitle,
    html`${headCard(
      'admin',
      t.adminTitle,
      t.backToAccount,
      html`${view.orphans === undefined ? '' : orphansSummary(view.language, view.orphans)}
      ${noticeLine(view.notice, 'admin-notice')}`,
    )}
    ${linksSection(view, t)} ${accountsSection(view, t)} ${inviteSection(view, t)}`,
  );
}

/** A form of one button posting to `action`, coming back to `here`. */
const button = (action: string, here: string, label: string, text: string, extra: SafeHtml | '' = '') =>
  html`<form method="post" action="${action}" class="inline-form">
    <input type="hidden" name="return" value="${here}" />
    ${extra}<button
      type="submit"
      class="${DESTRUCTIVE.test(action) ? 'button danger' : 'button'}"
      aria-label="${label}"
    >
      ${text}
    </button>
  </form>`;
/** The admin actions that take something away: styled as such, never as the primary action. */
const DESTRUCTIVE = /\/(?:disable|delete)$/;

function linksSection(view: AdminView, t: AdminText): SafeHtml {
  const { language, q, here } = view;
  const pt = textOf(language);
  const query = (extra: Record<string, string>) => {
    const params = new URLSearchParams({ ...(q === '' ? {} : { q }), ...extra });
    return params.size === 0 ? '/admin' : `/admin?${params.toString()}`;
  };
  const item = ({ link, owner }: AdminLink) => {
    const base = `/admin/links/${link.id}`;
    const toggle =
      link.status === 'disabled'
        ? button(`${base}/enable`, here, fill(t.enableLink, { link: link.short_url }), t.enable)
        : button(`${base}/disable`, here, fill(t.disableLink, { link: link.short_url }), t.disable);
    const confirm = html`<span class="field check">
      <input id="confirm-${link.id}" name="confirm" type="checkbox" value="yes" required />
      <label for="confirm-${link.id}">${fill(t.confirmDelete, { link: link.short_url })}</label>
    </span>`;
    return html`<li>
      <a class="link-title" href="/account/links/${link.id}">${link.title ?? pt.statsLink}</a>
      <span class="short-url">${link.short_url}</span>
      <span class="link-target">${link.url}</span>
      <span class="link-meta"
        >${owner === null ? t.anonymous : fill(t.owner, { name: owner })} ·
        ${countText(language, link.clicks, pt.click[0], pt.click[1])} · ${pt[link.status]} ·
        ${fill(t.createdOn, { date: dateOf(language, link.created_at) })}</span
      >
      ${rowActions(language, link)}
      <div class="row-actions">
        ${toggle}
        ${button(`${base}/delete`, here, fill(t.deleteLink, { link: link.short_url }), t.delete, confirm)}
      </div>
    </li>`;
  };
  return html`<section class="card" aria-labelledby="all-links-title">
    <h2 id="all-links-title">${t.linksTitle}</h2>
    <form method="get" action="/admin" class="search" role="search">
      <label for="admin-q">${t.searchLabel}</label>
      <div class="copy-row">
        <input id="admin-q" name="q" type="search" value="${q}" maxlength="200" />
        <button type="submit" class="button">${t.search}</button>
      </div>
    </form>
    ${listOrNone(view.links.map(item), { id: 'admin-links', class: 'link-list' }, html`<p>${q === '' ? t.noLinks : fill(t.noMatches, { q })}</p>`)}
    ${pagerNav(t.linksTitle, { first: view.paged ? query({}) : null, next: view.nextCursor === null ? null : query({ cursor: view.nextCursor }) }, t)}
  </section>`;
}

function accountsSection(view: AdminView, t: AdminText): SafeHtml {
  const item = (account: Account) => {
    const base = `/admin/accounts/${account.id}`;
    const disabled = account.disabledAt !== null;
    const toggle =
      account.id === view.selfId
        ? ''
        : disabled
          ? button(`${base}/enable`, view.here, fill(t.enableAccount, { name: account.name }), t.enable)
          : button(`${base}/disable`, view.here, fill(t.disableAccount, { name: account.name }), t.disable);
    const reset = html`<details class="reset">
      <summary>${t.reset}</summary>
      <p class="hint">${fill(t.resetExplain, { name: account.name })}</p>
      ${button(`${base}/reset`, view.here, fill(t.resetAccount, { name: account.name }), t.resetButton)}
    </details>`;
    return html`<li>
      <span class="link-title">${account.name}</span>
      <span class="link-meta"
        >${account.role === 'admin' ? t.roleAdmin : t.roleUser} ·
        ${fill(t.createdOn, { date: dateOf(view.language, account.createdAt) })}${disabled ? ` · ${t.disabledMark}` : ''}</span
      >
      <div class="row-actions">${toggle}</div>
      ${reset}
    </li>`;
  };
  return html`<section class="card" aria-labelledby="accounts-title">
    <h2 id="accounts-title">${t.accountsTitle}</h2>
    ${view.reset === undefined ? '' : shownOnce(fill(t.resetMade, { name: view.reset.name }), view.reset.url, t)}
    <ul id="admin-accounts" class="link-list">
      ${view.accounts.map(item)}
    </ul>
  </section>`;
}

function inviteSection(view: AdminView, t: AdminText): SafeHtml {
  const values = view.inviteValues ?? { name: '', admin: false };
  const made = view.invite;
  return html`<section class="card admin-invite" aria-labelledby="invite-title">
    <h2 id="invite-title">${t.inviteTitle}</h2>
    ${made === undefined ? '' : shownOnce(fill(t.inviteMade, { name: made.name }), made.url, t)}
    <form method="post" action="/admin/invites" class="stack">
      ${inputField('invite-name', t.nameLabel, html`name="name" value="${values.name}" required maxlength="64" autocomplete="off" autocapitalize="none" spellcheck="false"`)}
      ${checkField('invite-admin', 'admin', t.adminLabel, values.admin)}
      <button type="submit">${t.inviteButton}</button>
    </form>
  </section>`;
}

/** The 403 page of a signed-in account that is not an admin. */
export function adminOnlyPage(language: Language): string {
  const t = adminTextOf(language);
  const card = { title: t.forbiddenTitle, text: t.forbidden, href: '/account', link: t.backToAccount };
  return page(language, t.forbiddenTitle, messageCard(card));
}
