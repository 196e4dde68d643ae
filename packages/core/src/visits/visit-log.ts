import type { CounterIncrement, DayCount, DimensionCount, KeyCount, VisitDimension } from '../ports.js';
import { isKeyedDimension, MAX_KEYS_PER_DAY, OTHER_KEY } from './counter-keys.js';

/** One counter of a log entry, without its link: `[day, dimension, key, count]`. */
type LogCounter = [string, VisitDimension, string, number];

/**
 * The counters of one link in a flush as the text of its visit-log entry: a compact JSON array, so an
 * entry is one short row whatever the number of dimensions and keys.
 */
export function encodeLogCounters(counters: readonly CounterIncrement[]): string {
  // JSON.stringify of the arrays: writing the text out by hand measured about 10% slower
  return JSON.stringify(counters.map((c): LogCounter => [c.day, c.dimension, c.key, c.count]));
}

/**
 * The counters of a visit-log entry of `linkId` (see {@link encodeLogCounters}). A `total` or `bots`
 * counter of an entry written before hourly counters (key `''`) counts in the hour `00`.
 */
export function decodeLogCounters(linkId: string, text: string): CounterIncrement[] {
  return (JSON.parse(text) as LogCounter[]).map(([day, dimension, key, count]) => ({
    linkId,
    day,
    dimension,
    key: key === '' && (dimension === 'total' || dimension === 'bots') ? '00' : key,
    count,
  }));
}

/**
 * A copy of `c` counting `count`: a literal, not a spread, as increments come from several places and a
 * megamorphic spread gives every copy a hidden class of its own.
 */
const withCount = (c: CounterIncrement, count: number): CounterIncrement => ({
  linkId: c.linkId,
  day: c.day,
  dimension: c.dimension,
  key: c.key,
  count,
});

/**
 * Increments of the same counter summed into one, in the order each counter first appears: folding the
 * sums under the per-day key limit keeps the same keys as folding the increments one by one.
 */
export function mergeIncrements(increments: readonly CounterIncrement[]): CounterIncrement[] {
  const sums = new Map<string, CounterIncrement>();
  for (const c of increments) {
    const id = `${c.linkId}\u0000${c.day}\u0000${c.dimension}\u0000${c.key}`;
    const prior = sums.get(id);
    sums.set(id, prior === undefined ? c : withCount(prior, prior.count + c.count));
  }
  return [...sums.values()];
}

/**
 * The unfolded counters of one link as the compactor will fold them: a keyed counter whose key its
 * link-day does not hold lands on `other` once `held(day, dimension)` (the stored keys other than
 * `other`) and the tail's earlier new keys reach `MAX_KEYS_PER_DAY` (`keyWithinLimit`).
 */
export function limitTailKeys(
  tail: readonly CounterIncrement[],
  held: (day: string, dimension: VisitDimension) => Iterable<string>,
): CounterIncrement[] {
  const keysOf = new Map<string, Set<string>>();
  return tail.map((c) => {
    if (!isKeyedDimension(c.dimension) || c.key === OTHER_KEY) return c;
    const id = `${c.day}\u0000${c.dimension}`;
    let keys = keysOf.get(id);
    if (keys === undefined) keysOf.set(id, (keys = new Set(held(c.day, c.dimension))));
    if (keys.has(c.key)) return c;
    if (keys.size < MAX_KEYS_PER_DAY) {
      keys.add(c.key);
      return c;
    }
    return { linkId: c.linkId, day: c.day, dimension: c.dimension, key: OTHER_KEY, count: c.count };
  });
}

/** `stored` per-day sums with the tail's counters of `dimension` added (days ascending). */
export function addTailByDay(
  stored: readonly KeyCount[],
  tail: readonly CounterIncrement[],
  dimension: VisitDimension,
): KeyCount[] {
  const sums = new Map(stored.map((c) => [c.key, c.count]));
  for (const c of tail) {
    if (c.dimension === dimension) sums.set(c.day, (sums.get(c.day) ?? 0) + c.count);
  }
  return [...sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, count]) => ({ key, count }));
}

