import type { Language, LinkView, StatsView } from '@shortener/core';
import { errorLine, invalidIf, noticeLine } from '../notice.js';
import { copyButton } from '../copy-button.js';
import type { SafeHtml } from '../layout.js';
import { accountAreaPage, html } from '../layout.js';
import { checkField, inputField, messageCard } from '../page-parts.js';
import { destinationsList } from '../preview-destinations.js';
import { fill, textOf } from '../text.js';
import type { Notice } from './account-pages.js';
import type { LinkPageText } from './link-page-text.js';
import { linkPageTextOf } from './link-page-text.js';
import { organiseFields, organiseValues } from './link-organise.js';
import type { RulesEditorState } from './rules-editor.js';
import { previewFields, previewValues } from './preview-section.js';
import { hiddenToken, statsBlock, statsSection } from './link-stats.js';
import { healthSection, utcDateTime } from './health-section.js';
import { splitFields, splitStatsSection, splitValues } from './split-section.js';
import { teamTextOf } from './team-text.js';

export { STATS_WINDOWS } from './link-stats.js';

/** What `/account/links/{id}` shows to the owner, or to the holder of the link's edit token. */
export interface LinkPageView {
  readonly language: Language;
  readonly link: LinkView;
  readonly stats: StatsView;
  /** The edit token that opened the page: carried in a hidden field of every form (never in a URL). */
  readonly token: string | null;
  /** Whether the caller's role changes links (decisions §21: a viewer's page has no edit or delete form). */
  readonly changes?: boolean;
  /** The page was got by GET: its script may open it again in the browser's time zone (zone.js). */
  readonly zoneReload?: boolean;
  /** A line about the last action (saved), or an error of the edit form. */
  readonly notice?: Notice;
  /** A line at the top of the page: the link was just created (`?done=created`). */
  readonly topNotice?: Notice;
  /** What the edit form sent, when it failed, and the field the error is about. */
  readonly values?: Readonly<Record<string, string>>;
  readonly field?: string;
  /** The rules editor after a row button's post: the row to open, the element to focus. */
  readonly rules?: RulesEditorState;
  /** The delete form's error (no confirmation). */
  readonly deleteError?: string;
  /** The statistics are of a range of dates asked for (`from`, `to`), not of a preset's days. */
  readonly ranged?: boolean;
  /** Why the range asked for was not shown (core's words); the default window is shown instead. */
  readonly rangeError?: string;
  /** The server checks links' health (decisions §23): the page offers "Check now". */
  readonly checks?: boolean;
  /** The outcome of the last "Check now", shown in the health section. */
  readonly healthNotice?: Notice;
}

function page(language: Language, title: string, main: SafeHtml): string {
  return accountAreaPage(language, title, main, [
    'copy.js',
    'flash.js',
    'zone.js',
    'rules.js',
    'split.js',
    'social-card.js',
  ]);
}

/** `YYYY-MM-DDTHH:MM` of an ISO time, in UTC (the value of a `datetime-local` input). */
const localValue = (iso: string | null) => (iso === null ? '' : iso.slice(0, 16));

/** The full page: facts, QR, statistics, the settings form and deletion. */
export function linkPage(view: LinkPageView): string {
  const t = linkPageTextOf(view.language);
  const { link } = view;
  return page(
    view.language,
    link.title ?? link.short_url,
    html`${factsSection(view, t)} ${healthOf(view)} ${statsSection(view, t)}
    ${splitStatsSection(view.language, link, view.stats)}
    ${view.changes === false ? '' : html`${editSection(view, t)} ${deleteSection(view, t)}`}`,
  );
}

/** Who made the link and who changed it last (decisions §21), when known. */
function whoDid(language: Language, link: LinkView): SafeHtml | '' {
  const tt = teamTextOf(language);
  const made = link.created_by === null ? [] : [fill(tt.createdBy, { who: link.created_by })];
  const changed = link.updated_by === null ? [] : [fill(tt.changedBy, { who: link.updated_by })];
  const said = [...made, ...changed].join(' · ');
  return said === '' ? '' : html`<p class="hint" id="who-did">${said}</p>`;
}

