import { MOVED, OWNED, OWNED_INDEX, WEEK_OF } from './020-account-counters.js';
import { HOUR_PAIRS, HOURLY_ROW, KEYED_ROW } from './023-counter-weeks.js';

/** The counters of a `counter_days` row's text as rows of `dimension`, `key` and `count`. */
const UNPACKED = (text: string) =>
  `(SELECT value ->> 0 AS dimension, value ->> 1 AS key, value ->> 2 AS count FROM json_each(${text}))`;

/** Whether a link-day lies in a week already summed (as migration 23's `SUMMED`, for a whole day). */
const DAY_SUMMED = (row: 'NEW' | 'OLD') => `EXISTS (SELECT 1 FROM counter_weeks_summed s
  WHERE ${row}.day < s.before OR (${row}.day < s.target AND ${row}.link_id <= s.cursor))`;

/** A packed day's counters added to (`+`) or taken from (`-`) its link's account (migration 20's sums). */
const ACCOUNT_SUMS = (sign: '+' | '-', row: 'NEW' | 'OLD') => {
  const owner = `FROM links l INDEXED BY links_owned, ${UNPACKED(`${row}.counters`)} c
    WHERE l.id = ${row}.link_id AND l.account_id IS NOT NULL`;
  const perLink = (table: string, period: string, of: string) => `
  INSERT INTO ${table} (account_id, ${period}, link_id, count)
    SELECT l.account_id, ${of}, ${row}.link_id, ${sign}SUM(c.count) ${owner} AND c.dimension = 'total'
    GROUP BY l.account_id
    ON CONFLICT (account_id, ${period}, link_id) DO UPDATE SET count = count + excluded.count;`;
  return `
  INSERT INTO account_counters (account_id, day, dimension, key, count)
    SELECT l.account_id, ${row}.day, c.dimension, c.key, ${sign}c.count ${owner}
    ON CONFLICT (account_id, day, dimension, key) DO UPDATE SET count = count + excluded.count;${perLink(
      'account_link_days',
      'day',
      `${row}.day`,
    )}${perLink('account_link_weeks', 'week', WEEK_OF(`${row}.day`))}`;
};

/** A packed day's hourly counters, a row a dimension (a packed day has no counter rows besides). */
const PACK_HOURS = (row: 'NEW') => `
  INSERT INTO counter_hours (link_id, day, dimension, pairs)
    SELECT ${row}.link_id, ${row}.day, c.dimension, ${HOUR_PAIRS} FROM ${UNPACKED(`${row}.counters`)} c
    WHERE ${HOURLY_ROW('c')} AND ${DAY_SUMMED(row)} AND EXISTS (SELECT 1 FROM links WHERE id = ${row}.link_id)
    GROUP BY c.dimension
    ON CONFLICT (link_id, day, dimension) DO UPDATE SET pairs = excluded.pairs;`;

/** Whether a packed row's counters are kept summed anywhere: its link is owned, or its week summed. */
export const PACKED_KEPT = (row: 'NEW' | 'OLD') => `${OWNED(row, OWNED_INDEX)} OR ${DAY_SUMMED(row)}`;

/** A packed row's counters added to the sums it is kept in (the insert trigger's program). */
export const PACKED_ADDED = `
  ${ACCOUNT_SUMS('+', 'NEW')}
  INSERT INTO counter_weeks (link_id, week, dimension, key, count)
    SELECT NEW.link_id, ${WEEK_OF('NEW.day')}, c.dimension, c.key, c.count FROM ${UNPACKED('NEW.counters')} c
    WHERE ${KEYED_ROW('c')} AND ${DAY_SUMMED('NEW')}
    ON CONFLICT (link_id, week, dimension, key) DO UPDATE SET count = count + excluded.count;
  ${PACK_HOURS('NEW')}
`;

/** A packed row's counters taken from the sums it is kept in (the delete trigger's program). */
export const PACKED_REMOVED = `
  ${ACCOUNT_SUMS('-', 'OLD')}
  UPDATE counter_weeks SET count = count - (SELECT c.count FROM ${UNPACKED('OLD.counters')} c
      WHERE c.dimension = counter_weeks.dimension AND c.key = counter_weeks.key)
    WHERE link_id = OLD.link_id AND week = ${WEEK_OF('OLD.day')} AND ${DAY_SUMMED('OLD')}
      AND (dimension, key) IN (SELECT c.dimension, c.key FROM ${UNPACKED('OLD.counters')} c WHERE ${KEYED_ROW('c')});
  DELETE FROM counter_hours WHERE link_id = OLD.link_id AND day = OLD.day AND ${DAY_SUMMED('OLD')}
    AND NOT EXISTS (SELECT 1 FROM visit_counters
      WHERE link_id = OLD.link_id AND day = OLD.day AND dimension = counter_hours.dimension);
`;

/**
 * Issue 58: a link-day's counters in one row. A cold visit's fold wrote six counter rows (its hour,
 * `unique`, country, referrer, device, browser) into `visit_counters`, each a B-tree insert at a random
 * place and two triggers' programs (run for every row, their `WHEN` false or not): at 1,000,000 links
 * the compaction of cold visits cost 39.9-55.7 CPU-µs a log entry, 24.4-26.5 so (`bench/compaction.mjs`).
 * So the compactor writes a link-day that holds no counter yet as one `counter_days` row, its counters a JSON array of `[dimension, key, count]`; a later fold of that day
 * (a link visited again) unpacked it into `visit_counters` first and added there as before (since migration
 * 036 it writes the row again, counter-writes.ts).
 * A link-day is in one table or the other, never both. Reads see both through the view `all_counters`.
 *
 * Its triggers do for the packed counters what `visit_counters`' do for theirs: the account sums of an
 * owned link's counters, and the weeks and hours of a day in a summed week, added on insert and taken
 * away on delete (a row is never updated). A link deleted takes its rows (cascade); its account sums
 * are taken away beforehand by migration 20's trigger, which now reads the view.
 */
export const COUNTER_DAYS = `
CREATE TABLE counter_days (
  link_id TEXT NOT NULL REFERENCES links (id) ON DELETE CASCADE,
  day TEXT NOT NULL,
  counters TEXT NOT NULL,
  PRIMARY KEY (link_id, day)
) WITHOUT ROWID;

CREATE VIEW all_counters AS
  SELECT link_id, day, dimension, key, count FROM visit_counters
  UNION ALL
  SELECT d.link_id, d.day, c.value ->> 0, c.value ->> 1, c.value ->> 2 FROM counter_days d, json_each(d.counters) c;

CREATE TRIGGER counter_days_added AFTER INSERT ON counter_days
  WHEN ${PACKED_KEPT('NEW')} BEGIN${PACKED_ADDED}END;

-- an update, not an insert: the counters of a deleted link go after its weeks did (migration 23)
CREATE TRIGGER counter_days_removed AFTER DELETE ON counter_days
  WHEN ${PACKED_KEPT('OLD')} BEGIN${PACKED_REMOVED}END;

DROP TRIGGER account_counters_link_moved;
CREATE TRIGGER account_counters_link_moved AFTER UPDATE OF account_id ON links
  WHEN OLD.account_id IS NOT NEW.account_id BEGIN
  ${MOVED('-', 'OLD.account_id', 'NEW.id', 'all_counters')}
  ${MOVED('+', 'NEW.account_id', 'NEW.id', 'all_counters')}
END;

DROP TRIGGER account_counters_link_deleted;
CREATE TRIGGER account_counters_link_deleted BEFORE DELETE ON links BEGIN
  ${MOVED('-', 'OLD.account_id', 'OLD.id', 'all_counters')}
END;
`;