/** `stored` sums per dimension and key with the tail's (key-limited) counters added. */
export function addTailByKey(
  stored: readonly DimensionCount[],
  tail: readonly CounterIncrement[],
): DimensionCount[] {
  const sums = new Map<string, DimensionCount>();
  const add = (dimension: VisitDimension, key: string, count: number) => {
    const id = `${dimension}\u0000${key}`;
    sums.set(id, { dimension, key, count: (sums.get(id)?.count ?? 0) + count });
  };
  for (const c of stored) add(c.dimension, c.key, c.count);
  for (const c of tail) add(c.dimension, c.key, c.count);
  return [...sums.values()];
}

/** The dimensions without keys of their own: `total` and `bots` are keyed by the hour, `unique` not at all. */
export const UNKEYED_DIMENSIONS: readonly VisitDimension[] = ['total', 'bots', 'unique'];

const isKeyed = (c: { readonly dimension: VisitDimension }) => !UNKEYED_DIMENSIONS.includes(c.dimension);

/**
 * {@link addTailByKey} of the keyed dimensions only (`VisitStore.countsByKeyOf`): the unkeyed ones are
 * read by day, and a store may leave them out of its stored sums (a year of one link's hourly totals is
 * 8,784 rows SQLite need not group).
 */
export function addTailByKeyed(
  stored: readonly DimensionCount[],
  tail: readonly CounterIncrement[],
): DimensionCount[] {
  return addTailByKey(stored.filter(isKeyed), tail.filter(isKeyed));
}

/** The tail's counters of days in [fromDay, toDay]. */
export function tailWithin(
  tail: readonly CounterIncrement[],
  fromDay: string,
  toDay: string,
): CounterIncrement[] {
  return tail.filter((c) => c.day >= fromDay && c.day <= toDay);
}

/** `stored` sums per (day, dimension, key) with the tail's counters of `dimensions` added. */
export function addTailByDayOf(
  stored: readonly DayCount[],
  tail: readonly CounterIncrement[],
  dimensions: readonly VisitDimension[],
): DayCount[] {
  const added = tail.filter((c) => dimensions.includes(c.dimension));
  // the stored rows are one per (day, dimension, key) already: with nothing to add they are the answer
  if (added.length === 0) return [...stored];
  const sums = new Map<string, DayCount>();
  const add = (day: string, dimension: VisitDimension, key: string, count: number) => {
    const id = `${day}\u0000${dimension}\u0000${key}`;
    sums.set(id, { day, dimension, key, count: (sums.get(id)?.count ?? 0) + count });
  };
  for (const c of stored) add(c.day, c.dimension, c.key, c.count);
  for (const c of added) add(c.day, c.dimension, c.key, c.count);
  return [...sums.values()];
}

/**
 * `stored` totals per link (key: the link id) with the tail's `total` counters of the UTC hours
 * [fromHour, toHour] (`YYYY-MM-DDTHH`) added.
 */
export function addTailByLink(
  stored: readonly KeyCount[],
  tail: readonly CounterIncrement[],
  fromHour: string,
  toHour: string,
): KeyCount[] {
  const sums = new Map(stored.map((c) => [c.key, c.count]));
  for (const c of tail) {
    const hour = `${c.day}T${c.key}`;
    if (c.dimension === 'total' && hour >= fromHour && hour <= toHour)
      sums.set(c.linkId, (sums.get(c.linkId) ?? 0) + c.count);
  }
  return [...sums].map(([key, count]) => ({ key, count }));
}

/**
 * The unfolded counters of several links from their log entries' texts (each link's in log order),
 * summed per link and counter, of the days [fromDay, toDay]; keyed counters under the per-day key limit
 * as the compactor will fold them when `held` (a link's stored keys of a day and dimension) is given.
 */
export function tailOfEntries(
  entries: ReadonlyMap<string, readonly string[]>,
  fromDay: string,
  toDay: string,
  held?: (linkId: string, day: string, dimension: VisitDimension) => Iterable<string>,
): CounterIncrement[] {
  return [...entries].flatMap(([linkId, texts]) => {
    const tail = tailWithin(
      mergeIncrements(texts.flatMap((t) => decodeLogCounters(linkId, t))),
      fromDay,
      toDay,
    );
    return held === undefined ? tail : limitTailKeys(tail, (day, dimension) => held(linkId, day, dimension));
  });
}
