/**
 * Visits appended, counters compacted (issue 29). A flush appends one `visit_log` row per link (its
 * counters as compact JSON, see core's `encodeLogCounters`), in rowid order: a sequential append at the
 * end of one small B-tree instead of updates scattered over `visit_counters`. The visitor hashes are
 * still written by the flush (`visitor_hashes`: a hash is new or not at once), each new one a `unique`
 * in the log row. The compactor folds the log into `visit_counters` and deletes what it folded; reads
 * add the tail. Deleting a link deletes its tail (cascade), as it deletes its counters.
 */
export const VISIT_LOG = `
CREATE TABLE visit_log (
  seq INTEGER PRIMARY KEY,
  link_id TEXT NOT NULL REFERENCES links (id) ON DELETE CASCADE,
  counters TEXT NOT NULL
);
CREATE INDEX visit_log_link ON visit_log (link_id);
`;
