/**
 * Issue 58: an import's file kept in parts of some 16,000 characters (`sqlite-import-store.ts`), not in
 * one `import_jobs.payload` value. A 7 MB file stored and read back whole made better-sqlite3 and SQLite
 * take three or four blocks of its size from the C heap (its UTF-8, SQLite's copy, the record built from
 * it, the value read back): freed, they stayed in the server's resident memory for its life, some 35 MB
 * after one import of 100,000 rows. A part's blocks are small enough to be used again. A job stored
 * before keeps its file in `payload`, read as before.
 */
export const IMPORT_FILE_PARTS = `
CREATE TABLE import_file_parts (
  job_id TEXT NOT NULL REFERENCES import_jobs (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  part TEXT NOT NULL,
  PRIMARY KEY (job_id, seq)
);
`;

/** The `import_jobs` columns as copied elsewhere (`shortener migrate`): a job's file joined from its parts. */
export const IMPORT_FILE_JOINED = {
  payload: `COALESCE(payload, (SELECT group_concat(part, '' ORDER BY seq) FROM import_file_parts
    WHERE import_file_parts.job_id = import_jobs.id))`,
} as const;

/**
 * Migration 38: the files of the jobs that ended (done, failed or cancelled) dropped, as the store now drops
 * an ended job's file: no job runs again once ended, and its report keeps each row's outcome.
 */
export const ENDED_IMPORT_FILES = `
DELETE FROM import_file_parts WHERE job_id IN
  (SELECT id FROM import_jobs WHERE state IN ('done', 'failed', 'cancelled'));
UPDATE import_jobs SET payload = NULL WHERE state IN ('done', 'failed', 'cancelled') AND payload IS NOT NULL;
`;
