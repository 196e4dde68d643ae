import { z } from 'zod';
import { accountFor } from '../accounts/permissions.js';
import type { Caller, CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import { urlPolicyOf } from '../links/create-link.js';
import { resolveLinkDomain } from '../links/references.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { timeOrderedUuid } from '../secrets.js';
import { validateTargetUrl } from '../urls/validate-url.js';
import type {
  ImportJob,
  ImportJobSummary,
  ImportOptions,
  ImportReportLine,
  ImportStore,
} from './import-job.js';
import type { ImportSourceName } from './source.js';
import { IMPORT_STATES, NO_COUNTS, isOpenImport } from './import-job.js';
import { DateFormatField } from './date-format.js';
import { importProgressOf } from './import-progress.js';

/** The sources an account may import from over the API and the page (YOURLS's database is the operator's). */
export const API_IMPORT_SOURCES = ['csv', 'shlink', 'kutt', 'bitly'] as const;

/** The largest CSV text an import takes (about 100,000 rows). */
export const MAX_IMPORT_CSV_BYTES = 20 * 1024 * 1024;

/** The longest file name a job keeps. */
export const MAX_FILE_NAME = 255;

/** Unfinished jobs an account may have at once. */
export const MAX_OPEN_IMPORTS = 3;

/** The Bitly API, unless another URL is given. */
export const BITLY_API_URL = 'https://api-ssl.bitly.com';

/** `POST /api/v1/imports` (decisions §17). */
export const ImportInput = z
  .strictObject({
    source: z.enum(API_IMPORT_SOURCES).describe('Where the links come from.'),
    csv: z
      .string()
      .max(MAX_IMPORT_CSV_BYTES)
      .optional()
      .describe('The file for the csv source: a header row, `,` or `;` separated.'),
    url: z
      .string()
      .max(2000)
      .optional()
      .describe('The remote API (shlink, kutt; bitly defaults to its own).'),
    api_key: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('Shlink or Kutt API key: used for the job, never stored.'),
    token: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('Bitly access token: used for the job, never stored.'),
    on_conflict: z
      .enum(['skip', 'rename'])
      .optional()
      .describe('A code taken or refused here (default skip).'),
    domain_map: z
      .record(z.string().min(1).max(255), z.string().min(1).max(255))
      .optional()
      .describe('Old short hosts onto short domains here.'),
    dry_run: z.boolean().optional().describe('Report what would happen, write nothing.'),
    date_format: DateFormatField.optional(),
    file_name: z
      .string()
      .min(1)
      .max(MAX_FILE_NAME)
      .optional()
      .describe('The uploaded file’s name, shown with the job (multipart: the file part’s own).'),
  })
  .meta({ id: 'ImportInput' });
export type ImportInput = z.infer<typeof ImportInput>;

/** An import job as the API shows it. */
export const ImportJobSchema = z
  .object({
    id: z.string(),
    source: z.string(),
    state: z.enum(IMPORT_STATES),
    dry_run: z.boolean(),
    rows: z.number().int(),
    imported: z.number().int(),
    skipped: z.number().int(),
    renamed: z.number().int(),
    refused: z.number().int(),
    visits: z.number().int(),
    errors: z.array(z.string()),
    total: z.number().int().nullable().describe('Rows the source has; null until it says.'),
    total_estimated: z.boolean().describe('The total is a guess of the source’s ("about N").'),
    percent: z.number().int().nullable().describe('Whole percent of `total` done; null without a total.'),
    rate_per_second: z.number().nullable().describe('Rows a second since the job started.'),
    seconds_left: z.number().int().nullable().describe('Time to the end at that rate, while it runs.'),
    started_at: z.string().nullable().describe('When a runner first took the job.'),
    file_name: z.string().nullable().describe('The uploaded file’s name.'),
    created_at: z.string(),
    updated_at: z.string(),
    report_url: z.string(),
  })
  .meta({ id: 'ImportJob' });
export type ImportJobView = z.infer<typeof ImportJobSchema>;

/** The job's secret for a remote source (a key or token): held in memory by the runner, never stored. */
export interface ImportSecrets {
  keep(jobId: string, secret: string): void;
}

/** What the import use cases run on. */
export interface ImportUseDeps extends CoreDeps {
  readonly imports: ImportStore;
  readonly importSecrets: ImportSecrets;
}

/** The job as the API shows it. */
export function toImportJobView(job: ImportJobSummary, baseUrl: string): ImportJobView {
  const progress = importProgressOf(job);
  return {
    id: job.id,
    source: job.source,
    state: job.state,
    dry_run: job.options.dryRun,
    ...job.counts,
    errors: [...job.errors],
    total: progress.total,
    total_estimated: progress.estimated,
    percent: progress.percent,
    rate_per_second: progress.ratePerSecond,
    seconds_left: progress.secondsLeft,
    started_at: job.startedAt === null ? null : new Date(job.startedAt).toISOString(),
    file_name: job.fileName,
    created_at: new Date(job.createdAt).toISOString(),
    updated_at: new Date(job.updatedAt).toISOString(),
    report_url: `${baseUrl}/api/v1/imports/${job.id}/report`,
  };
}

/** What a source needs beyond the job: the remote URL and the secret, checked. */
function remoteOf(deps: CoreDeps, input: ImportInput): Result<{ url: string | null; secret: string | null }> {
  if (input.source === 'csv') {
    if (input.csv === undefined || input.csv.trim() === '')
      return err(domainError('invalid_request', 'The csv source needs the file in `csv`.', 'csv'));
    return ok({ url: null, secret: null });
  }
  const secretField = input.source === 'bitly' ? 'token' : 'api_key';
  const secret = input.source === 'bitly' ? input.token : input.api_key;
  if (secret === undefined) {
    return err(
      domainError('invalid_request', `The ${input.source} source needs \`${secretField}\`.`, secretField),
    );
  }
  const raw = input.url ?? (input.source === 'bitly' ? BITLY_API_URL : undefined);
  if (raw === undefined) {
    return err(domainError('invalid_request', `The ${input.source} source needs the API's \`url\`.`, 'url'));
  }
  const url = validateTargetUrl(raw, urlPolicyOf(deps.config));
  if (!url.ok) return err({ ...url.error, field: 'url' });
  return ok({ url: url.value.replace(/\/+$/, ''), secret });
}

/**
 * Starts an import into the caller's account (decisions §17): the job is stored queued and a runner
 * takes it in the background. Refused: a caller without an account (`unauthorized`), a source without
 * what it needs (`invalid_request` naming the field), a `domain_map` target that is not a short domain
 * here (`domain_invalid`), more than {@link MAX_OPEN_IMPORTS} unfinished jobs (`too_many`).
 */
export async function startImport(
  deps: ImportUseDeps,
  input: ImportInput,
  caller: Caller,
): Promise<Result<ImportJob>> {
  const account = accountFor(caller, 'imports.run', 'An import goes into an account: send its API key.');
  if (!account.ok) return account;
  const remote = remoteOf(deps, input);
  if (!remote.ok) return remote;
  const job = await createImportJob(deps, account.value, input.source, {
    onConflict: input.on_conflict ?? 'skip',
    domainMap: input.domain_map ?? {},
    dryRun: input.dry_run ?? false,
    url: remote.value.url,
    dateFormat: input.date_format ?? null,
    payload: input.source === 'csv' ? (input.csv ?? null) : null,
    fileName: input.source === 'csv' ? (input.file_name ?? null) : null,
    openLimit: MAX_OPEN_IMPORTS,
  });
  if (job.ok && remote.value.secret !== null) deps.importSecrets.keep(job.value.id, remote.value.secret);
  return job;
}

/** A job's choices as given, the domain map naming any host of a short domain here, and its file. */
export interface NewImport extends ImportOptions {
  /** The file's text for the csv source. */
  readonly payload: string | null;
  /** The file's name, when it came as a file. */
  readonly fileName?: string | null;
  /** Refused (`too_many`) while the account has this many jobs queued or running: the API's limit. */
  readonly openLimit?: number;
}

/**
 * Stores a new job, queued, of `source` into the account (the API's {@link startImport}, and the
 * operator's command line for every source). A `domainMap` target that is not a short domain here is
 * `domain_invalid` (field `domain_map`).
 */
export async function createImportJob(
  deps: Pick<ImportUseDeps, 'imports' | 'clock' | 'random' | 'config' | 'hosts'>,
  accountId: string,
  source: ImportSourceName,
  wanted: NewImport,
): Promise<Result<ImportJob>> {
  const domainMap: Record<string, string> = {};
  for (const [from, to] of Object.entries(wanted.domainMap)) {
    // a short domain here, or an active own domain of the account (decisions §20)
    const domain = resolveLinkDomain(deps, to.toLowerCase(), accountId);
    if (!domain.ok) {
      const message =
        domain.error.code === 'forbidden' ? domain.error.message : `${to} is not a short domain here.`;
      return err({ ...domain.error, message, field: 'domain_map' });
    }
    domainMap[from.toLowerCase()] = domain.value.host;
  }
  const now = deps.clock.now();
  const { payload, fileName = null, openLimit, ...options } = wanted;
  const job: ImportJob = {
    id: timeOrderedUuid(deps.random, now),
    accountId,
    source,
    state: 'queued',
    options: { ...options, domainMap },
    counts: NO_COUNTS,
    errors: [],
    cursor: null,
    payload,
    total: null,
    startedAt: null,
    fileName,
    createdAt: now,
    updatedAt: now,
  };
  if (!(await deps.imports.createJob(job, openLimit))) {
    return err(domainError('too_many', `At most ${String(openLimit)} imports run at once for an account.`));
  }
  return ok(job);
}

/** The caller's job (an operator's: any); `not_found` for anyone else's, as for a missing one. */
export async function findImport(
  deps: ImportUseDeps,
  id: string,
  caller: Caller,
): Promise<Result<ImportJobSummary>> {
  const job = z.uuid().safeParse(id).success ? await deps.imports.findJob(id.toLowerCase()) : null;
  if (job === null || (!caller.operator && job.accountId !== caller.accountId)) {
    return err(domainError('not_found', 'No import with this id.'));
  }
  return ok(job);
}

/** The caller's job and its report lines. */
export async function importReport(
  deps: ImportUseDeps,
  id: string,
  caller: Caller,
): Promise<Result<{ job: ImportJobSummary; lines: ImportReportLine[] }>> {
  const job = await findImport(deps, id, caller);
  if (!job.ok) return job;
  return ok({ job: job.value, lines: await deps.imports.report(job.value.id) });
}

/**
 * Cancels the caller's job (decisions §25): a queued or running one becomes `cancelled`, what was imported
 * stays, and its runner stops at its next chunk. A job already ended is answered as it is.
 */
export async function cancelImport(
  deps: ImportUseDeps,
  id: string,
  caller: Caller,
): Promise<Result<ImportJobSummary>> {
  const job = await findImport(deps, id, caller);
  if (!job.ok || !isOpenImport(job.value.state)) return job;
  const cancelled = await deps.imports.cancelJob(job.value.id, deps.clock.now());
  return cancelled === null ? err(domainError('not_found', 'No import with this id.')) : ok(cancelled);
}
