import type { CounterIncrement, VisitDimension } from '../ports.js';

/**
 * Distinct keys a link keeps per day in each keyed dimension (country, referrer, device, browser);
 * later new keys of that day count under {@link OTHER_KEY}. Random `Referer` values would otherwise add
 * a counter row per visit. The statistics show the top 20 plus `other`, so 100 a day keeps them exact
 * for every ordinary link.
 */
export const MAX_KEYS_PER_DAY = 100;

/** The key the counts beyond {@link MAX_KEYS_PER_DAY} go to. */
export const OTHER_KEY = 'other';

/**
 * How many UTC days of counters are kept, today included; older ones are pruned. A range of statistics
 * spans at most 366 days and ends today at the latest (in its zone): in a zone up to 14 hours off UTC its
 * hours reach back 367 UTC days before today. Older ranges read whatever is left (nothing).
 */
export const COUNTERS_KEPT_DAYS = 368;

/** Whether the dimension counts per key (the others use the key `''`). */
export function isKeyedDimension(dimension: VisitDimension): boolean {
  return dimension !== 'total' && dimension !== 'bots' && dimension !== 'unique';
}

/**
 * The key an increment lands on under the per-day limit: its own when the store holds it already or
 * holds fewer than {@link MAX_KEYS_PER_DAY} other keys of that link, day and dimension, else `other`.
 * `heldKeys` counts the stored keys other than `other`. Every store applies this rule in `record`.
 */
export function keyWithinLimit(increment: CounterIncrement, exists: boolean, heldKeys: number): string {
  if (exists || !isKeyedDimension(increment.dimension) || heldKeys < MAX_KEYS_PER_DAY) return increment.key;
  return OTHER_KEY;
}

/** `counts` with at most {@link MAX_KEYS_PER_DAY} keys: the largest kept, the rest summed into `other`. */
export function capKeys(counts: Map<string, number>): Map<string, number> {
  if (counts.size <= MAX_KEYS_PER_DAY) return counts;
  const sorted = [...counts].sort(([, a], [, b]) => b - a);
  const kept = new Map(sorted.slice(0, MAX_KEYS_PER_DAY));
  for (const [, count] of sorted.slice(MAX_KEYS_PER_DAY)) {
    kept.set(OTHER_KEY, (kept.get(OTHER_KEY) ?? 0) + count);
  }
  return kept;
}
