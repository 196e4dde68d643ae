import type { ImportJobView, Language } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { accountAreaPage, html } from '../layout.js';
import type { Notice } from '../notice.js';
import { noticeLine } from '../notice.js';
import { checkField, headCard, inputField, listOrNone, textareaField } from '../page-parts.js';
import { fill } from '../text.js';
import type { ImportText } from './import-text.js';
import { importTextOf } from './import-text.js';

/** What `/account/import` shows. */
export interface ImportPageView {
  readonly language: Language;
  readonly jobs: readonly ImportJobView[];
  readonly notice?: Notice;
  /** The form as it was sent, after a refusal (never the key). */
  readonly form?: Readonly<Record<string, string>>;
}

const SOURCES = [
  ['csv', 'CSV'],
  ['shlink', 'Shlink'],
  ['kutt', 'Kutt'],
  ['bitly', 'Bitly'],
] as const;

const countsOf = (t: ImportText, { rows, imported, renamed, skipped, refused, visits }: ImportJobView) =>
  fill(t.counts, { rows, imported, renamed, skipped, refused, visits });

/** A job in one line: its state and counts, a link to its page. */
function jobItem(t: ImportText, job: ImportJobView): SafeHtml {
  return html`<li>
    <a href="/account/import/${job.id}">${job.source}</a> · <strong>${t[job.state]}</strong>
    <span class="hint">${countsOf(t, job)}</span>
  </li>`;
}

/** `/account/import`: start an import (a file read in the browser, or pasted; an API), and the last ones. */
export function importPage(view: ImportPageView): string {
  const t = importTextOf(view.language);
  const form = view.form ?? {};
  const source = form.source ?? 'csv';
  return accountAreaPage(
    view.language,
    t.title,
    html`${headCard('import', t.title, t.account, noticeLine(view.notice, 'import-notice'))}
      <section class="card" aria-labelledby="import-form-title">
        <h2 id="import-form-title">${t.start}</h2>
        <p>${t.intro}</p>
        <form method="post" action="/account/import" class="stack" id="import-form">
          <div class="field">
            <label for="import-source">${t.source}</label>
            <select id="import-source" name="source">
              ${SOURCES.map(
                ([value, label]) =>
                  html`<option value="${value}" ${value === source ? html` selected` : ''}>${label}</option>`,
              )}
            </select>
          </div>
          ${inputField('import-file', t.csvFile, html`type="file" accept=".csv,text/csv"`)}
          ${textareaField(
            'import-csv',
            t.csvText,
            html`name="csv" rows="6" spellcheck="false" aria-describedby="import-csv-hint"`,
            form.csv ?? '',
            html`<p class="hint" id="import-csv-hint">${t.csvHint}</p>`,
          )}
          ${inputField(
            'import-url',
            t.url,
            html`name="url" type="url" inputmode="url" autocomplete="off" value="${form.url ?? ''}"
            aria-describedby="import-url-hint"`,
            html`<p class="hint" id="import-url-hint">${t.urlHint}</p>`,
          )}
          ${inputField(
            'import-secret',
            t.secret,
            html`name="secret" type="password" autocomplete="off" aria-describedby="import-secret-hint"`,
            html`<p class="hint" id="import-secret-hint">${t.secretHint}</p>`,
          )}
          ${inputField(
            'import-date-format',
            t.dateFormat,
            html`name="date_format" autocomplete="off" spellcheck="false" value="${form.date_format ?? ''}"
            aria-describedby="import-date-format-hint"`,
            html`<p class="hint" id="import-date-format-hint">${t.dateFormatHint}</p>`,
          )}
          <div class="field">
            <label for="import-conflict">${t.onConflict}</label>
            <select id="import-conflict" name="on_conflict">
              <option value="skip">${t.skip}</option>
              <option value="rename" ${form.on_conflict === 'rename' ? html` selected` : ''}>
                ${t.rename}
              </option>
            </select>
          </div>
          ${checkField('import-dry-run', 'dry_run', t.dryRun, form.dry_run === 'on')}
          <button type="submit">${t.start}</button>
        </form>
      </section>
      <section class="card" aria-labelledby="import-jobs-title">
        <h2 id="import-jobs-title">${t.recent}</h2>
        ${listOrNone(
          view.jobs.map((job) => jobItem(t, job)),
          { id: 'import-jobs', class: 'plain' },
          html`<p>${t.none}</p>`,
        )}
      </section>`,
    ['import.js', 'flash.js'],
  );
}

/** `/account/import/{id}`: one job's state and counts, refreshed while it runs, and its report. */
export function importJobPage(language: Language, job: ImportJobView, notice?: Notice): string {
  const t = importTextOf(language);
  const live = job.state === 'queued' || job.state === 'running';
  return accountAreaPage(
    language,
    fill(t.job, { id: job.id.slice(0, 8) }),
    html`<section class="card" aria-labelledby="import-job-title">
      <h1 id="import-job-title">${fill(t.job, { id: job.id.slice(0, 8) })}</h1>
      <p><a href="/account/import">${t.back}</a></p>
      ${noticeLine(notice, 'import-notice')}
      <p id="import-state" role="status" aria-live="polite">
        ${t.state}: <strong>${t[job.state]}</strong> · ${countsOf(t, job)}
      </p>
      ${job.errors.length > 0 ? html`<p class="error" id="import-errors">${job.errors.join(' ')}</p>` : ''}
      ${live ? html`<p class="hint">${t.refreshing}</p>` : ''}
      <p><a class="button" href="/api/v1/imports/${job.id}/report" download>${t.report}</a></p>
    </section>`,
    ['flash.js'],
    live ? { refreshSeconds: 2 } : {},
  );
}
