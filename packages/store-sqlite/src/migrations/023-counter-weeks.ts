import { WEEK_OF } from './020-account-counters.js';

/**
 * A keyed counter: core's `UNKEYED_DIMENSIONS` spelled out (a migration's text never changes), as the
 * reads' `KEYED` filter has them (a test compares the two). Three comparisons, not `NOT IN (...)`: in a
 * trigger's `WHEN` that list is built anew for every row (about 2 µs a counter the compactor writes).
 */
export const KEYED_ROW = (row: string) =>
  ['total', 'bots', 'unique'].map((d) => `${row}.dimension <> '${d}'`).join(' AND ');

/**
 * Whether a counter row's day lies in a week already summed for its link: every week before `before`,
 * and the weeks before `target` of the links up to `cursor` while a pass is summing them (counter-weeks.ts).
 */
const SUMMED = (row: 'NEW' | 'OLD') => `${KEYED_ROW(row)} AND EXISTS (SELECT 1 FROM counter_weeks_summed s
  WHERE ${row}.day < s.before OR (${row}.day < s.target AND ${row}.link_id <= s.cursor))`;

/**
 * Each link's keyed counters summed per week (issue 40): a year of a busy link's statistics read 52
 * weekly rows a key instead of 366 daily ones (16,882 counters, 8.6 ms, against 1.0 ms). Weeks are
 * summed once they are over, in the background (counter-weeks.ts, beside the compactor), never on a
 * visit's path; `counter_weeks_summed` says how far. A counter written later into a summed week (a late
 * fold, an import, pruning) changes the week's sum by trigger, so a sum always equals its days. A
 * link deleted takes its weeks along. It starts with nothing summed: the first pass sums every week.
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

CREATE TABLE counter_weeks_summed (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  before TEXT NOT NULL,
  target TEXT NOT NULL,
  cursor TEXT NOT NULL
);
INSERT INTO counter_weeks_summed (id, before, target, cursor) VALUES (1, '', '', '');

CREATE TRIGGER counter_weeks_added AFTER INSERT ON visit_counters WHEN ${SUMMED('NEW')} BEGIN
  INSERT INTO counter_weeks (link_id, week, dimension, key, count)
    VALUES (NEW.link_id, ${WEEK_OF('NEW.day')}, NEW.dimension, NEW.key, NEW.count)
    ON CONFLICT (link_id, week, dimension, key) DO UPDATE SET count = count + excluded.count;
END;

CREATE TRIGGER counter_weeks_changed AFTER UPDATE OF count ON visit_counters WHEN ${SUMMED('NEW')} BEGIN
  INSERT INTO counter_weeks (link_id, week, dimension, key, count)
    VALUES (NEW.link_id, ${WEEK_OF('NEW.day')}, NEW.dimension, NEW.key, NEW.count - OLD.count)
    ON CONFLICT (link_id, week, dimension, key) DO UPDATE SET count = count + excluded.count;
END;

-- an update, not an insert: the counters of a deleted link go after its weeks did (below)
CREATE TRIGGER counter_weeks_removed AFTER DELETE ON visit_counters WHEN ${SUMMED('OLD')} BEGIN
  UPDATE counter_weeks SET count = count - OLD.count
    WHERE link_id = OLD.link_id AND week = ${WEEK_OF('OLD.day')} AND dimension = OLD.dimension AND key = OLD.key;
END;

CREATE TRIGGER counter_weeks_link_deleted AFTER DELETE ON links BEGIN
  DELETE FROM counter_weeks WHERE link_id = OLD.id;
END;
`;
