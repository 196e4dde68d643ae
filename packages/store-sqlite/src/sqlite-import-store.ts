import { IMPORT_JOB_COLUMNS, domainError, err, importJobValues, ok, summaryOf } from '@shortener/core';
import type {
  ImportJob,
  ImportReportLine,
  ImportStore,
  LinkChange,
  LinkRecord,
  PlacedReportLine,
  Result,
} from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { createCounterWriter } from './counter-writes.js';
import { isConstraintError, writeFailure } from './database.js';
import { LINK_COLUMNS, toLinkRow } from './link-rows.js';

/** A row of `import_jobs`. */
interface JobRow {
  readonly id: string;
  readonly account_id: string;
  readonly source: ImportJob['source'];
  readonly state: ImportJob['state'];
  readonly options: string;
  readonly counts: string;
  readonly errors: string;
  readonly cursor: string | null;
  readonly payload: string | null;
  readonly total: number | null;
  readonly total_estimated: number | null;
  readonly started_at: number | null;
  readonly file_name: string | null;
  readonly created_at: number;
  readonly updated_at: number;
}

const toJob = (row: JobRow): ImportJob => ({
  id: row.id,
  accountId: row.account_id,
  source: row.source,
  state: row.state,
  options: JSON.parse(row.options) as ImportJob['options'],
  counts: JSON.parse(row.counts) as ImportJob['counts'],
  errors: JSON.parse(row.errors) as string[],
  cursor: row.cursor,
  payload: row.payload,
  total: row.total === null ? null : { rows: row.total, estimated: row.total_estimated === 1 },
  startedAt: row.started_at,
  fileName: row.file_name,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** UTF-16 code units of a job's file a row of `import_file_parts` holds (migration 037): at most 48 KB of UTF-8. */
const FILE_PART_CHARS = 16 * 1024;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * A job's file cut in parts of {@link FILE_PART_CHARS} (one part for an empty file), never between the two
 * halves of a character outside the Basic Multilingual Plane: each part is stored as UTF-8 on its own.
 */
export function fileParts(text: string): string[] {
  const parts: string[] = [];
  let at = 0;
  do {
    let end = Math.min(at + FILE_PART_CHARS, text.length);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
    parts.push(text.slice(at, end));
    at = end;
  } while (at < text.length);
  return parts;
}

const JOB = IMPORT_JOB_COLUMNS.join(', ');
// a job as shown: its file left in the database
const SUMMARY = IMPORT_JOB_COLUMNS.map((c) => (c === 'payload' ? 'NULL AS payload' : c)).join(', ');
const INSERT_LINK = `INSERT INTO links (${LINK_COLUMNS.join(', ')}) VALUES (${LINK_COLUMNS.map((c) => `@${c}`).join(', ')})`;

/**
 * The ImportStore on a better-sqlite3 connection (decisions §17). A chunk is one IMMEDIATE transaction:
 * its links, their import records and counters, the report lines and the job's progress; a link whose
 * slug is taken fails alone. `announce` tells the link caches of the new links, as the link store does.
 */
export function createSqliteImportStore(db: Database, announce: (change: LinkChange) => void): ImportStore {
  const s = statementsOf(db);
  const counters = createCounterWriter(db);
  const claim = db.transaction((runner: string, now: number, leaseUntil: number, id?: string) => {
    const row = s.open.get(now, now, id ?? null, id ?? null, id ?? null);
    if (row === undefined) return null;
    s.take.run({ runner, leaseUntil, now, id: row.id });
    // a job stored before migration 037 has its file in `payload`
    const parts = row.payload === null ? s.fileParts.all(row.id) : [];
    const payload = parts.length > 0 ? parts.join('') : row.payload;
    return toJob({ ...row, payload, state: 'running', started_at: row.started_at ?? now, updated_at: now });
  });
  const create = db.transaction((job: ImportJob, openLimit?: number) => {
    if (openLimit !== undefined && s.openOfAccount.get(job.accountId)! >= openLimit) return false;
    s.insert.run(...importJobValues({ ...job, payload: null }));
    if (job.payload !== null)
      for (const [seq, part] of fileParts(job.payload).entries()) s.addFilePart.run(job.id, seq, part);
    return true;
  });
  // an ended job is never run again: its file goes, in parts or in its row (jobs before migration 037)
  const dropFile = (id: string): void => {
    s.dropFileParts.run(id);
    s.dropPayload.run(id);
  };
  const cancel = db.transaction((id: string, at: number) => {
    if (s.cancel.run(at, id).changes > 0) dropFile(id);
    return s.byId.get(id);
  });
  const finish = db.transaction((id: string, runner: string, state: string, errors: string, at: number) => {
    if (s.finish.run(state, errors, at, id, runner).changes > 0) dropFile(id);
  });
  const write = db.transaction((chunk: Parameters<ImportStore['writeChunk']>[0]) => {
    const job = s.held.get(chunk.jobId, chunk.runner);
    if (job === undefined) return err(domainError('not_found', 'The job is not held by this runner.'));
    const results: Result<LinkRecord>[] = [];
    const addLine = (line: PlacedReportLine) =>
      s.addLine.run(
        chunk.jobId,
        line.position,
        line.originalShortUrl,
        line.outcome,
        line.shortUrl,
        line.reason,
      );
    for (const [i, { link, original, counters: increments }] of chunk.writes.entries()) {
      try {
        s.insertLink.run(toLinkRow(link));
      } catch (error) {
        if (!isConstraintError(error, 'UNIQUE')) throw error;
        results.push(err(domainError('slug_taken')));
        continue;
      }
      s.record.run(job.account_id, job.source, original, link.id);
      counters.addAll(increments);
      addLine(chunk.writeLines[i]!);
      results.push(ok(link));
    }
    for (const line of chunk.lines) addLine(line);
    const { total } = chunk;
    s.progress.run(
      JSON.stringify(chunk.counts),
      total?.rows ?? null,
      total === null ? null : Number(total.estimated),
      chunk.cursor,
      chunk.at,
      chunk.leaseUntil,
      chunk.jobId,
    );
    return ok(results);
  });
  return {
    createJob: async (job, openLimit) => create.immediate(job, openLimit),
    findJob: async (id) => {
      const row = s.byId.get(id);
      return row === undefined ? null : summaryOf(toJob(row));
    },
    listJobs: async (accountId, limit) =>
      s.byAccount.all(accountId, limit).map((row) => summaryOf(toJob(row))),
    claimJob: async (runner, now, leaseUntil, id) => claim.immediate(runner, now, leaseUntil, id),
    findImported: async (accountId, source, originals) => {
      const found = new Map<string, string>();
      for (const original of originals) {
        const id = s.imported.get(accountId, source, original);
        if (id !== undefined) found.set(original, id);
      }
      return found;
    },
    renewLease: async (id, runner, leaseUntil) => s.renew.run(leaseUntil, id, runner).changes > 0,
    cancelJob: async (id, at) => {
      const row = cancel.immediate(id, at);
      return row === undefined ? null : summaryOf(toJob(row));
    },
    writeChunk: async (chunk) => {
      let written: ReturnType<typeof write>;
      try {
        written = write.immediate(chunk);
      } catch (error) {
        throw writeFailure(error);
      }
      if (written.ok) for (const r of written.value) if (r.ok) announce(r.value);
      return written;
    },
    finishJob: async (id, runner, state, errors, at) => {
      finish.immediate(id, runner, state, JSON.stringify(errors), at);
    },
    report: async (jobId) =>
      s.report.all(jobId).map((row) => ({
        originalShortUrl: row.original,
        outcome: row.outcome,
        shortUrl: row.short_url,
        reason: row.reason,
      })),
  };
}

function statementsOf(db: Database) {
  return {
    insert: db.prepare(
      `INSERT INTO import_jobs (${JOB}) VALUES (${IMPORT_JOB_COLUMNS.map(() => '?').join(', ')})`,
    ),
    byId: db.prepare<[string], JobRow>(`SELECT ${SUMMARY} FROM import_jobs WHERE id = ?`),
    byAccount: db.prepare<[string, number], JobRow>(
      `SELECT ${SUMMARY} FROM import_jobs WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
    ),
    // one job per account at a time: none of an account whose other job is held (decisions §25)
    // a command line's own job of a remote source or YOURLS, waiting for its turn, is its own to take
    open: db.prepare<[number, number, string | null, string | null, string | null], JobRow>(
      `SELECT ${JOB} FROM import_jobs AS j WHERE state IN ('queued', 'running')
         AND (state = 'queued' OR lease_until <= ?)
         AND NOT EXISTS (SELECT 1 FROM import_jobs AS held WHERE held.account_id = j.account_id
           AND held.state = 'running' AND held.lease_until > ? AND held.id <> j.id)
         AND (? IS NULL OR id = ?)
         AND NOT (? IS NULL AND state = 'queued' AND source <> 'csv' AND json_extract(options, '$.input') IS NOT NULL)
         ORDER BY created_at LIMIT 1`,
    ),
    renew: db.prepare<[number, string, string]>(
      `UPDATE import_jobs SET lease_until = ? WHERE id = ? AND runner = ? AND state = 'running'`,
    ),
    cancel: db.prepare<[number, string]>(
      `UPDATE import_jobs SET state = 'cancelled', runner = NULL, lease_until = 0, updated_at = ?
       WHERE id = ? AND state IN ('queued', 'running')`,
    ),
    take: db.prepare<[{ runner: string; leaseUntil: number; now: number; id: string }]>(
      `UPDATE import_jobs SET state = 'running', runner = @runner, lease_until = @leaseUntil,
         updated_at = @now, started_at = COALESCE(started_at, @now) WHERE id = @id`,
    ),
    openOfAccount: db
      .prepare<[string], number>(
        "SELECT count(*) FROM import_jobs WHERE account_id = ? AND state IN ('queued', 'running')",
      )
      .pluck(),
    addFilePart: db.prepare<[string, number, string]>(
      'INSERT INTO import_file_parts (job_id, seq, part) VALUES (?, ?, ?)',
    ),
    dropFileParts: db.prepare<[string]>('DELETE FROM import_file_parts WHERE job_id = ?'),
    dropPayload: db.prepare<[string]>(
      'UPDATE import_jobs SET payload = NULL WHERE id = ? AND payload IS NOT NULL',
    ),
    fileParts: db
      .prepare<[string], string>('SELECT part FROM import_file_parts WHERE job_id = ? ORDER BY seq')
      .pluck(),
    held: db.prepare<[string, string], Pick<JobRow, 'account_id' | 'source'>>(
      `SELECT account_id, source FROM import_jobs WHERE id = ? AND runner = ? AND state = 'running'`,
    ),
    addLine: db.prepare<[string, number, string, string, string | null, string | null]>(
      'INSERT OR REPLACE INTO import_report (job_id, seq, original, outcome, short_url, reason) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    insertLink: db.prepare(INSERT_LINK),
    record: db.prepare<[string, string, string, string]>(
      'INSERT OR REPLACE INTO imported_links (account_id, source, original, link_id) VALUES (?, ?, ?, ?)',
    ),
    imported: db
      .prepare<[string, string, string], string>(
        'SELECT link_id FROM imported_links WHERE account_id = ? AND source = ? AND original = ?',
      )
      .pluck(),
    progress: db.prepare<[string, number | null, number | null, string | null, number, number, string]>(
      `UPDATE import_jobs SET counts = ?, total = ?, total_estimated = ?, cursor = ?, updated_at = ?,
         lease_until = ? WHERE id = ?`,
    ),
    finish: db.prepare<[string, string, number, string, string]>(
      `UPDATE import_jobs SET state = ?, errors = ?, updated_at = ?, runner = NULL, lease_until = 0
       WHERE id = ? AND runner = ?`,
    ),
    report: db.prepare<
      [string],
      {
        original: string;
        outcome: ImportReportLine['outcome'];
        short_url: string | null;
        reason: string | null;
      }
    >('SELECT original, outcome, short_url, reason FROM import_report WHERE job_id = ? ORDER BY seq'),
  };
}
