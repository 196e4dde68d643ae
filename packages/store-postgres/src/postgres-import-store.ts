import { IMPORT_JOB_COLUMNS, domainError, err, importJobValues, ok } from '@shortener/core';
import type {
  ImportJob,
  ImportJobSummary,
  ImportReportLine,
  ImportStore,
  LinkRecord,
  Result,
} from '@shortener/core';
import type { Pool, PoolClient } from 'pg';
import { addCounters } from './counter-writes.js';
import { inTransaction, writeFailure } from './database.js';
import { LINK_INSERT, linkInsertValues, normalised } from './link-rows.js';
import { selectList } from './link-rows.js';

const SUMMARY_COLUMNS = [
  ['id', 'id'],
  ['account_id', 'accountId'],
  ['source', 'source'],
  ['state', 'state'],
  ['options', 'options'],
  ['counts', 'counts'],
  ['errors', 'errors'],
  ['cursor', 'cursor'],
  [
    `CASE WHEN total IS NULL THEN NULL
      ELSE jsonb_build_object('rows', total, 'estimated', COALESCE(total_estimated, false)) END`,
    'total',
  ],
  ['started_at', 'startedAt'],
  ['file_name', 'fileName'],
  ['created_at', 'createdAt'],
  ['updated_at', 'updatedAt'],
] as const;
// a job as shown leaves its file (a CSV job's may be megabytes) in the database
const SUMMARY = selectList([...SUMMARY_COLUMNS]);
const JOB = selectList([...SUMMARY_COLUMNS, ['payload', 'payload']]);

const INSERT_JOB = `INSERT INTO import_jobs (${IMPORT_JOB_COLUMNS.join(', ')})
  VALUES (${IMPORT_JOB_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;

// the oldest open job whose runner is gone, of an account with no other job held (decisions §25), not a
// command line's own job of a remote source or YOURLS waiting for its turn (it alone can run it); claims
// take turns (the advisory lock, held to the transaction's end), so two nodes never give one account two
const CLAIM = `UPDATE import_jobs SET state = 'running', runner = $1, lease_until = $3, updated_at = $2,
    started_at = COALESCE(started_at, $2)
  WHERE id = (SELECT id FROM import_jobs AS j WHERE state IN ('queued', 'running')
    AND (state = 'queued' OR lease_until <= $2) AND ($4::text IS NULL OR id = $4)
    AND NOT ($4::text IS NULL AND state = 'queued' AND source <> 'csv' AND options ? 'input')
    AND NOT EXISTS (SELECT 1 FROM import_jobs AS held WHERE held.account_id = j.account_id
      AND held.state = 'running' AND held.lease_until > $2 AND held.id <> j.id)
    ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
  RETURNING ${JOB}`;
/** The advisory lock claims take turns on (any number: only import claims take it). */
const CLAIM_LOCK = 17_025_060;

/**
 * The ImportStore on a pg pool (decisions §17): a job is run by one node at a time (its lease, taken by
 * `claimJob`), and a chunk is one transaction holding the job's row: its links (a taken slug skipped
 * alone by the insert), import records, counters, report lines and progress. New links reach the
 * caches of every node by the links' notifications.
 */
export function createPostgresImportStore(pool: Pool): ImportStore {
  return {
    createJob: async (job, openLimit) => {
      if (openLimit === undefined) {
        await pool.query(INSERT_JOB, importJobValues(job));
        return true;
      }
      return inTransaction(pool, async (client) => {
        // the account's starts take turns, so two at once never both see room for one more
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`imports:${job.accountId}`]);
        const { rows } = await client.query<{ open: number }>(
          `SELECT count(*)::int AS open FROM import_jobs WHERE account_id = $1 AND state IN ('queued', 'running')`,
          [job.accountId],
        );
        if ((rows[0]?.open ?? 0) >= openLimit) return false;
        await client.query(INSERT_JOB, importJobValues(job));
        return true;
      });
    },
    findJob: async (id) =>
      (await pool.query<ImportJobSummary>(`SELECT ${SUMMARY} FROM import_jobs WHERE id = $1`, [id]))
        .rows[0] ?? null,
    listJobs: async (accountId, limit) =>
      (
        await pool.query<ImportJobSummary>(
          `SELECT ${SUMMARY} FROM import_jobs WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
          [accountId, limit],
        )
      ).rows,
    claimJob: (runner, now, leaseUntil, id) =>
      inTransaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
        return (await client.query<ImportJob>(CLAIM, [runner, now, leaseUntil, id ?? null])).rows[0] ?? null;
      }),
    renewLease: async (id, runner, leaseUntil) =>
      (
        await pool.query(
          `UPDATE import_jobs SET lease_until = $1 WHERE id = $2 AND runner = $3 AND state = 'running'`,
          [leaseUntil, id, runner],
        )
      ).rowCount !== 0,
    cancelJob: async (id, at) =>
      (
        await pool.query<ImportJobSummary>(
          `UPDATE import_jobs SET state = CASE WHEN state IN ('queued', 'running') THEN 'cancelled' ELSE state END,
             runner = NULL, lease_until = 0, payload = NULL,
             updated_at = CASE WHEN state IN ('queued', 'running') THEN $1 ELSE updated_at END
           WHERE id = $2 RETURNING ${SUMMARY}`,
          [at, id],
        )
      ).rows[0] ?? null,
    findImported: async (accountId, source, originals) => {
      const { rows } = await pool.query<{ original: string; link_id: string }>(
        `SELECT original, link_id FROM imported_links
         WHERE account_id = $1 AND source = $2 AND original = ANY($3::text[])`,
        [accountId, source, originals],
      );
      return new Map(rows.map((row) => [row.original, row.link_id]));
    },
    writeChunk: (chunk) =>
      inTransaction(pool, (client) => writeChunk(client, chunk)).catch((error: unknown) => {
        throw writeFailure(error);
      }),
    finishJob: async (id, runner, state, errors, at) => {
      await pool.query(
        `UPDATE import_jobs SET state = $1, errors = $2, updated_at = $3, runner = NULL, lease_until = 0,
           payload = NULL
         WHERE id = $4 AND runner = $5`,
        [state, JSON.stringify(errors), at, id, runner],
      );
    },
    report: async (jobId) =>
      (
        await pool.query<ImportReportLine>(
          `SELECT original AS "originalShortUrl", outcome, short_url AS "shortUrl", reason
           FROM import_report WHERE job_id = $1 ORDER BY seq`,
          [jobId],
        )
      ).rows,
  };
}

