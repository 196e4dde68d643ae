/**
 * Visits appended, counters compacted (issue 29), as SQLite's migration 010: a flush appends one
 * `visit_log` row per link (its counters as compact JSON, core's `encodeLogCounters`, each visitor hash
 * new to `visitor_hashes` one `unique`); one node at a time folds the log into `visit_counters` and
 * deletes what it folded; reads add the tail.
 */
export const VISIT_LOG = `
CREATE TABLE visit_log (
  seq BIGSERIAL PRIMARY KEY,
  link_id TEXT COLLATE "C" NOT NULL REFERENCES links (id) ON DELETE CASCADE,
  counters TEXT NOT NULL
);
CREATE INDEX visit_log_link ON visit_log (link_id);
`;
