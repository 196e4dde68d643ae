/**
 * Imports (decisions §17, issue 39), as SQLite's migration 015: jobs that resume where they stopped (a
 * lease says which node runs one), each row's outcome, and what each account imported from where.
 */
export const IMPORTS = `
ALTER TABLE links ADD COLUMN imported_clicks BIGINT NOT NULL DEFAULT 0;
CREATE TABLE import_jobs (
  id TEXT COLLATE "C" PRIMARY KEY,
  account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  source TEXT NOT NULL,
  state TEXT NOT NULL,
  options JSONB NOT NULL,
  counts JSONB NOT NULL,
  errors JSONB NOT NULL DEFAULT '[]',
  cursor TEXT,
  payload TEXT,
  runner TEXT,
  lease_until BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX import_jobs_account ON import_jobs (account_id, created_at);
CREATE INDEX import_jobs_open ON import_jobs (created_at) WHERE state IN ('queued', 'running');
CREATE TABLE import_report (
  job_id TEXT COLLATE "C" NOT NULL REFERENCES import_jobs (id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  original TEXT NOT NULL,
  outcome TEXT NOT NULL,
  short_url TEXT,
  reason TEXT,
  PRIMARY KEY (job_id, seq)
);
CREATE TABLE imported_links (
  account_id TEXT COLLATE "C" NOT NULL,
  source TEXT NOT NULL,
  original TEXT NOT NULL,
  link_id TEXT COLLATE "C" NOT NULL REFERENCES links (id) ON DELETE CASCADE,
  PRIMARY KEY (account_id, source, original)
);
CREATE INDEX imported_links_link ON imported_links (link_id);
`;
