import { gated, LINK_UPDATED } from './011-event-consumers.js';

/**
 * The visit log's entries of one link, whatever their epoch: one index search per epoch the log holds
 * (`visit_log_epochs`, a few dozen at most), on `visit_log (epoch, link_id)`. `link` is an SQL expression.
 */
export const logEntriesOf = (link: string): string =>
  `v.epoch IN (SELECT epoch FROM visit_log_epochs) AND v.link_id = ${link}`;

/** A link's `clicks` as read: the folded count plus the visit log's unfolded tail (`row` the links row). */
export const clicksWithTail = (row: string): string =>
  `${row}.clicks + COALESCE((SELECT SUM(v.clicks) FROM visit_log v WHERE ${logEntriesOf(`${row}.id`)}), 0)`;

/** A link's `last_click_at` as read: the latest of the folded one and the unfolded tail's. */
export const lastClickWithTail = (row: string): string =>
  `COALESCE((SELECT MAX(v.last_click_at) FROM visit_log v WHERE ${logEntriesOf(`${row}.id`)}
    AND v.last_click_at > COALESCE(${row}.last_click_at, -1)), ${row}.last_click_at)`;

const withTail = (row: 'NEW' | 'OLD') => ({
  clicks: clicksWithTail(row),
  lastClickAt: lastClickWithTail(row),
});

/**
 * The visit log indexed in epochs (issue 29). Migration 012's index on `visit_log (link_id)` took every
 * appended entry at a random place: a flush of 10,000 cold links dirtied most of the index's pages in
 * each of its transactions, and the compactor's deletes did so again (in process at 1,000,000 links:
 * 9 CPU-µs of the flush and 40 of the compaction per cold visit, 2.3 KB of WAL). An entry now carries
 * the epoch its writer appended it in, and the index is on `(epoch, link_id)`: a writer keeps appending
 * to the newest epoch while its links come in ascending order (the recorder writes a flush's links
 * sorted), so its entries go to the right edge of the index, and the compactor's deletes take its left
 * edge. `visit_log_epochs` holds the epochs the log has entries of; a read of one link's tail searches
 * the index once per epoch. Epochs only grow with the log's entries (visit-writer.ts), and the compactor
 * drops those it emptied.
 */
export const VISIT_LOG_EPOCHS = [
  `ALTER TABLE visit_log ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
DROP INDEX visit_log_link;
CREATE INDEX visit_log_epoch_link ON visit_log (epoch, link_id);
CREATE TABLE visit_log_epochs (epoch INTEGER PRIMARY KEY);
INSERT INTO visit_log_epochs (epoch) SELECT 0 WHERE EXISTS (SELECT 1 FROM visit_log);

DROP TRIGGER links_visits_deleted;
CREATE TRIGGER links_visits_deleted AFTER DELETE ON links
BEGIN
  DELETE FROM visit_log AS v WHERE ${logEntriesOf('OLD.id')};
  DELETE FROM visitor_hashes WHERE link_id = OLD.id;
END;`,
  gated('event_outbox_link_updated', LINK_UPDATED, 'link.updated', 'NEW', withTail('NEW')),
  gated('event_outbox_link_deleted', 'BEFORE DELETE', 'link.deleted', 'OLD', withTail('OLD')),
].join('\n');
