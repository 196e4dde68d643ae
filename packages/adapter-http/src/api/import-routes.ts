import {
  IMPORT_REPORT_COLUMNS,
  ImportInput,
  MAX_IMPORT_CSV_BYTES,
  cancelImport,
  findImport,
  importReport,
  importReportRow,
  startImport,
  toImportJobView,
} from '@shortener/core';
import type { ImportUseDeps } from '@shortener/core';
import type { HttpDeps } from '../deps.js';
import type { MultipartFields } from '../request.js';
import { sendResult } from '../koa-helpers.js';
import { KEY_OR_SESSION, textContent } from '../openapi/openapi-paths.js';
import { IMPORT_ID } from '../routes/route-parameters.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { jsonResponse, sendCsv } from './route-kit.js';

/** JSON text as its value, else the text as it is (the schema then names the field). */
function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A multipart upload as the input (decisions §17: `curl -F source=csv -F csv=@links.csv`): the file part
 * `csv` is the file (its name kept as `file_name`), `dry_run` is `true` or `false`, `domain_map` JSON text.
 */
function importInputOfParts(fields: MultipartFields): unknown {
  const { dry_run: dryRun, domain_map: domainMap, ...rest } = fields;
  return {
    ...rest,
    ...(dryRun === undefined
      ? {}
      : { dry_run: dryRun === 'true' ? true : dryRun === 'false' ? false : dryRun }),
    ...(domainMap === undefined ? {} : { domain_map: jsonOrText(domainMap) }),
  };
}

/** Served where a runner takes jobs (the server's composition root gives `deps.imports`). */
const enabled = (deps: HttpDeps) => deps.imports !== undefined;
const importsOf = (deps: HttpDeps) => deps.imports as ImportUseDeps & { readonly kick: () => void };

/**
 * `/api/v1/imports` (decisions §17): an account starts an import of its links from another shortener
 * (by one of its keys or its session) and follows it; another account's job is `not_found`.
 */
export const IMPORT_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'post',
    path: '/api/v1/imports',
    access: 'account',
    does: 'imports.run',
    enabled,
    body: ImportInput,
    multipart: importInputOfParts,
    // the file's text, up to 20 MiB, with the rest of the JSON around it
    maxBodyBytes: MAX_IMPORT_CSV_BYTES + 1024 * 1024,
    doc: {
      id: 'startImport',
      summary: 'Import links from another shortener',
      description:
        'Starts a job that brings links into the account from a CSV file (`csv`), Shlink (`url`, ' +
        '`api_key`), Kutt (`url`, `api_key`) or Bitly (`token`): codes kept when free, every URL ' +
        'checked, visits counted; a run again adds nothing twice. Keys and tokens are used for the job ' +
        'and never stored. The file may come as `multipart/form-data` too: the file in the part `csv` ' +
        '(its name kept as `file_name`), `dry_run` as `true`, `domain_map` as JSON text. Answers 202 at ' +
        'once; follow the job at `GET /api/v1/imports/{id}` (its `total`, `percent`, `rate_per_second` ' +
        'and `seconds_left` as it runs).',
      tag: 'imports',
      security: KEY_OR_SESSION,
      example: { source: 'csv', csv: 'short url,long url\nhttps://old.example/abc,https://example.com/' },
      responses: { 202: jsonResponse('The job, queued.', 'ImportJob') },
      errors: [401, 403, 429],
    },
    handle: async (ctx, { deps, caller, body }) => {
      const started = await startImport(importsOf(deps), body, caller);
      if (started.ok) importsOf(deps).kick();
      sendResult(ctx, started, (job) => toImportJobView(job, deps.core.config.baseUrl), 202);
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/imports/{id}',
    access: 'account',
    does: 'imports.run',
    enabled,
    doc: {
      id: 'getImport',
      summary: 'An import’s progress',
      description: 'Its state (`queued`, `running`, `done`, `failed`, `cancelled`) and counts so far.',
      tag: 'imports',
      security: KEY_OR_SESSION,
      parameters: [IMPORT_ID],
      responses: { 200: jsonResponse('The job.', 'ImportJob') },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps, caller, params }) => {
      const job = await findImport(importsOf(deps), params.id ?? '', caller);
      sendResult(ctx, job, (found) => toImportJobView(found, deps.core.config.baseUrl));
    },
  }),
  route({
    method: 'delete',
    path: '/api/v1/imports/{id}',
    access: 'account',
    does: 'imports.run',
    enabled,
    doc: {
      id: 'cancelImport',
      summary: 'Cancel an import',
      description:
        'A queued or running job becomes `cancelled`: its runner stops at its next chunk, and the links ' +
        'imported so far stay (with their report lines). A job already ended is answered as it is.',
      tag: 'imports',
      security: KEY_OR_SESSION,
      parameters: [IMPORT_ID],
      responses: { 200: jsonResponse('The job, cancelled (or as it ended).', 'ImportJob') },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps, caller, params }) => {
      const job = await cancelImport(importsOf(deps), params.id ?? '', caller);
      sendResult(ctx, job, (found) => toImportJobView(found, deps.core.config.baseUrl));
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/imports/{id}/report',
    access: 'account',
    does: 'imports.run',
    enabled,
    doc: {
      id: 'getImportReport',
      summary: 'An import’s report (CSV)',
      description:
        'One line per row read so far: `original_short_url, outcome, short_url, reason`, the outcome ' +
        '`imported`, `renamed`, `skipped` or `refused`.',
      tag: 'imports',
      security: KEY_OR_SESSION,
      parameters: [IMPORT_ID],
      responses: {
        200: { description: 'The report.', content: textContent('text/csv') },
      },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps, caller, params }) => {
      const report = await importReport(importsOf(deps), params.id ?? '', caller);
      if (!report.ok) return sendResult(ctx, report, () => null);
      const rows = report.value.lines.map(importReportRow);
      sendCsv(ctx, `import-${report.value.job.id}.csv`, IMPORT_REPORT_COLUMNS, rows);
    },
  }),
];
