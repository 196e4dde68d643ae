import type { VisitProfile, Visitor } from './classify.js';

// The counts of one link on one day, as a visit aggregate folds visits in (see visit-aggregate.ts).

/** A count bumped in place, so an increment costs one map look-up. */
export interface Tally {
  n: number;
}

/** The counts of one link on one day, as visits are folded in. */
export interface Bucket {
  readonly linkId: string;
  readonly day: string;
  /** Human visits and bot visits of the day, all hours summed. */
  total: number;
  bots: number;
  /** The UTC hour (0-23) of every `total` and `bots` count so far, while they share one; else -1. */
  hour: number;
  /** `total` per UTC hour (0-23) and `bots` (24-47), once the bucket's counts fall in two hours. */
  hourly: Map<number, number> | undefined;
  /** Human clicks to add to the link (capped links counted theirs at request time). */
  clicks: number;
  lastClickAt: number;
  /**
   * The counts per key, once the bucket has a second profile, a rule's visit or the counts of a failed
   * write; until then its one profile ({@link lastProfile}) holds its four keys. Most buckets of a long
   * tail never need it: a flush of cold visits allocated a map per dimension for each of them.
   */
  keyed: KeyedCounts | undefined;
  /** The salted hashes of the bucket's visitors (never an IP): the first alone, then a set. */
  hashes: string | Set<string> | undefined;
  /**
   * The visitor objects of this batch counted here (each adds its hash once): the first alone, then a
   * set.
   */
  seen: Visitor | Set<Visitor> | undefined;
  /** The profile of the bucket's last uncounted visit and its tally: runs of one profile skip the map. */
  lastProfile: VisitProfile | undefined;
  lastTally: Tally | undefined;
}

/** A bucket's counts per key (see {@link Bucket.keyed}). */
export interface KeyedCounts {
  readonly device: Map<string, Tally>;
  readonly browser: Map<string, Tally>;
  readonly referrer: Map<string, Tally>;
  readonly country: Map<string, Tally>;
  /** Which redirect rule answered (`0`, `1`, … or `default`), for links with rules only. */
  readonly rule: Map<string, Tally>;
  /** Which entry of a split test answered (`0`, `1`, …), for links with a split only. */
  readonly variant: Map<string, Tally>;
  /**
   * Visits per profile object of this batch: a visit costs one look-up by identity here; the device,
   * browser, referrer and country counters are summed from these when the batch is written.
   */
  readonly profiles: Map<VisitProfile, Tally>;
}

/** A new link's counts for a day, all zero. */
export const emptyBucket = (linkId: string, day: string): Bucket => ({
  linkId,
  day,
  total: 0,
  bots: 0,
  hour: -1,
  hourly: undefined,
  clicks: 0,
  lastClickAt: 0,
  keyed: undefined,
  hashes: undefined,
  seen: undefined,
  lastProfile: undefined,
  lastTally: undefined,
});

/**
 * The bucket's counts per key, made when first needed: its one profile so far moves in, its four keys
 * tallied at zero (they were counted as rows when it came).
 */
export function keyedOf(bucket: Bucket): KeyedCounts {
  if (bucket.keyed !== undefined) return bucket.keyed;
  const keyed: KeyedCounts = {
    device: new Map(),
    browser: new Map(),
    referrer: new Map(),
    country: new Map(),
    rule: new Map(),
    variant: new Map(),
    profiles: new Map(),
  };
  const { lastProfile: profile, lastTally: tally } = bucket;
  if (profile !== undefined && tally !== undefined) {
    keyed.profiles.set(profile, tally);
    keyed.device.set(profile.visitor.description.device, { n: 0 });
    keyed.browser.set(profile.visitor.description.browser, { n: 0 });
    keyed.referrer.set(profile.referrer, { n: 0 });
    keyed.country.set(profile.country, { n: 0 });
  }
  return (bucket.keyed = keyed);
}

/** Marks `visitor` seen in the bucket; false when it was already. */
export function see(bucket: Bucket, visitor: Visitor): boolean {
  const seen = bucket.seen;
  if (seen === undefined) bucket.seen = visitor;
  else if (seen instanceof Set) {
    if (seen.has(visitor)) return false;
    seen.add(visitor);
  } else if (seen === visitor) return false;
  else bucket.seen = new Set([seen, visitor]);
  return true;
}

/**
 * Adds `by` visits of UTC hour `hour` to the bucket's `total` or `bots`; true when that hour's counter
 * is a new row. Nearly every bucket of a flush sees one hour only: a map is made for the others.
 */
export function countInHour(bucket: Bucket, field: 'total' | 'bots', hour: number, by: number): boolean {
  let hourly = bucket.hourly;
  if (hourly === undefined) {
    if (bucket.total + bucket.bots === 0) bucket.hour = hour;
    if (bucket.hour === hour) {
      const fresh = bucket[field] === 0;
      bucket[field] += by;
      return fresh;
    }
    // a second hour: the counts so far move to the map
    bucket.hourly = hourly = new Map();
    if (bucket.total > 0) hourly.set(bucket.hour, bucket.total);
    if (bucket.bots > 0) hourly.set(24 + bucket.hour, bucket.bots);
    bucket.hour = -1;
  }
  const slot = (field === 'bots' ? 24 : 0) + hour;
  const prior = hourly.get(slot) ?? 0;
  hourly.set(slot, prior + by);
  bucket[field] += by;
  return prior === 0;
}

/** The bucket's `total` and `bots` counts per UTC hour: `[dimension, hour (00-23), count]`. */
export function hourCounts(bucket: Bucket): ['total' | 'bots', string, number][] {
  const pad = (hour: number) => (hour < 10 ? `0${hour}` : String(hour));
  if (bucket.hourly === undefined) {
    const counts: ['total' | 'bots', string, number][] = [];
    if (bucket.total > 0) counts.push(['total', pad(bucket.hour), bucket.total]);
    if (bucket.bots > 0) counts.push(['bots', pad(bucket.hour), bucket.bots]);
    return counts;
  }
  return [...bucket.hourly].map(([slot, n]) =>
    slot < 24 ? ['total', pad(slot), n] : ['bots', pad(slot - 24), n],
  );
}
