/**
 * The packed form of one day's counts of one dimension, as the stores' statements build it (SQLite's
 * `group_concat(key || char(31) || count, char(30))`, PostgreSQL's `string_agg` of the same): one row
 * for the driver where a row per key would be dozens. A key may hold any character but these two
 * control characters, which no counter key has (hours, device classes, browser names, referrer hosts,
 * country codes, rule and split indexes); the count after the last unit separator is a whole number.
 */
const PAIR_SEPARATOR = '\x1e';
const KEY_SEPARATOR = '\x1f';

/** A key and its count, as packed. */
export interface PackedCount {
  readonly key: string;
  readonly count: number;
}

/** The counts of a packed row, in the order they were packed; none for an empty row. */
export function unpackCounts(packed: string): PackedCount[] {
  if (packed === '') return [];
  return packed.split(PAIR_SEPARATOR).map((pair) => {
    const end = pair.lastIndexOf(KEY_SEPARATOR);
    return { key: pair.slice(0, end), count: Number(pair.slice(end + 1)) };
  });
}
