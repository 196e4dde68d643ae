import {
  addDays,
  addTailByDayOf,
  addTailByKeyed,
  addTailByLink,
  OTHER_KEY,
  summedWeeks,
  tailOfEntries,
  UNKEYED_DIMENSIONS,
  unpackCounts,
} from '@shortener/core';
import type {
  CounterIncrement,
  DayCount,
  DimensionCount,
  KeyCount,
  VisitDimension,
  VisitStore,
} from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { HOUR_PAIRS } from './migrations/023-counter-weeks.js';

// The links, as a JSON array bound once: one statement whatever their number (no variable limit).
const LINKS = 'SELECT value FROM json_each(?)';

const BY_DAY = `SELECT day, dimension, key, SUM(count) AS count FROM all_counters
  WHERE link_id IN (${LINKS}) AND dimension IN (SELECT value FROM json_each(?)) AND day BETWEEN ? AND ?
  GROUP BY day, dimension, key`;

// one link's counters of a day and dimension in one row (HOUR_PAIRS): a year of hourly counters is
// 8,784 rows, each an object built by the driver; as 732 strings it reads in a third of the time. The
// days of summed weeks come packed so (migration 023): 366 rows read, not 8,784.
const BY_DAY_OF_ONE = `SELECT day, dimension, pairs FROM counter_hours
  WHERE link_id = @link AND dimension IN (SELECT value FROM json_each(@dimensions)) AND day BETWEEN @from AND @packedTo
  UNION ALL
  SELECT day, dimension, ${HOUR_PAIRS} AS pairs FROM all_counters
  WHERE link_id = @link AND dimension IN (SELECT value FROM json_each(@dimensions)) AND day BETWEEN @countedFrom AND @to
  GROUP BY day, dimension`;

// the keyed dimensions' sums (the hourly totals are read by day): a year of one link's totals is 8,784
// rows the grouping then skips (8.6 -> 6.9 ms for a year of 70 counters a day, in memory)
export const KEYED = `dimension NOT IN (${UNKEYED_DIMENSIONS.map((d) => `'${d}'`).join(', ')})`;

// how far a link's weeks are summed (migration 023): the Monday before which they all are
const HORIZON = `SELECT CASE WHEN ? <= cursor THEN target ELSE before END FROM counter_weeks_summed`;

// one link's keyed sums: its summed weeks, and the other days counter by counter (each its own range:
// with an OR, SQLite walks every counter of the link)
const DAYS_OF_ONE = (first: string, last: string) => `SELECT dimension, key, count FROM all_counters
  WHERE link_id = @link AND day BETWEEN @${first} AND @${last} AND ${KEYED}`;
const BY_KEY_OF_ONE = `SELECT dimension, key, SUM(count) AS count FROM (
  SELECT dimension, key, count FROM counter_weeks WHERE link_id = @link AND week BETWEEN @w1 AND @w2
  UNION ALL ${DAYS_OF_ONE('a1', 'a2')} UNION ALL ${DAYS_OF_ONE('b1', 'b2')}
) GROUP BY dimension, key`;

const BY_KEY = `SELECT dimension, key, SUM(count) AS count FROM all_counters
  WHERE link_id IN (${LINKS}) AND day BETWEEN ? AND ? AND ${KEYED} GROUP BY dimension, key`;

// total counters are keyed by their UTC hour (migration 019): day || 'T' || key is the hour
const BY_LINK = `SELECT link_id AS key, SUM(count) AS count FROM all_counters
  WHERE link_id IN (${LINKS}) AND dimension = 'total' AND day BETWEEN ? AND ?
    AND day || 'T' || key BETWEEN ? AND ? GROUP BY link_id`;

// the log entries of the links (one index search per epoch and link), of links that still exist
const TAILS = `SELECT v.link_id AS linkId, v.counters AS text FROM visit_log v
  WHERE v.epoch IN (SELECT epoch FROM visit_log_epochs) AND v.link_id IN (${LINKS})
    AND EXISTS (SELECT 1 FROM links WHERE id = v.link_id) ORDER BY v.seq`;

/** The keys other than `other` a link holds of a day and dimension. */
export const HELD_KEYS = `SELECT key FROM all_counters
  WHERE link_id = ? AND day = ? AND dimension = ? AND key <> '${OTHER_KEY}'`;

/** The parameters of {@link BY_DAY_OF_ONE}: a link, its dimensions (JSON) and days packed and counted. */
type HourSpans = Record<'link' | 'dimensions' | 'from' | 'packedTo' | 'countedFrom' | 'to', string>;

const isHourly = (dimension: VisitDimension) => dimension === 'total' || dimension === 'bots';

/** The parameters of {@link BY_KEY_OF_ONE}: a link, its summed weeks and the two spans of days. */
type KeyedSpans = Record<'link' | 'w1' | 'w2' | 'a1' | 'a2' | 'b1' | 'b2', string>;