function factsSection(view: LinkPageView, t: LinkPageText): SafeHtml {
  const { link, language } = view;
  const pt = textOf(language);
  const date = (iso: string) => utcDateTime(language, iso);
  const row = (label: string, value: SafeHtml | string) =>
    html`<div>
      <dt>${label}</dt>
      <dd>${value}</dd>
    </div>`;
  return html`<section class="card" aria-labelledby="link-title">
    <p>${view.token === null ? html`<a href="/account">${t.backToAccount}</a>` : ''}</p>
    <h1 id="link-title">${link.title ?? `/${link.slug}`}</h1>
    ${noticeLine(view.topNotice, 'link-notice')}
    <p>
      <a class="short-url" id="short-url" href="${link.short_url}">${link.short_url}</a>
      ${copyButton(language, link.short_url)}
    </p>
    <dl class="facts">
      ${row(pt.destination, destinationOf(language, link))}
      ${row(pt.status, html`<span class="status status-${link.status}">${pt[link.status]}</span>`)}
      ${row(pt.created, `${date(link.created_at)} UTC`)}
      ${link.starts_at === null ? '' : row(pt.starts, `${date(link.starts_at)} UTC`)}
      ${link.expires_at === null ? '' : row(pt.expires, `${date(link.expires_at)} UTC`)}
      ${row(pt.clicks, link.max_clicks === null ? String(link.clicks) : `${link.clicks} / ${link.max_clicks}`)}
      ${link.has_password ? row(pt.passwordLabel, t.hasPassword) : ''}
    </dl>
    ${whoDid(language, link)}
    <div class="result-grid">
      <figure class="qr">
        <img
          src="${link.qr_svg_url}"
          alt="${fill(pt.qrAlt, { url: link.short_url })}"
          width="160"
          height="160"
        />
        <figcaption>${pt.qrTitle}</figcaption>
      </figure>
      <ul class="actions">
        <li><a href="${link.qr_png_url}" download>${pt.downloadPng}</a></li>
        <li><a href="${link.qr_svg_url}" download>${pt.downloadSvg}</a></li>
        <li><a href="${link.preview_url}">${pt.previewLink}</a></li>
        <li><a href="${link.stats_url}">${pt.statsJsonLink}</a></li>
      </ul>
    </div>
  </section>`;
}

/** The health section (decisions §23): where the server checks links, or once a link was checked. */
function healthOf(view: LinkPageView): SafeHtml | '' {
  const checks = view.checks === true;
  if (!checks && view.link.health.state === 'unknown') return '';
  return healthSection({
    language: view.language,
    link: view.link,
    checks,
    tokenField: hiddenToken(view.token),
    ...(view.healthNotice === undefined ? {} : { notice: view.healthNotice }),
  });
}

function editSection(view: LinkPageView, t: LinkPageText): SafeHtml {
  const { link } = view;
  const failed = view.notice?.error === true;
  const values = view.values ?? {
    url: link.url,
    title: link.title ?? '',
    expires_at: localValue(link.expires_at),
    starts_at: localValue(link.starts_at),
    max_clicks: link.max_clicks === null ? '' : String(link.max_clicks),
    expired_url: link.expired_url ?? '',
    private_stats: link.public_stats ? '' : 'on',
    ...organiseValues(link),
    ...previewValues(link),
    ...splitValues(link),
  };
  const invalid = (name: string) =>
    failed && view.field === name ? html` aria-invalid="true" aria-describedby="edit-notice"` : '';
  const input = (name: string, label: string, attributes: SafeHtml) =>
    html`<div class="field">
      <label for="edit-${name}">${label}</label>
      <input id="edit-${name}" name="${name}" value="${values[name] ?? ''}" ${attributes}${invalid(name)} />
    </div>`;
  const check = (name: string, label: string, checked: boolean) =>
    checkField(`edit-${name}`, name, label, checked);
  return html`<section class="card" aria-labelledby="settings-title">
    <h2 id="settings-title">${t.settingsTitle}</h2>
    ${noticeLine(view.notice, 'edit-notice')}
    <form method="post" action="/account/links/${link.id}/edit" class="stack">
      ${hiddenToken(view.token)}
      <button type="submit" class="default-submit" tabindex="-1" aria-hidden="true">${t.save}</button>
      ${input('url', t.urlLabel, html` type="text" inputmode="url" required autocomplete="off"`)}
      ${input('title', t.titleLabel, html` type="text" maxlength="200" autocomplete="off"`)}
      <div class="row">
        ${input('starts_at', t.startsAtLabel, html` type="datetime-local"`)}
        ${input('expires_at', t.expiresAtLabel, html` type="datetime-local"`)}
        ${input('max_clicks', t.maxClicksLabel, html` type="number" min="1" step="1" inputmode="numeric"`)}
      </div>
      ${input('expired_url', t.expiredUrlLabel, html` type="text" inputmode="url" autocomplete="off"`)}
      ${input('password', t.passwordLabel, html` type="password" minlength="4" maxlength="64" autocomplete="new-password"`)}
      ${link.has_password ? check('remove_password', t.removePassword, values.remove_password === 'on') : ''}
      ${check('private_stats', t.privateStats, values.private_stats === 'on')}
      ${organiseFields(view.language, values, { ...view.rules, ...(failed && view.field ? { field: view.field } : {}) })}
      ${previewFields(view.language, link, values, failed ? view.field : undefined)}
      ${splitFields(view.language, values, failed ? view.field : undefined)}
      <button type="submit" class="primary">${t.save}</button>
    </form>
  </section>`;
}

