import { gated, LINK_UPDATED } from './011-event-consumers.js';

/** A link's `clicks` as read: the folded count plus the visit log's unfolded tail (`row` the links row). */
export const clicksWithTail = (row: string): string =>
  `${row}.clicks + COALESCE((SELECT SUM(v.clicks) FROM visit_log v WHERE v.link_id = ${row}.id), 0)`;

/** A link's `last_click_at` as read: the latest of the folded one and the unfolded tail's. */
export const lastClickWithTail = (row: string): string =>
  `COALESCE((SELECT MAX(v.last_click_at) FROM visit_log v WHERE v.link_id = ${row}.id
    AND v.last_click_at > COALESCE(${row}.last_click_at, -1)), ${row}.last_click_at)`;

const withTail = (row: 'NEW' | 'OLD') => ({
  clicks: clicksWithTail(row),
  lastClickAt: lastClickWithTail(row),
});

/**
 * Clicks in the visit log (issue 29): a flush no longer updates the `links` row of each link visited
 * (a page written at random in the largest B-tree, for every cold link); its log entry carries the
 * link's clicks and latest click, and the compactor adds them to `links` as it folds the entry, in the
 * same transaction. Every read of a link adds the unfolded tail (link-rows.ts), so `clicks` is read at
 * once, as the statistics are. Capped links keep their click counted on `links` at request time. The
 * events' link snapshots add the tail too; `link.deleted` is written before the delete, while the tail
 * (deleted with the link) is still there.
 */
export const CLICKS_IN_THE_LOG = [
  `ALTER TABLE visit_log ADD COLUMN clicks INTEGER NOT NULL DEFAULT 0;
ALTER TABLE visit_log ADD COLUMN last_click_at INTEGER;`,
  gated('event_outbox_link_updated', LINK_UPDATED, 'link.updated', 'NEW', withTail('NEW')),
  gated('event_outbox_link_deleted', 'BEFORE DELETE', 'link.deleted', 'OLD', withTail('OLD')),
].join('\n');
