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
  /** The form as it was sent, after a refusal (never the key, the token or the file). */
  readonly form?: Readonly<Record<string, string>>;
  /** Whether the role acted with runs imports (decisions §21: a viewer sees no form). */
  readonly runs?: boolean;
}

const SOURCES = [
  ['csv', 'CSV'],
  ['shlink', 'Shlink'],
  ['kutt', 'Kutt'],
  ['bitly', 'Bitly'],
] as const;

/** The source's name as the form shows it. */
export const sourceLabel = (source: string): string =>
  SOURCES.find(([value]) => value === source)?.[1] ?? source;

/** A job's counts in one line. */
export const countsOf = (
  t: ImportText,
  { rows, imported, renamed, skipped, refused, visits }: ImportJobView,
): string => fill(t.counts, { rows, imported, renamed, skipped, refused, visits });

/** When a job was made, as a `<time>` (UTC, to the minute). */
const madeAt = (job: ImportJobView): SafeHtml =>
  html`<time datetime="${job.created_at}">${job.created_at.slice(0, 16).replace('T', ' ')} UTC</time>`;

/** A past import in one line: when, from where (the file's name), its state and counts, a link to its page. */
function jobItem(t: ImportText, job: ImportJobView): SafeHtml {
  const from =
    job.file_name === null
      ? sourceLabel(job.source)
      : fill(t.fromFile, { source: 'CSV', file: job.file_name });
  return html`<li>
    ${madeAt(job)} · <a href="/account/import/${job.id}">${from}</a> · <strong>${t[job.state]}</strong>
    <span class="hint">${countsOf(t, job)}</span>
  </li>`;
}

/** The fields of one source (decisions §17), in a fieldset its script shows alone when that source is chosen. */
const sourceFields = (sources: string, legend: string, fields: SafeHtml): SafeHtml =>
  html`<fieldset class="stack source-fields" data-sources="${sources}">
    <legend>${legend}</legend>
    ${fields}
  </fieldset>`;

/** The CSV's fields: the file, sent as it is (multipart), or pasted; the dates' pattern. */
function csvFields(t: ImportText, form: Readonly<Record<string, string>>): SafeHtml {
  return sourceFields(
    'csv',
    t.csvSet,
    html`${inputField(
      'import-file',
      t.csvFile,
      html`name="csv" type="file" accept=".csv,text/csv" aria-describedby="import-csv-hint"`,
      html`<p class="hint" id="import-csv-hint">${t.csvHint}</p>`,
    )}
    ${textareaField('import-csv', t.csvText, html`name="csv_text" rows="4" spellcheck="false"`, form.csv_text ?? '')}
    ${inputField(
      'import-date-format',
      t.dateFormat,
      html`name="date_format" autocomplete="off" spellcheck="false" value="${form.date_format ?? ''}"
      aria-describedby="import-date-format-hint"`,
      html`<p class="hint" id="import-date-format-hint">${t.dateFormatHint}</p>`,
    )}`,
  );
}

/** A secret field (never filled again after a refusal). */
const secretField = (id: string, name: string, label: string, t: ImportText): SafeHtml =>
  inputField(
    id,
    label,
    html`name="${name}" type="password" autocomplete="off" aria-describedby="${id}-hint"`,
    html`<p class="hint" id="${id}-hint">${t.secretHint}</p>`,
  );

/** `/account/import`: start an import (a file sent as it is, or pasted; an API), and the last ones. */
export function importPage(view: ImportPageView): string {
  const t = importTextOf(view.language);
  const form = view.form ?? {};
  const source = form.source ?? 'csv';
  return accountAreaPage(
    view.language,
    t.title,
    html`${headCard('import', t.title, t.account, noticeLine(view.notice, 'import-notice'))}
      ${
        view.runs === false
          ? ''
          : html`<section class="card" aria-labelledby="import-form-title">
              <h2 id="import-form-title">${t.start}</h2>
              <p>${t.intro}</p>
              <form
                method="post"
                action="/account/import"
                enctype="multipart/form-data"
                class="stack"
                id="import-form"
              >
                <div class="field">
                  <label for="import-source">${t.source}</label>
                  <select id="import-source" name="source">
                    ${SOURCES.map(
                      ([value, label]) =>
                        html`<option value="${value}" ${value === source ? html` selected` : ''}>
                          ${label}
                        </option>`,
                    )}
                  </select>
                </div>
                ${csvFields(t, form)}
                ${sourceFields(
                  'shlink kutt',
                  t.apiSet,
                  html`${inputField(
                    'import-url',
                    t.url,
                    html`name="url" type="url" inputmode="url" autocomplete="off" value="${form.url ?? ''}"
                    aria-describedby="import-url-hint"`,
                    html`<p class="hint" id="import-url-hint">${t.urlHint}</p>`,
                  )}
                  ${secretField('import-api-key', 'api_key', t.apiKey, t)}`,
                )}
                ${sourceFields('bitly', t.bitlySet, secretField('import-token', 'token', t.token, t))}
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
                <p
                  id="import-upload"
                  role="status"
                  aria-live="polite"
                  hidden
                  data-texts="${JSON.stringify({ uploading: t.uploading, uploaded: t.uploaded, failed: t.uploadFailed })}"
                >
                  <progress id="import-upload-bar" max="100" aria-label="${t.progress}"></progress>
                  <span id="import-upload-text"></span>
                </p>
                <button type="submit">${t.start}</button>
              </form>
            </section>`
      }
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
