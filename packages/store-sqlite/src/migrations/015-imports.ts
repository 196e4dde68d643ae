/**
 * Imports (decisions §17, issue 39): jobs that resume where they stopped, each row's outcome, and what
 * each account imported from where (so a run again duplicates nothing; a deleted link's record goes
 * with it). `imported_clicks`: of a link's clicks, those a source gave as a bare total.
 */
export const IMPORTS = `
ALTER TABLE links ADD COLUMN imported_clicks INTEGER NOT NULL DEFAULT 0;
CREATE TABLE import_jobs (
  id TEXT PRIMARY KEY,
  account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  state TEXT NOT NULL,
  options TEXT NOT NULL,
  counts TEXT NOT NULL,
  errors TEXT NOT NULL DEFAULT '[]',
  cursor TEXT,
  payload TEXT,
  runner TEXT,
  lease_until INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX import_jobs_account ON import_jobs (account_id, created_at);
CREATE INDEX import_jobs_open ON import_jobs (created_at) WHERE state IN ('queued', 'running');
CREATE TABLE import_report (
  job_id TEXT NOT NULL REFERENCES import_jobs (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  original TEXT NOT NULL,
  outcome TEXT NOT NULL,
  short_url TEXT,
  reason TEXT,
  PRIMARY KEY (job_id, seq)
);
CREATE TABLE imported_links (
  account_id TEXT NOT NULL,
  source TEXT NOT NULL,
  original TEXT NOT NULL,
  link_id TEXT NOT NULL REFERENCES links (id) ON DELETE CASCADE,
  PRIMARY KEY (account_id, source, original)
);
CREATE INDEX imported_links_link ON imported_links (link_id);
`;