function deleteSection(view: LinkPageView, t: LinkPageText): SafeHtml {
  const error = view.deleteError;
  return html`<section class="card" aria-labelledby="delete-title">
    <h2 id="delete-title">${t.deleteTitle}</h2>
    ${errorLine(error, 'delete-error')}
    <form method="post" action="/account/links/${view.link.id}/delete" class="stack">
      ${hiddenToken(view.token)}
      <div class="field check">
        <input
          id="confirm"
          name="confirm"
          type="checkbox"
          value="yes"
          required
          ${invalidIf(error, 'delete-error')}
        />
        <label for="confirm">${t.deleteConfirm}</label>
      </div>
      <button type="submit" class="danger">${t.deleteButton}</button>
    </form>
  </section>`;
}

/** What the edit-token form shows: an error after a wrong token, and the statistics when public. */
export interface TokenPageView {
  readonly language: Language;
  readonly id: string;
  /** The short URL of the link the form is for (issue 26: the form says which link it opens). */
  readonly shortUrl: string | null;
  readonly error?: string;
  readonly stats: StatsView | null;
  /** A signed-in person (not the link's owner) is not told to sign in to open their own links. */
  readonly signedIn: boolean;
}

/** The page for anyone but the owner: the edit-token form, and the statistics when they are public. */
export function tokenPage(view: TokenPageView): string {
  const t = linkPageTextOf(view.language);
  return accountAreaPage(
    view.language,
    t.manageTitle,
    html`<section class="card" aria-labelledby="token-title">
        <h1 id="token-title">${t.manageTitle}</h1>
        ${view.shortUrl === null ? '' : html`<p class="short-url" id="token-for">${view.shortUrl}</p>`}
        <p>${t.tokenIntro}</p>
        ${errorLine(view.error, 'token-error')}
        <form method="post" action="/account/links/${view.id}" class="stack">
          ${inputField('edit_token', t.tokenLabel, html`name="edit_token" type="password" required maxlength="200" autocomplete="off" autocapitalize="none" spellcheck="false"${invalidIf(view.error, 'token-error')}`)}
          <button type="submit" class="primary">${t.tokenSubmit}</button>
        </form>
        ${view.signedIn ? '' : html`<p class="hint">${t.signInInstead} <a href="/login">${textOf(view.language).account}</a></p>`}
      </section>
      ${
        view.stats === null
          ? ''
          : html`<section class="card" aria-labelledby="stats-title">
              <h2 id="stats-title">${t.statsTitle}</h2>
              <p>${t.publicStats}</p>
              ${statsBlock(view.language, view.stats)}
            </section>`
      }`,
    ['flash.js', 'token.js'],
  );
}

/** The 404 page of an unknown link id. */
export function linkMissingPage(language: Language): string {
  const t = linkPageTextOf(language);
  const card = { title: t.notFoundTitle, text: t.notFound, href: '/account', link: textOf(language).account };
  return page(language, t.notFoundTitle, messageCard(card));
}

/** The page after a deletion by edit token (a session goes back to `/account`). */
export function linkDeletedPage(language: Language): string {
  const t = linkPageTextOf(language);
  return page(
    language,
    t.deletedTitle,
    html`<section class="card notice" aria-labelledby="deleted-title">
      <h1 id="deleted-title">${t.deletedTitle}</h1>
      <p role="status">${t.deleted}</p>
      <p><a class="button" href="/">${textOf(language).another}</a></p>
    </section>`,
  );
}

/** Where the link leads: its URL, or (rules, a split test) every destination, as its preview lists them. */
const destinationOf = (language: Language, link: LinkView): SafeHtml =>
  link.rules.length > 0 || link.split !== null
    ? destinationsList(language, link)
    : html`<span class="destination">${link.url}</span>`;
