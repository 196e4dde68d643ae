import type { LinkRecord } from '../links/link.js';
import type { CounterIncrement } from '../ports.js';
import type { Result } from '../result.js';
import type { ImportSourceName } from './source.js';

/** Where a job can be (decisions §17, §25): `cancelled` by its account, what was imported kept. */
export const IMPORT_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;

/** Where a job is. */
export type ImportState = (typeof IMPORT_STATES)[number];

/** The states of a job still to run or running: it counts against the account's open imports. */
export const isOpenImport = (state: ImportState): boolean => state === 'queued' || state === 'running';

/** What happened to one row of a source. */
export type ImportOutcome = 'imported' | 'renamed' | 'skipped' | 'refused';

/** How a job runs: its choices, stored with it (never a token or a password). */
export interface ImportOptions {
  /** A code taken or refused here: skip the row (default) or give the link a random slug. */
  readonly onConflict: 'skip' | 'rename';
  /** Old short hosts onto short domains here (`{ "bit.ly": "s.example" }`). */
  readonly domainMap: Readonly<Record<string, string>>;
  /** Report without writing. */
  readonly dryRun: boolean;
  /** The remote API's base URL (shlink, kutt, bitly), for the report; null for the others. */
  readonly url: string | null;
  /**
   * What the job reads, hashed (the file; the API's or database's address): a command-line run of the same
   * import goes on with an unfinished job of the same input (decisions §25). Absent on older jobs.
   */
  readonly input?: string;
  /** How the CSV writes its dates (`DD.MM.YYYY HH:mm`, decisions §25); absent or null: ISO 8601 only. */
  readonly dateFormat?: string | null;
}

/** A job's counts so far. */
export interface ImportCounts {
  readonly rows: number;
  readonly imported: number;
  readonly skipped: number;
  readonly renamed: number;
  readonly refused: number;
  /** Visits (and clicks of daily series and totals) brought in with the links. */
  readonly visits: number;
}

export const NO_COUNTS: ImportCounts = {
  rows: 0,
  imported: 0,
  skipped: 0,
  renamed: 0,
  refused: 0,
  visits: 0,
};

/**
 * How many rows a source has, as far as it says (decisions §17): a CSV's count once the file is read, an API's
 * from its pagination; `estimated` when the source only lets it be guessed (shown as "about N").
 */
export interface ImportTotal {
  readonly rows: number;
  readonly estimated: boolean;
}

