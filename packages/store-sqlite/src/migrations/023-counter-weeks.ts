import { WEEK_OF } from './020-account-counters.js';

/**
 * A keyed counter: core's `UNKEYED_DIMENSIONS` spelled out (a migration's text never changes), as the
 * reads' `KEYED` filter has them (a test compares the two). Three comparisons, not `NOT IN (...)`: in a
 * trigger's `WHEN` that list is built anew for every row (about 2 µs a counter the compactor writes).
 */
export const KEYED_ROW = (row: string) =>
  ['total', 'bots', 'unique'].map((d) => `${row}.dimension <> '${d}'`).join(' AND ');

/** An hourly counter (its key the UTC hour, migration 019). */
export const HOURLY_ROW = (row: string) => `(${row}.dimension = 'total' OR ${row}.dimension = 'bots')`;

/**
 * A day's hourly counters of a dimension as one text: `hour` and count split by the unit separator,
 * pairs by the record separator (control characters no stored key holds), as the reads unpack them.
 */
export const HOUR_PAIRS = `group_concat(key || char(31) || count, char(30))`;

/**
 * Whether a counter row's day lies in a week already summed for its link: every week before `before`,
 * and the weeks before `target` of the links up to `cursor` while a pass is summing them (counter-weeks.ts).
 */
const SUMMED = (
  row: 'NEW' | 'OLD',
) => `${row}.dimension <> 'unique' AND EXISTS (SELECT 1 FROM counter_weeks_summed s
  WHERE ${row}.day < s.before OR (${row}.day < s.target AND ${row}.link_id <= s.cursor))`;

/** A keyed counter's change added to its week. */
const ADD_TO_WEEK = (row: 'NEW', count: string) => `
  INSERT INTO counter_weeks (link_id, week, dimension, key, count)
    SELECT NEW.link_id, ${WEEK_OF(`${row}.day`)}, ${row}.dimension, ${row}.key, ${count} WHERE ${KEYED_ROW(row)}
    ON CONFLICT (link_id, week, dimension, key) DO UPDATE SET count = count + excluded.count;`;

/**
 * An hourly counter's day packed again (none once its last counter went), while its link exists (a
 * deleted link's counters go by cascade after it did).
 */
const PACK_DAY = (row: 'NEW' | 'OLD') => `
  INSERT INTO counter_hours (link_id, day, dimension, pairs)
    SELECT link_id, day, dimension, ${HOUR_PAIRS} FROM visit_counters
    WHERE link_id = ${row}.link_id AND day = ${row}.day AND dimension = ${row}.dimension AND ${HOURLY_ROW(row)}
      AND EXISTS (SELECT 1 FROM links WHERE id = ${row}.link_id)
    GROUP BY link_id, day, dimension
    ON CONFLICT (link_id, day, dimension) DO UPDATE SET pairs = excluded.pairs;`;

/**
 * Each link's counters of the weeks that are over, kept for long reads (issue 40): its keyed counters
 * summed per week (`counter_weeks`), and its hourly totals packed one row a day (`counter_hours`). A
 * year of a busy link's statistics reads 52 weekly rows a key instead of 366 daily ones (16,882
 * counters: 8.6 against 1.0 ms) and 366 rows of hours instead of 8,784 hours. Weeks are summed once
 * they are over, in the background (counter-weeks.ts, beside the compactor), never on a visit's path;
 * `counter_weeks_summed` says how far. A counter written later into a summed week (a late fold, an
 * import, pruning) changes its week and its day by trigger, so both always equal the counters. A link
 * deleted takes them along. It starts with nothing summed: the first pass sums every week.
 */
export const COUNTER_WEEKS = `
CREATE TABLE counter_weeks (
  link_id TEXT NOT NULL,
  week TEXT NOT NULL,
  dimension TEXT NOT NULL,
  key TEXT NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (link_id, week, dimension, key)
) WITHOUT ROWID;

CREATE TABLE counter_hours (
  link_id TEXT NOT NULL,
  day TEXT NOT NULL,
  dimension TEXT NOT NULL,
  pairs TEXT NOT NULL,
  PRIMARY KEY (link_id, day, dimension)
) WITHOUT ROWID;

CREATE TABLE counter_weeks_summed (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  before TEXT NOT NULL,
  target TEXT NOT NULL,
  cursor TEXT NOT NULL
);
INSERT INTO counter_weeks_summed (id, before, target, cursor) VALUES (1, '', '', '');

CREATE TRIGGER counter_weeks_added AFTER INSERT ON visit_counters WHEN ${SUMMED('NEW')} BEGIN
  ${ADD_TO_WEEK('NEW', 'NEW.count')}
  ${PACK_DAY('NEW')}
END;

CREATE TRIGGER counter_weeks_changed AFTER UPDATE OF count ON visit_counters WHEN ${SUMMED('NEW')} BEGIN
  ${ADD_TO_WEEK('NEW', 'NEW.count - OLD.count')}
  ${PACK_DAY('NEW')}
END;

-- an update, not an insert: the counters of a deleted link go after its weeks did (below)
CREATE TRIGGER counter_weeks_removed AFTER DELETE ON visit_counters WHEN ${SUMMED('OLD')} BEGIN
  UPDATE counter_weeks SET count = count - OLD.count
    WHERE link_id = OLD.link_id AND week = ${WEEK_OF('OLD.day')} AND dimension = OLD.dimension AND key = OLD.key;
  ${PACK_DAY('OLD')}
  DELETE FROM counter_hours WHERE link_id = OLD.link_id AND day = OLD.day AND dimension = OLD.dimension
    AND NOT EXISTS (SELECT 1 FROM visit_counters
      WHERE link_id = OLD.link_id AND day = OLD.day AND dimension = OLD.dimension);
END;

CREATE TRIGGER counter_weeks_link_deleted AFTER DELETE ON links BEGIN
  DELETE FROM counter_weeks WHERE link_id = OLD.id;
  DELETE FROM counter_hours WHERE link_id = OLD.id;
END;
`;
