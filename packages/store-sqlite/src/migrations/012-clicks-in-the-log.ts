import { gated, LINK_UPDATED } from './011-event-consumers.js';

/** As migration 012 read a link's `clicks` (migration 013 reads the log by epoch). */
const clicksWithTail = (row: string): string =>
  `${row}.clicks + COALESCE((SELECT SUM(v.clicks) FROM visit_log v WHERE v.link_id = ${row}.id), 0)`;

/** A link's `last_click_at` as read: the latest of the folded one and the unfolded tail's. */
const lastClickWithTail = (row: string): string =>
  `COALESCE((SELECT MAX(v.last_click_at) FROM visit_log v WHERE v.link_id = ${row}.id
    AND v.last_click_at > COALESCE(${row}.last_click_at, -1)), ${row}.last_click_at)`;

const withTail = (row: 'NEW' | 'OLD') => ({
  clicks: clicksWithTail(row),
  lastClickAt: lastClickWithTail(row),
});

/**
 * Clicks in the visit log, and visit writes without a look-up of their link (issue 29).
 *
 * A flush no longer updates the `links` row of each link visited (a page written at random in the
 * largest B-tree, for every cold link): its log entry carries the link's clicks and latest click, and
 * the compactor adds them to `links` as it folds the entry, in the same transaction. Every read of a
 * link adds the unfolded tail (link-rows.ts), so `clicks` is read at once, as the statistics are.
 * Capped links keep their click counted on `links` at request time. The events' link snapshots add the
 * tail too; `link.deleted` is written before the delete, while the tail is still there.
 *
 * The visit log and the visitor set lose their foreign key to `links`: with it, every row a flush wrote
 * made SQLite look the link up in the `links` id index (a page read at random per cold link), and so
 * did the flush itself, to drop the visits of deleted links before the key failed the whole flush. A
 * link's log rows and visitor hashes now go with it by a trigger. A visit flushed after its link was
 * deleted leaves rows nothing reads: the compactor deletes such log rows unfolded (`visit_counters`
 * keeps its foreign key), and the hashes go with their day's, two days later.
 */
export const CLICKS_IN_THE_LOG = [
  `CREATE TABLE visit_log_new (
  seq INTEGER PRIMARY KEY,
  link_id TEXT NOT NULL,
  counters TEXT NOT NULL,
  clicks INTEGER NOT NULL DEFAULT 0,
  last_click_at INTEGER
);
INSERT INTO visit_log_new (seq, link_id, counters) SELECT seq, link_id, counters FROM visit_log;
DROP TABLE visit_log;
ALTER TABLE visit_log_new RENAME TO visit_log;
CREATE INDEX visit_log_link ON visit_log (link_id);

CREATE TABLE visitor_hashes_new (
  link_id TEXT NOT NULL,
  day TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (link_id, day, hash)
) WITHOUT ROWID;
INSERT INTO visitor_hashes_new (link_id, day, hash) SELECT link_id, day, hash FROM visitor_hashes;
DROP TABLE visitor_hashes;
ALTER TABLE visitor_hashes_new RENAME TO visitor_hashes;

CREATE TRIGGER links_visits_deleted AFTER DELETE ON links
BEGIN
  DELETE FROM visit_log WHERE link_id = OLD.id;
  DELETE FROM visitor_hashes WHERE link_id = OLD.id;
END;`,
  gated('event_outbox_link_updated', LINK_UPDATED, 'link.updated', 'NEW', withTail('NEW')),
  gated('event_outbox_link_deleted', 'BEFORE DELETE', 'link.deleted', 'OLD', withTail('OLD')),
].join('\n');
