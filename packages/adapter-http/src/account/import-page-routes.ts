import {
  ImportInput,
  cancelImport,
  findImport,
  parseInput,
  startImport,
  toImportJobView,
} from '@shortener/core';
import type { Caller, ImportUseDeps, Result } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { errorBody } from '../errors.js';
import { stateOf } from '../koa-helpers.js';
import { html, htmlOrError, seeOther as seeOtherDoc } from '../openapi/openapi-pages.js';
import { IMPORT_ID } from '../routes/route-parameters.js';
import { importJobPage } from '../pages/account/import-job-page.js';
import { importPage } from '../pages/account/import-page.js';
import type { ImportPageView } from '../pages/account/import-page.js';
import { importTextOf } from '../pages/account/import-text.js';
import { ROLE_REFUSED, pageMay } from '../server/acting.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { seeOther, sendAccountPage } from '../server/account-area.js';
import { MAX_IMPORT_CSV_BYTES } from '@shortener/core';
import { ImportForm } from './account-forms.js';

const enabled = (deps: HttpDeps) => deps.imports !== undefined;
const importsOf = (deps: HttpDeps) => deps.imports as ImportUseDeps & { readonly kick: () => void };

/** Sends `/account/import` with the account's last imports. */
async function sendImportPage(
  ctx: Context,
  deps: HttpDeps,
  caller: Caller,
  status: number,
  extra: Omit<ImportPageView, 'language' | 'jobs'> = {},
): Promise<void> {
  const jobs = await importsOf(deps).imports.listJobs(caller.accountId ?? '', 20);
  const views = jobs.map((job) => toImportJobView(job, deps.core.config.baseUrl));
  sendAccountPage(
    ctx,
    status,
    importPage({
      language: stateOf(ctx).language,
      jobs: views,
      runs: pageMay(ctx, 'imports.run'),
      ...extra,
    }),
  );
}

/**
 * The form as the API's input: only the chosen source's fields (without script every source's are sent),
 * the file sent (multipart) before a pasted text, empty fields left out.
 */
function inputOf(body: Readonly<Record<string, string | undefined>>): Result<ImportInput> {
  const given = (name: string) => (body[name] === undefined || body[name] === '' ? undefined : body[name]);
  const source = given('source');
  const file = source === 'csv' ? given('csv') : undefined;
  const remote = source === 'shlink' || source === 'kutt';
  return parseInput(ImportInput, {
    source,
    csv: file ?? (source === 'csv' ? given('csv_text') : undefined),
    file_name: file === undefined ? undefined : given('file_name'),
    url: remote ? given('url') : undefined,
    api_key: remote ? given('api_key') : undefined,
    token: source === 'bitly' ? given('token') : undefined,
    on_conflict: given('on_conflict'),
    date_format: source === 'csv' ? given('date_format') : undefined,
    dry_run: body.dry_run === 'on',
  });
}

/** What a refused form shows again: never the key, the token or a file sent (a pasted text, yes). */
const shownAgain = (fields: Readonly<Record<string, string | undefined>>): Record<string, string> => {
  const { api_key: _key, token: _token, csv: _file, ...rest } = fields;
  return Object.fromEntries(Object.entries(rest).filter((e): e is [string, string] => e[1] !== undefined));
};

