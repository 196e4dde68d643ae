import { ImportInput, findImport, parseInput, startImport, toImportJobView } from '@shortener/core';
import type { ImportUseDeps, Result, SignedIn } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { errorBody } from '../errors.js';
import { stateOf } from '../koa-helpers.js';
import { html, htmlOrError, seeOther as seeOtherDoc } from '../openapi/openapi-pages.js';
import { IMPORT_ID } from '../routes/route-parameters.js';
import { importJobPage, importPage } from '../pages/account/import-page.js';
import type { ImportPageView } from '../pages/account/import-page.js';
import { importTextOf } from '../pages/account/import-text.js';
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
  me: SignedIn,
  status: number,
  extra: Omit<ImportPageView, 'language' | 'jobs'> = {},
): Promise<void> {
  const jobs = await importsOf(deps).imports.listJobs(me.account.id, 20);
  const views = jobs.map((job) => toImportJobView(job, deps.core.config.baseUrl));
  sendAccountPage(ctx, status, importPage({ language: stateOf(ctx).language, jobs: views, ...extra }));
}

/** The form as the API's input: the secret goes where its source wants it, empty fields are left out. */
function inputOf(body: Readonly<Record<string, string | undefined>>): Result<ImportInput> {
  const given = (name: string) => (body[name] === undefined || body[name] === '' ? undefined : body[name]);
  const source = given('source');
  const secret = given('secret');
  return parseInput(ImportInput, {
    source,
    csv: source === 'csv' ? given('csv') : undefined,
    url: given('url'),
    ...(source === 'bitly' ? { token: secret } : { api_key: source === 'csv' ? undefined : secret }),
    on_conflict: given('on_conflict'),
    date_format: source === 'csv' ? given('date_format') : undefined,
    dry_run: body.dry_run === 'on',
  });
}

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
    handle: async (ctx, { deps, signedIn }) => {
      if (signedIn !== null) await sendImportPage(ctx, deps, signedIn, 200);
    },
  }),
  route({
    method: 'post',
    path: '/account/import',
    area: 'account',
    access: 'signed-in',
    enabled,
    body: ImportForm,
    form: true,
    maxBodyBytes: 3 * MAX_IMPORT_CSV_BYTES, // URL-encoded, a file's text grows
    doc: {
      id: 'startImportByForm',
      summary: 'Start an import',
      description: 'Starts the job and goes to its page; a refusal shows the form again with the reason.',
      example: { source: 'csv', csv: 'short url,long url\nhttps://old.example/a,https://example.com/' },
      responses: {
        303: seeOtherDoc('Started: to `/account/import/{id}`.'),
        400: htmlOrError('The page again with the error'),
      },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn: me, body }) => {
      if (me === null) return;
      const fields = body as Readonly<Record<string, string | undefined>>;
      const input = inputOf(fields);
      const caller = { accountId: me.account.id, editToken: null };
      const started = input.ok ? await startImport(importsOf(deps), input.value, caller) : input;
      if (started.ok) {
        importsOf(deps).kick();
        return seeOther(ctx, `/account/import/${started.value.id}`);
      }
      const language = stateOf(ctx).language;
      const { secret: _, ...form } = fields;
      const text = errorBody(started.error, language).error.message;
      await sendImportPage(ctx, deps, me, 400, {
        notice: { error: true, text },
        form: Object.fromEntries(
          Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined),
        ),
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
      description: 'Its state and counts, reloading itself every 2 s while it runs, and its report.',
      parameters: [IMPORT_ID],
      responses: {
        200: html('The page.'),
        303: seeOtherDoc('Not signed in: to `/login`.'),
        404: htmlOrError('No such import of this account'),
      },
    },
    handle: async (ctx, { deps, signedIn: me, params }) => {
      if (me === null) return;
      const language = stateOf(ctx).language;
      const caller = { accountId: me.account.id, editToken: null };
      const job = await findImport(importsOf(deps), params.id ?? '', caller);
      if (!job.ok) {
        const t = importTextOf(language);
        return sendImportPage(ctx, deps, me, 404, {
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
];
