import type { ImportJobView, Language } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { accountAreaPage, html } from '../layout.js';
import type { Notice } from '../notice.js';
import { noticeLine } from '../notice.js';
import { fill } from '../text.js';
import { countsOf, sourceLabel } from './import-page.js';
import type { ImportText } from './import-text.js';
import { importTextOf } from './import-text.js';

/**
 * The texts the job page's script fills as the job goes on (`import-job.js`): the same templates the page
 * is drawn with, so both read alike.
 */
const liveTexts = (t: ImportText) => ({
  state: t.state,
  states: { queued: t.queued, running: t.running, done: t.done, failed: t.failed, cancelled: t.cancelled },
  counts: t.counts,
  rowsOf: t.rowsOf,
  rowsOfAbout: t.rowsOfAbout,
  rowsRead: t.rowsRead,
  rate: t.rate,
  secondsLeft: t.secondsLeft,
  minutesLeft: t.minutesLeft,
});

/** The job's progress in one line: rows of the total (percent), the rate, the time left. */
export function progressLine(t: ImportText, job: ImportJobView, language: Language): string {
  const number = (n: number) => n.toLocaleString(language);
  const rows =
    job.total === null
      ? fill(t.rowsRead, { done: number(job.rows) })
      : fill(job.total_estimated ? t.rowsOfAbout : t.rowsOf, {
          done: number(job.rows),
          total: number(job.total),
          percent: job.percent ?? 0,
        });
  const left = job.seconds_left;
  return [
    rows,
    ...(job.rate_per_second === null ? [] : [fill(t.rate, { rate: number(job.rate_per_second) })]),
    ...(left === null
      ? []
      : [fill(left < 60 ? t.secondsLeft : t.minutesLeft, { m: Math.floor(left / 60), s: left % 60 })]),
  ].join(' · ');
}

/** The bar: done of the total; while the total is unknown, moving without a value (empty once ended). */
const bar = (t: ImportText, job: ImportJobView, live: boolean): SafeHtml => {
  const max = job.total === null || job.total === 0 ? 1 : job.total;
  const done = job.total === null ? 0 : Math.min(job.rows, max);
  const value = job.total === null && live ? '' : html` value="${String(done)}"`;
  return html`<label for="import-progress">${t.progress}</label>
    <progress id="import-progress" max="${String(max)}" ${value}>${String(job.percent ?? 0)} %</progress>`;
};

/**
 * `/account/import/{id}`: one job's bar (done of its total, the rate, the time left, "about" when the total is
 * a guess) followed by its script without reloading (a reload every 2 s without script), a Cancel button
 * while it runs, and its report.
 */
export function importJobPage(language: Language, job: ImportJobView, notice?: Notice): string {
  const t = importTextOf(language);
  const live = job.state === 'queued' || job.state === 'running';
  const title = fill(t.job, { id: job.id.slice(0, 8) });
  const from =
    job.file_name === null
      ? sourceLabel(job.source)
      : fill(t.fromFile, { source: 'CSV', file: job.file_name });
  return accountAreaPage(
    language,
    title,
    html`<section class="card stack" aria-labelledby="import-job-title">
      <h1 id="import-job-title">${title}</h1>
      <p><a href="/account/import">${t.back}</a></p>
      ${noticeLine(notice, 'import-notice')}
      <p class="hint" id="import-from">${from}</p>
      <div
        class="field"
        id="import-live"
        data-api="/api/v1/imports/${job.id}"
        data-texts="${JSON.stringify(liveTexts(t))}"
        data-live="${live ? 'yes' : 'no'}"
      >
        ${bar(t, job, live)}
        <p id="import-state" role="status" aria-live="polite">
          ${t.state}: <strong>${t[job.state]}</strong> ·
          <span id="import-line">${progressLine(t, job, language)}</span>
        </p>
        <p class="hint" id="import-counts">${countsOf(t, job)}</p>
      </div>
      ${job.errors.length > 0 ? html`<p class="error" id="import-errors">${job.errors.join(' ')}</p>` : ''}
      ${
        live
          ? html`<form method="post" action="/account/import/${job.id}/cancel" id="import-cancel">
                <button type="submit">${t.cancel}</button>
              </form>
              <noscript><p class="hint">${t.refreshing}</p></noscript>`
          : ''
      }
      <p><a class="button" href="/api/v1/imports/${job.id}/report" download>${t.report}</a></p>
    </section>`,
    ['import-job.js', 'flash.js'],
    live ? { refreshSeconds: 2 } : {},
  );
}