interface DayPairs {
  readonly day: string;
  readonly dimension: VisitDimension;
  readonly pairs: string;
}

/** The counts of a {@link BY_DAY_OF_ONE} row. */
function unpacked({ day, dimension, pairs }: DayPairs): DayCount[] {
  return unpackCounts(pairs).map(({ key, count }) => ({ day, dimension, key, count }));
}

/**
 * The reads of statistics across links (`VisitStore.countsByDayOf`, `countsByKeyOf`, `totalsByLink`):
 * one grouped statement over the stored counters, plus the unfolded tail of those links, in one deferred
 * transaction (one snapshot, before or after a compaction's commit).
 */
export function createAcrossReaders(
  db: Database,
): Pick<VisitStore, 'countsByDayOf' | 'countsByKeyOf' | 'totalsByLink'> {
  const byDay = db.prepare<[string, string, string, string], DayCount>(BY_DAY);
  const byDayOfOne = db.prepare<[HourSpans], DayPairs>(BY_DAY_OF_ONE);
  const byKey = db.prepare<[string, string, string], DimensionCount>(BY_KEY);
  const horizon = db.prepare<[string], string>(HORIZON).pluck();
  const byKeyOfOne = db.prepare<[KeyedSpans], DimensionCount>(BY_KEY_OF_ONE);
  // the days before the link's horizon come packed, when every dimension asked is hourly
  const hoursOfOne = (link: string, dimensions: readonly VisitDimension[], from: string, to: string) => {
    const packed = dimensions.every(isHourly) ? (horizon.get(link) ?? '') : '';
    const packedTo = packed === '' ? '0' : addDays(packed, -1) < to ? addDays(packed, -1) : to;
    const countedFrom = packed > from ? packed : from;
    return byDayOfOne.all({ link, dimensions: JSON.stringify(dimensions), from, packedTo, countedFrom, to });
  };
  const keyedOfOne = (link: string, fromDay: string, toDay: string): DimensionCount[] => {
    const { weeks, days } = summedWeeks(fromDay, toDay, horizon.get(link) ?? '');
    const [[a1, a2], [b1, b2]] = days;
    return byKeyOfOne.all({ link, w1: weeks[0], w2: weeks[1], a1, a2, b1, b2 });
  };
  const byLink = db.prepare<[string, string, string, string, string], KeyCount>(BY_LINK);
  const tails = db.prepare<[string], { linkId: string; text: string }>(TAILS);
  const heldKeys = db.prepare<[string, string, VisitDimension], string>(HELD_KEYS).pluck();

  // each link's unfolded counters of the days, summed, keyed ones under the key limit (`limited`)
  const tailOf = (links: string, fromDay: string, toDay: string, limited: boolean): CounterIncrement[] => {
    const texts = new Map<string, string[]>();
    for (const { linkId, text } of tails.all(links)) texts.set(linkId, [...(texts.get(linkId) ?? []), text]);
    return tailOfEntries(texts, fromDay, toDay, limited ? (...args) => heldKeys.all(...args) : undefined);
  };
  const countsByDayOf = db.transaction(
    (links: string[], dimensions: readonly VisitDimension[], fromDay: string, toDay: string) => {
      const [only] = links;
      const json = JSON.stringify(links);
      const stored =
        links.length === 1 && only !== undefined
          ? hoursOfOne(only, dimensions, fromDay, toDay).flatMap(unpacked)
          : byDay.all(json, JSON.stringify(dimensions), fromDay, toDay);
      return addTailByDayOf(stored, tailOf(json, fromDay, toDay, false), dimensions);
    },
  );
  const countsByKeyOf = db.transaction((links: string[], fromDay: string, toDay: string) => {
    const [only] = links;
    const json = JSON.stringify(links);
    const stored =
      links.length === 1 && only !== undefined
        ? keyedOfOne(only, fromDay, toDay)
        : byKey.all(json, fromDay, toDay);
    return addTailByKeyed(stored, tailOf(json, fromDay, toDay, true));
  });
  const totalsByLink = db.transaction((links: string, fromHour: string, toHour: string) => {
    const [fromDay, toDay] = [fromHour.slice(0, 10), toHour.slice(0, 10)];
    const stored = byLink.all(links, fromDay, toDay, fromHour, toHour);
    return addTailByLink(stored, tailOf(links, fromDay, toDay, false), fromHour, toHour);
  });
  return {
    countsByDayOf: async (linkIds, dimensions, fromDay, toDay) =>
      countsByDayOf.deferred([...linkIds], dimensions, fromDay, toDay),
    countsByKeyOf: async (linkIds, fromDay, toDay) => countsByKeyOf.deferred([...linkIds], fromDay, toDay),
    totalsByLink: async (linkIds, fromHour, toHour) =>
      totalsByLink.deferred(JSON.stringify(linkIds), fromHour, toHour),
  };
}
