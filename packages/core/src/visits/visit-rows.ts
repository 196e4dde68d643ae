import type { ClickIncrement, CounterIncrement, VisitBatch, VisitorSighting } from '../ports.js';
import { capKeys } from './counter-keys.js';
import { hourCounts } from './visit-bucket.js';
import type { Bucket, Tally } from './visit-bucket.js';

// A visit aggregate's buckets turned into the rows a flush writes (see visit-aggregate.ts).

/**
 * The rows of an aggregate in parts of about `maxRows` rows, each built when the next is asked for, the
 * links in ascending id (so each part continues the last one's range): per link one click update (its
 * days and the carried clicks summed), its counters and its visitor hashes. A link's rows share a part
 * (a part grows past `maxRows` for one link rather than split them), so a crash between parts never
 * leaves `clicks` and `total` apart, and a store writes a link's flush as one entry: with the hashes
 * in parts of their own after all counters, every cold visit left two visit-log entries (its counters,
 * then its `unique` a part later), each read, probed and deleted by the compaction.
 */
export function* partsOf(
  buckets: Map<string, Map<string, Bucket>>,
  carried: Map<string, ClickIncrement>,
  maxRows: number,
): Generator<VisitBatch, void, undefined> {
  const daysOf = new Map<string, Bucket[]>();
  for (const byLink of buckets.values()) {
    for (const b of byLink.values()) {
      const days = daysOf.get(b.linkId);
      if (days === undefined) daysOf.set(b.linkId, [b]);
      else days.push(b);
    }
  }
  let part = emptyPart();
  let rows = 0;
  // in ascending link id: a store may append them at one edge of an index (store-sqlite's visit log)
  for (const linkId of [...new Set([...carried.keys(), ...daysOf.keys()])].sort()) {
    const days = daysOf.get(linkId) ?? [];
    const click = clickOf(linkId, carried.get(linkId), days);
    const counters: CounterIncrement[] = [];
    const visitors: VisitorSighting[] = [];
    for (const b of days) {
      countersOf(b, counters);
      sightingsOf(b, visitors);
    }
    const size = (click === null ? 0 : 1) + counters.length + visitors.length;
    if (rows > 0 && rows + size > maxRows) {
      yield part;
      part = emptyPart();
      rows = 0;
    }
    if (click !== null) part.clicks.push(click);
    for (const c of counters) part.counters.push(c);
    for (const v of visitors) part.visitors.push(v);
    rows += size;
  }
  if (rows > 0) yield part;
}

/** Appends the visitor hashes of one link and day to `visitors`. */
function sightingsOf({ linkId, day, hashes }: Bucket, visitors: VisitorSighting[]): void {
  if (hashes === undefined) return;
  if (typeof hashes === 'string') return void visitors.push({ linkId, day, hash: hashes });
  for (const hash of hashes) visitors.push({ linkId, day, hash });
}

/** A link's click update: its buckets' human clicks and any carried from a failed write, or null. */
function clickOf(
  linkId: string,
  carried: ClickIncrement | undefined,
  days: readonly Bucket[],
): ClickIncrement | null {
  let count = carried?.count ?? 0;
  let lastClickAt = carried?.lastClickAt ?? 0;
  for (const b of days) {
    count += b.clicks;
    if (b.clicks > 0 && b.lastClickAt > lastClickAt) lastClickAt = b.lastClickAt;
  }
  return count > 0 ? { linkId, count, lastClickAt } : null;
}

/** Appends the counters of one link and day to `counters`. */
function countersOf(b: Bucket, counters: CounterIncrement[]): void {
  const { linkId, day } = b;
  for (const [dimension, key, count] of hourCounts(b)) counters.push({ linkId, day, dimension, key, count });
  const keyed = b.keyed;
  if (keyed === undefined) return countersOfOneProfile(b, counters);
  const counts = {
    device: countsOf(keyed.device),
    browser: countsOf(keyed.browser),
    referrer: countsOf(keyed.referrer),
    country: countsOf(keyed.country),
    rule: countsOf(keyed.rule),
    variant: countsOf(keyed.variant),
  };
  const bump = (map: Map<string, number>, key: string, by: number) => map.set(key, (map.get(key) ?? 0) + by);
  for (const [{ visitor, referrer, country }, visits] of keyed.profiles) {
    bump(counts.device, visitor.description.device, visits.n);
    bump(counts.browser, visitor.description.browser, visits.n);
    bump(counts.referrer, referrer, visits.n);
    bump(counts.country, country, visits.n);
  }
  for (const [dimension, byKey] of Object.entries(counts) as [CountedDimension, Map<string, number>][]) {
    for (const [key, count] of capKeys(byKey)) counters.push({ linkId, day, dimension, key, count });
  }
}

/**
 * {@link countersOf} for a bucket without counts per key: at most one profile (a link visited once, or
 * by one client, in the batch: most of a long tail) holds its four keys.
 */
function countersOfOneProfile(b: Bucket, counters: CounterIncrement[]): void {
  const profile = b.lastProfile;
  const n = b.lastTally?.n ?? 0;
  if (profile === undefined || n === 0) return;
  const { linkId, day } = b;
  counters.push(
    { linkId, day, dimension: 'device', key: profile.visitor.description.device, count: n },
    { linkId, day, dimension: 'browser', key: profile.visitor.description.browser, count: n },
    { linkId, day, dimension: 'referrer', key: profile.referrer, count: n },
    { linkId, day, dimension: 'country', key: profile.country, count: n },
  );
}

/** The dimensions counted per key. */
type CountedDimension = 'device' | 'browser' | 'referrer' | 'country' | 'rule' | 'variant';

const countsOf = (tallies: Map<string, Tally>): Map<string, number> =>
  new Map([...tallies].map(([key, tally]) => [key, tally.n]));

const emptyPart = () => ({
  clicks: [] as ClickIncrement[],
  counters: [] as CounterIncrement[],
  visitors: [] as VisitorSighting[],
});