/** `/account/import` (decisions §17): start an import in the browser and follow it, without script too. */
export const IMPORT_PAGE_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/account/import',
    area: 'account',
    access: 'signed-in',
    enabled,
    doc: {
      id: 'importPage',
      summary: 'Import links into the account',
      description:
        'The import form (a CSV file, or Shlink, Kutt or Bitly by their API) and the last imports.',
      responses: { 200: html('The page.'), 303: seeOtherDoc('Not signed in: to `/login`.') },
    },
    handle: async (ctx, { deps, signedIn, caller }) => {
      if (signedIn !== null) await sendImportPage(ctx, deps, caller, 200);
    },
  }),
  route({
    method: 'post',
    path: '/account/import',
    area: 'account',
    access: 'signed-in',
    does: 'imports.run',
    enabled,
    body: ImportForm,
    form: true,
    multipart: (fields) => fields,
    maxBodyBytes: 3 * MAX_IMPORT_CSV_BYTES, // URL-encoded, a file's text grows
    doc: {
      id: 'startImportByForm',
      summary: 'Start an import',
      description:
        'Starts the job and goes to its page; a refusal shows the form again with the reason. The page ' +
        'sends the file as `multipart/form-data` (the part `csv`, its name kept); a pasted CSV comes as ' +
        '`csv_text`. Only the chosen source’s fields are read.',
      example: { source: 'csv', csv_text: 'short url,long url\nhttps://old.example/a,https://example.com/' },
      responses: {
        ...ROLE_REFUSED,
        303: seeOtherDoc('Started: to `/account/import/{id}`.'),
        400: htmlOrError('The page again with the error'),
      },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn: me, caller, body }) => {
      if (me === null) return;
      const fields = body as Readonly<Record<string, string | undefined>>;
      const input = inputOf(fields);
      const started = input.ok ? await startImport(importsOf(deps), input.value, caller) : input;
      if (started.ok) {
        importsOf(deps).kick();
        return seeOther(ctx, `/account/import/${started.value.id}`);
      }
      const language = stateOf(ctx).language;
      const text = errorBody(started.error, language).error.message;
      await sendImportPage(ctx, deps, caller, 400, {
        notice: { error: true, text },
        form: shownAgain(fields),
      });
    },
  }),
  route({
    method: 'get',
    path: '/account/import/{id}',
    area: 'account',
    access: 'signed-in',
    enabled,
    doc: {
      id: 'importJobPage',
      summary: 'An import’s progress',
      description:
        'Its progress bar (rows of the total, the rate, the time left), followed by its script while it ' +
        'runs (reloading itself every 2 s without script), a Cancel button, and its report.',
      parameters: [IMPORT_ID],
      responses: {
        200: html('The page.'),
        303: seeOtherDoc('Not signed in: to `/login`.'),
        404: htmlOrError('No such import of this account'),
      },
    },
    handle: async (ctx, { deps, signedIn: me, caller, params }) => {
      if (me === null) return;
      const language = stateOf(ctx).language;
      const job = await findImport(importsOf(deps), params.id ?? '', caller);
      if (!job.ok) {
        const t = importTextOf(language);
        return sendImportPage(ctx, deps, caller, 404, {
          notice: { error: true, text: `${t.job.replace(' {id}', '')}: ${job.error.message}` },
        });
      }
      sendAccountPage(
        ctx,
        200,
        importJobPage(language, toImportJobView(job.value, deps.core.config.baseUrl)),
      );
    },
  }),
  route({
    method: 'post',
    path: '/account/import/{id}/cancel',
    area: 'account',
    access: 'signed-in',
    does: 'imports.run',
    enabled,
    doc: {
      id: 'cancelImportByForm',
      summary: 'Cancel an import',
      description:
        'The job page’s Cancel button without script (`DELETE /api/v1/imports/{id}` with it): a queued or ' +
        'running job stops at its next chunk, what it imported stays; back to the job’s page.',
      parameters: [IMPORT_ID],
      responses: {
        ...ROLE_REFUSED,
        303: seeOtherDoc('To `/account/import/{id}`.'),
        404: htmlOrError('No such import of this account'),
      },
    },
    handle: async (ctx, { deps, signedIn: me, caller, params }) => {
      if (me === null) return;
      const job = await cancelImport(importsOf(deps), params.id ?? '', caller);
      if (job.ok) return seeOther(ctx, `/account/import/${job.value.id}`);
      const text = errorBody(job.error, stateOf(ctx).language).error.message;
      await sendImportPage(ctx, deps, caller, 404, { notice: { error: true, text } });
    },
  }),
];