async function writeChunk(
  client: PoolClient,
  chunk: Parameters<ImportStore['writeChunk']>[0],
): Promise<Result<Result<LinkRecord>[]>> {
  const { rows: held } = await client.query<{ account_id: string; source: string }>(
    `SELECT account_id, source FROM import_jobs WHERE id = $1 AND runner = $2 AND state = 'running' FOR UPDATE`,
    [chunk.jobId, chunk.runner],
  );
  const job = held[0];
  if (job === undefined) return err(domainError('not_found', 'The job is not held by this runner.'));
  const links = chunk.writes.map((w) => normalised(w.link));
  const { rows: inserted } =
    links.length === 0
      ? { rows: [] }
      : await client.query<{ id: string }>(LINK_INSERT, linkInsertValues(links));
  const ids = new Set(inserted.map((row) => row.id));
  const written = chunk.writes.filter((w) => ids.has(w.link.id));
  await client.query(
    `INSERT INTO imported_links (account_id, source, original, link_id)
     SELECT $1, $2, o, l FROM unnest($3::text[], $4::text[]) AS u(o, l)
     ON CONFLICT (account_id, source, original) DO UPDATE SET link_id = excluded.link_id`,
    [job.account_id, job.source, written.map((w) => w.original), written.map((w) => w.link.id)],
  );
  await addCounters(
    client,
    written.flatMap((w) => w.counters),
  );
  const lines = [...chunk.writeLines.filter((_, i) => ids.has(chunk.writes[i]!.link.id)), ...chunk.lines];
  await client.query(
    `INSERT INTO import_report (job_id, seq, original, outcome, short_url, reason)
     SELECT $1, p, o, oc, s, r FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[])
       AS u(p, o, oc, s, r)
     ON CONFLICT (job_id, seq) DO UPDATE SET original = excluded.original, outcome = excluded.outcome,
       short_url = excluded.short_url, reason = excluded.reason`,
    [
      chunk.jobId,
      lines.map((l) => l.position),
      lines.map((l) => l.originalShortUrl),
      lines.map((l) => l.outcome),
      lines.map((l) => l.shortUrl),
      lines.map((l) => l.reason),
    ],
  );
  await client.query(
    `UPDATE import_jobs SET counts = $1, cursor = $2, updated_at = $3, lease_until = $4, total = $6,
       total_estimated = $7 WHERE id = $5`,
    [
      JSON.stringify(chunk.counts),
      chunk.cursor,
      chunk.at,
      chunk.leaseUntil,
      chunk.jobId,
      chunk.total?.rows ?? null,
      chunk.total?.estimated ?? null,
    ],
  );
  return ok(chunk.writes.map((w) => (ids.has(w.link.id) ? ok(w.link) : err(domainError('slug_taken')))));
}
