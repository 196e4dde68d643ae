import type { Language, LinkView } from '@shortener/core';
import { CHECKS_PER_MINUTE } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { html } from '../layout.js';
import type { Notice } from '../notice.js';
import { noticeLine } from '../notice.js';
import { fill } from '../text.js';
import { healthTextOf, reasonWords, stateWords } from './health-text.js';

// Link health on the pages (decisions §23): a badge in the link list, a section on a link's page.

/** A time as the link page writes it: medium date, short time, in UTC ("Dec 2, 2026, 10:00 AM"). */
export const utcDateTime = (language: Language, iso: string): string =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(
    new Date(iso),
  );

/** A time as a `<time datetime>` element, in the link page's format. */
const timeOf = (language: Language, iso: string): SafeHtml =>
  html`<time datetime="${iso}">${utcDateTime(language, iso)} UTC</time>`;

/**
 * The badge of a link in the list: "Broken" (why, in its title and beside it on wide screens) or
 * "Redirects"; nothing for a link that is ok or not checked yet. Words, never a colour alone.
 */
export function healthBadge(language: Language, link: LinkView): SafeHtml | '' {
  const { health } = link;
  if (health.state === 'redirected')
    return html`<span class="health-badge health-redirected">${stateWords(language, 'redirected')}</span>`;
  if (health.state !== 'broken') return '';
  const why = health.reason === null ? '' : reasonWords(language, health.reason, health.status);
  return html`<span class="health-badge health-broken" title="${why}">${stateWords(language, 'broken')}</span
    >${why === '' ? '' : html`<span class="health-why"> (${why})</span>`}`;
}

/** What the health section of a link's page needs. */
export interface HealthSectionView {
  readonly language: Language;
  readonly link: LinkView;
  /** The "Check now" form is offered (the server checks links, and the caller may read this one). */
  readonly checks: boolean;
  /** The edit token that opened the page, carried in the form. */
  readonly tokenField: SafeHtml | '';
  /** The outcome of the last "Check now". */
  readonly notice?: Notice;
}

/** The health of a link: its state, why, the status, where it ended, when; and "Check now". */
export function healthSection(view: HealthSectionView): SafeHtml {
  const { language, link } = view;
  const t = healthTextOf(language);
  const { health } = link;
  const row = (id: string, label: string, value: SafeHtml | string) =>
    html`<div>
      <dt>${label}</dt>
      <dd id="health-${id}">${value}</dd>
    </div>`;
  const failing = health.state === 'broken' || health.state === 'unknown';
  return html`<section class="card" aria-labelledby="health-title" id="health">
    <h2 id="health-title">${t.title}</h2>
    ${noticeLine(view.notice, 'health-notice')}
    <dl class="facts">
      ${row('state', t.stateLabel, html`<span class="status health-${health.state}">${stateWords(language, health.state)}</span>`)}
      ${health.reason === null ? '' : row('reason', failing ? t.reasonLabel : t.lastFailure, reasonWords(language, health.reason, health.status))}
      ${health.status === null ? '' : row('status', t.statusLabel, String(health.status))}
      ${health.final_url === null ? '' : row('final-url', t.finalUrlLabel, html`<span class="destination">${health.final_url}</span>`)}
      ${health.checked_at === null ? '' : row('checked', t.checkedLabel, timeOf(language, health.checked_at))}
      ${health.since === null ? '' : row('since', t.sinceLabel, timeOf(language, health.since))}
    </dl>
    ${
      view.checks
        ? html`<form method="post" action="/account/links/${link.id}/check" class="stack">
            ${view.tokenField}
            <p class="hint" id="check-hint">${fill(t.checkHint, { max: CHECKS_PER_MINUTE })}</p>
            <button type="submit" class="button" aria-describedby="check-hint">${t.checkNow}</button>
          </form>`
        : ''
    }
  </section>`;
}

/** The line after a "Check now": the state it found, or how long to wait. */
export function checkNotice(
  language: Language,
  outcome: { readonly state: LinkView['health']['state'] } | { readonly retrySeconds: number },
): Notice {
  const t = healthTextOf(language);
  if ('state' in outcome)
    return { error: false, text: fill(t.checked, { state: stateWords(language, outcome.state) }) };
  return {
    error: true,
    text: fill(t.limited, { max: CHECKS_PER_MINUTE, seconds: outcome.retrySeconds }),
  };
}