/** An import job as stored. */
export interface ImportJob {
  readonly id: string;
  readonly accountId: string;
  readonly source: ImportSourceName;
  readonly state: ImportState;
  readonly options: ImportOptions;
  readonly counts: ImportCounts;
  /** What stopped the job, or rows' failures worth a line (at most {@link MAX_JOB_ERRORS}). */
  readonly errors: readonly string[];
  /** Where the source goes on (its own cursor), null before the first row. */
  readonly cursor: string | null;
  /** The file's text for the csv source (so a job resumes after a restart); null for the others. */
  readonly payload: string | null;
  /** The rows the source has, once it says; null before (or when it never does). */
  readonly total: ImportTotal | null;
  /** When a runner first took the job (its rate and time left are reckoned from it); null while queued. */
  readonly startedAt: number | null;
  /** The uploaded file's name, shown with the job; null for a pasted file or a remote source. */
  readonly fileName: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/**
 * The columns of a stored job in the order of {@link importJobValues}, the same in both SQL stores: their
 * inserts are built from them.
 */
export const IMPORT_JOB_COLUMNS = [
  'id',
  'account_id',
  'source',
  'state',
  'options',
  'counts',
  'errors',
  'cursor',
  'payload',
  'total',
  'total_estimated',
  'started_at',
  'file_name',
  'created_at',
  'updated_at',
] as const;

/** A job's values for {@link IMPORT_JOB_COLUMNS}: options, counts and errors as JSON text. */
export function importJobValues(job: ImportJob): (string | number | null)[] {
  return [
    job.id,
    job.accountId,
    job.source,
    job.state,
    JSON.stringify(job.options),
    JSON.stringify(job.counts),
    JSON.stringify(job.errors),
    job.cursor,
    job.payload,
    job.total?.rows ?? null,
    job.total === null ? null : Number(job.total.estimated),
    job.startedAt,
    job.fileName,
    job.createdAt,
    job.updatedAt,
  ];
}

/** The most error lines a job keeps. */
export const MAX_JOB_ERRORS = 20;

/** One line of a job's report (`GET /api/v1/imports/{id}/report`). */
export interface ImportReportLine {
  readonly originalShortUrl: string;
  readonly outcome: ImportOutcome;
  /** The link's short URL here, when there is one. */
  readonly shortUrl: string | null;
  /** Why a row was skipped, renamed or refused; for an imported row, what to look at (disabled, a date not read). */
  readonly reason: string | null;
}

/** The columns of a job's report as CSV and as the CLI's JSON (decisions §17). */
export const IMPORT_REPORT_COLUMNS = ['original_short_url', 'outcome', 'short_url', 'reason'] as const;

/** A report line as a row under {@link IMPORT_REPORT_COLUMNS}. */
export const importReportRow = (
  line: ImportReportLine,
): Record<(typeof IMPORT_REPORT_COLUMNS)[number], string | null> => ({
  original_short_url: line.originalShortUrl,
  outcome: line.outcome,
  short_url: line.shortUrl,
  reason: line.reason,
});

/** A report line with the place of its row in the job (0 for the first row): lines are read in this order. */
export interface PlacedReportLine extends ImportReportLine {
  readonly position: number;
}

/** A link to write with what the import knows of it. */
export interface ImportedLinkWrite {
  readonly link: LinkRecord;
  /** The row's key in its source, recorded so a run again finds it. */
  readonly original: string;
  /** The history's counters (days, countries, referrers, ...), added with the link. */
  readonly counters: readonly CounterIncrement[];
}

/** One chunk of a job's rows, written in one transaction with the job's progress. */
export interface ImportChunk {
  readonly jobId: string;
  /** The runner holding the job (its lease); a chunk of a runner that lost it is refused. */
  readonly runner: string;
  readonly writes: readonly ImportedLinkWrite[];
  /**
   * The report lines of the chunk's rows not written (skipped, refused); a written link's line is added
   * by the store with its result, by the `report` the runner gives with the write (same index).
   */
  readonly lines: readonly PlacedReportLine[];
  /** The report line of each write, in order, used when its insert succeeds. */
  readonly writeLines: readonly PlacedReportLine[];
  readonly counts: ImportCounts;
  /** The source's total as it says after the chunk's last row (null: it has not said). */
  readonly total: ImportTotal | null;
  readonly cursor: string | null;
  readonly at: number;
  /** The lease's new end. */
  readonly leaseUntil: number;
}

/** A job as read to be shown (its state and counts): without the file, which only its runner reads. */
export type ImportJobSummary = Omit<ImportJob, 'payload'>;

/** A job without its file. */
export function summaryOf(job: ImportJob): ImportJobSummary {
  const { payload: _file, ...summary } = job;
  return summary;
}

/**
 * Storage of import jobs, their reports and what each account imported from where. Every store keeps
 * them; on PostgreSQL a job is run by one node at a time (the lease).
 */
export interface ImportStore {
  /**
   * Stores a new job; with `openLimit`, only while its account has fewer jobs queued or running, counted
   * and stored in one step (requests at once, nodes at once): false when it has that many already.
   */
  createJob(job: ImportJob, openLimit?: number): Promise<boolean>;
  /** A job, without its file (a CSV job's may be megabytes: a page polls this while the job runs). */
  findJob(id: string): Promise<ImportJobSummary | null>;
  /** The account's jobs, newest first (at most `limit`), without their files. */
  listJobs(accountId: string, limit: number): Promise<ImportJobSummary[]>;
  /**
   * Takes the oldest job that is queued, or running with its lease run out (a crashed runner's), for
   * `runner` until `leaseUntil`, marking it running (and started at `now`, the first time); null when there is none. Two runners never hold one job,
   * and an account whose job is held (its lease not run out) has none of its others taken: one job per
   * account at a time (decisions §25). With `id`, only that job is taken (the command line runs its own);
   * without, never a queued job the command line made (its `input` set) from a source other than csv:
   * only that command line can run it (it holds the key or the password), and takes it by id.
   */
  claimJob(runner: string, now: number, leaseUntil: number, id?: string): Promise<ImportJob | null>;
  /**
   * Moves the lease of a job `runner` holds to `leaseUntil` (a runner waiting on a slow source keeps its
   * job); false when it no longer holds it (cancelled, or taken by another after its lease ran out).
   */
  renewLease(id: string, runner: string, leaseUntil: number): Promise<boolean>;
  /**
   * Cancels a queued or running job (state `cancelled`, its lease released, what was imported kept, its
   * file dropped): its runner's next chunk is refused. Returns the job as it is after; null for an
   * unknown id.
   */
  cancelJob(id: string, at: number): Promise<ImportJobSummary | null>;
  /** Of the sources' keys given, those the account imported already from `source`, with the link's id. */
  findImported(
    accountId: string,
    source: ImportSourceName,
    originals: readonly string[],
  ): Promise<Map<string, string>>;
  /**
   * Writes a chunk in one transaction: each link (with its import record and counters; a taken slug
   * fails alone as `slug_taken`, leaving the rest), the report lines, the job's counts, total and cursor,
   * its lease renewed. Refused whole (`not_found`) when the runner no longer holds the job (cancelled, or
   * taken over). A write the database cannot make (a full disk) throws an error whose message says why in
   * a person's words (`disk full`).
   */
  writeChunk(chunk: ImportChunk): Promise<Result<Result<LinkRecord>[]>>;
  /**
   * Ends the job (done or failed, with its last errors), releasing its lease and dropping its file: an
   * ended job is never run again, and its report keeps what a person needs of the rows.
   */
  finishJob(
    id: string,
    runner: string,
    state: 'done' | 'failed',
    errors: readonly string[],
    at: number,
  ): Promise<void>;
  /** The job's report lines, in the order the rows came (by position). */
  report(jobId: string): Promise<ImportReportLine[]>;
}
