import { logEntriesOf } from './013-visit-log-epochs.js';

/**
 * Issue 58: the clicks the compactor folds go to `link_clicks`, a narrow table keyed by the link,
 * instead of the wide `links` row. Folding a cold visit rewrote the link's row (its URL, title, rules,
 * health: a page of about a dozen links) and that page went to the WAL and back to the file once per
 * visit; a narrow row costs about a third less of that (at 1,000,000 links, 50,000 clicks on random
 * links in transactions of 100 with their checkpoints: 25-27 against 37-39 CPU-µs a click).
 *
 * `links.clicks` keeps what is written there at once: the clicks of capped links (counted as they are
 * consumed, sqlite-link-store.ts), imported clicks, and every click folded before this migration, so
 * nothing moves. A link's clicks are `links.clicks` plus its `link_clicks` row plus the visit log's
 * unfolded tail ({@link clicksOf}); its last click the latest of the three ({@link lastClickOf}). A
 * link deleted takes its row along.
 */
export const LINK_CLICKS = `
CREATE TABLE link_clicks (
  link_id TEXT PRIMARY KEY,
  clicks INTEGER NOT NULL,
  last_click_at INTEGER
) WITHOUT ROWID;

CREATE TRIGGER link_clicks_link_deleted AFTER DELETE ON links BEGIN
  DELETE FROM link_clicks WHERE link_id = OLD.id;
END;
`;

/** A link's folded clicks and last click apart from its row (`row` the links row), or NULL. */
const folded = (row: string, column: 'clicks' | 'last_click_at') =>
  `(SELECT c.${column} FROM link_clicks c WHERE c.link_id = ${row}.id)`;

/** The latest click of a link's row and of its `link_clicks` row, -1 for none. */
const lastFolded = (row: string) =>
  `MAX(COALESCE(${row}.last_click_at, -1), COALESCE(${folded(row, 'last_click_at')}, -1))`;

/** A link's clicks folded: its row's and its `link_clicks` row's (the visit log's tail left out). */
export const foldedClicksOf = (row: string): string =>
  `${row}.clicks + COALESCE(${folded(row, 'clicks')}, 0)`;

/** A link's `clicks` as read: its row's, its `link_clicks` row's and the visit log's unfolded tail. */
export const clicksOf = (row: string): string =>
  `${foldedClicksOf(row)}
    + COALESCE((SELECT SUM(v.clicks) FROM visit_log v WHERE ${logEntriesOf(`${row}.id`)}), 0)`;

/** A link's `last_click_at` as read: the latest of its row's, its `link_clicks` row's and the tail's. */
export const lastClickOf = (row: string): string =>
  `COALESCE((SELECT MAX(v.last_click_at) FROM visit_log v WHERE ${logEntriesOf(`${row}.id`)}
    AND v.last_click_at > ${lastFolded(row)}), NULLIF(${lastFolded(row)}, -1))`;

/** The latest click folded of a link (its row's or its `link_clicks` row's), NULL for none. */
export const lastFoldedClickOf = (row: string): string => `NULLIF(${lastFolded(row)}, -1)`;

/**
 * The `links` columns with the clicks folded apart in them, the visit log's unfolded tail left out: what
 * the compactor has folded so far (the tests read it so).
 */
export const LINK_CLICKS_FOLDED = {
  clicks: foldedClicksOf('links'),
  last_click_at: lastFoldedClickOf('links'),
} as const;

/**
 * The `links` columns as copied into PostgreSQL (`shortener migrate`): every click, the visit log's
 * unfolded tail's too, since PostgreSQL's log carries counters only (its links hold every click).
 */
export const LINK_CLICKS_READ = {
  clicks: clicksOf('links'),
  last_click_at: lastClickOf('links'),
} as const;
