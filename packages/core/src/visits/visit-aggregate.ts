import type { ClickIncrement, CounterIncrement, VisitBatch, VisitorSighting } from '../ports.js';
import type { VisitProfile, Visitor } from './classify.js';
import { capKeys } from './counter-keys.js';
import { hashVisitor } from './visitor-hash.js';

/** A count bumped in place, so an increment costs one map look-up. */
interface Tally {
  n: number;
}

/** The counts of one link on one day, as visits are folded in. */
interface Bucket {
  readonly linkId: string;
  readonly day: string;
  total: number;
  bots: number;
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
interface KeyedCounts {
  readonly device: Map<string, Tally>;
  readonly browser: Map<string, Tally>;
  readonly referrer: Map<string, Tally>;
  readonly country: Map<string, Tally>;
  /** Which redirect rule answered (`0`, `1`, … or `default`), for links with rules only. */
  readonly rule: Map<string, Tally>;
  /**
   * Visits per profile object of this batch: a visit costs one look-up by identity here; the device,
   * browser, referrer and country counters are summed from these when the batch is written.
   */
  readonly profiles: Map<VisitProfile, Tally>;
}

/** One human visit, classified (the IP only inside its profile's visitor, which lives until the flush). */
export interface HumanVisit {
  readonly linkId: string;
  readonly day: string;
  readonly at: number;
  readonly counted: boolean;
  readonly profile: VisitProfile;
  /** The redirect rule that answered, or null for a link without rules. */
  readonly rule: string | null;
  /** The secret salt of `day`, for the visitor hash. */
  readonly salt: string;
}

/**
 * Per-link, per-day counters in memory: each visit is folded in as it comes (a few map look-ups), so
 * a flush only turns the buckets into rows. Memory grows with the links and keys seen, not the visits.
 */
export interface VisitAggregate {
  /** How many rows a flush of this aggregate writes: counters, visitor hashes and link click updates. */
  rows(): number;
  addHuman(visit: HumanVisit): void;
  addBot(linkId: string, day: string): void;
  /** Adds a batch back (a failed write), so nothing is lost or counted twice. */
  addBatch(batch: VisitBatch): void;
  /**
   * The rows, in parts of about `maxRows` rows (see {@link partsOf}), each built when asked for: a
   * flush turns a large aggregate into rows a part at a time, answering requests in between, instead
   * of in one long stretch of the event loop. Only for an aggregate no visit is added to any more.
   */
  parts(maxRows: number): Iterator<VisitBatch, void, undefined>;
}

/** An empty aggregate; the recorder starts a new one for every flush. */
export function createVisitAggregate(): VisitAggregate {
  return new BucketAggregate();
}

/** A new link's counts for a day, all zero. */
const emptyBucket = (linkId: string, day: string): Bucket => ({
  linkId,
  day,
  total: 0,
  bots: 0,
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
function keyedOf(bucket: Bucket): KeyedCounts {
  if (bucket.keyed !== undefined) return bucket.keyed;
  const keyed: KeyedCounts = {
    device: new Map(),
    browser: new Map(),
    referrer: new Map(),
    country: new Map(),
    rule: new Map(),
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
function see(bucket: Bucket, visitor: Visitor): boolean {
  const seen = bucket.seen;
  if (seen === undefined) bucket.seen = visitor;
  else if (seen instanceof Set) {
    if (seen.has(visitor)) return false;
    seen.add(visitor);
  } else if (seen === visitor) return false;
  else bucket.seen = new Set([seen, visitor]);
  return true;
}

/** The aggregate's buckets, by day then link, and the count of rows they will write. */
class BucketAggregate implements VisitAggregate {
  private readonly buckets = new Map<string, Map<string, Bucket>>();
  // Nearly every visit falls on the day of the one before: its map is kept at hand.
  private lastDay = '';
  private lastByLink: Map<string, Bucket> | undefined;
  // ... and nearly every visit follows one of the same link (a link in fashion, a burst of one client).
  private lastBucket: Bucket | undefined;
  // Clicks of a failed write, added back (they carry no day, so they stay out of the buckets).
  private readonly carriedClicks = new Map<string, ClickIncrement>();
  private rowCount = 0;

  rows(): number {
    return this.rowCount;
  }

  addHuman(v: HumanVisit): void {
    const bucket = this.bucketOf(v.linkId, v.day);
    const { visitor, referrer, country } = v.profile;
    // a counted visit's click and counters were written with its atomic click: only its hash waits
    if (!v.counted) {
      if (bucket.total === 0) this.rowCount++;
      bucket.total++;
      if (bucket.clicks === 0) this.rowCount++;
      bucket.clicks++;
      if (v.at > bucket.lastClickAt) bucket.lastClickAt = v.at;
      if (v.rule !== null) this.tally(keyedOf(bucket).rule, v.rule, 1);
      // the same profile as the bucket's last visit: its tally is at hand, its visitor already seen
      if (v.profile === bucket.lastProfile) return void bucket.lastTally!.n++;
      if (bucket.keyed === undefined && bucket.lastProfile === undefined) {
        // the bucket's first profile: its four keys are four rows, held by the profile until another comes
        bucket.lastProfile = v.profile;
        bucket.lastTally = { n: 1 };
        this.rowCount += 4;
      } else {
        const keyed = keyedOf(bucket);
        let visits = keyed.profiles.get(v.profile);
        bucket.lastProfile = v.profile;
        if (visits !== undefined) {
          bucket.lastTally = visits;
          return void visits.n++;
        }
        // a profile new to this link and day: its counter keys, and its visitor's hash once
        keyed.profiles.set(v.profile, (visits = { n: 1 }));
        bucket.lastTally = visits;
        this.tally(keyed.device, visitor.description.device, 0);
        this.tally(keyed.browser, visitor.description.browser, 0);
        this.tally(keyed.referrer, referrer, 0);
        this.tally(keyed.country, country, 0);
      }
    }
    if (!see(bucket, visitor)) return;
    this.addHash(bucket, hashVisitor(v.salt, v.linkId, visitor.ip, visitor.userAgent));
  }

  addBot(linkId: string, day: string): void {
    this.add(this.bucketOf(linkId, day), 'bots', 1);
  }

  addBatch(batch: VisitBatch): void {
    for (const c of batch.counters) {
      const bucket = this.bucketOf(c.linkId, c.day);
      if (c.dimension === 'total' || c.dimension === 'bots') this.add(bucket, c.dimension, c.count);
      else if (c.dimension !== 'unique') this.tally(keyedOf(bucket)[c.dimension], c.key, c.count);
    }
    for (const c of batch.clicks) {
      const prior = this.carriedClicks.get(c.linkId);
      if (prior === undefined) this.rowCount++;
      this.carriedClicks.set(c.linkId, {
        linkId: c.linkId,
        count: (prior?.count ?? 0) + c.count,
        lastClickAt: Math.max(prior?.lastClickAt ?? 0, c.lastClickAt),
      });
    }
    for (const v of batch.visitors) this.addHash(this.bucketOf(v.linkId, v.day), v.hash);
  }

  parts(maxRows: number): Iterator<VisitBatch, void, undefined> {
    return partsOf(this.buckets, this.carriedClicks, maxRows);
  }

  private tally(counts: Map<string, Tally>, key: string, by: number): void {
    const prior = counts.get(key);
    if (prior !== undefined) prior.n += by;
    else {
      counts.set(key, { n: by });
      this.rowCount++;
    }
  }

  private addHash(bucket: Bucket, hash: string): void {
    const hashes = bucket.hashes;
    if (hashes === undefined) bucket.hashes = hash;
    else if (typeof hashes === 'string') {
      if (hashes === hash) return;
      bucket.hashes = new Set([hashes, hash]);
    } else {
      if (hashes.has(hash)) return;
      hashes.add(hash);
    }
    this.rowCount += 2; // the hash, and perhaps one more unique visitor
  }

  private bucketOf(linkId: string, day: string): Bucket {
    const last = this.lastBucket;
    if (last !== undefined && last.linkId === linkId && last.day === day) return last;
    this.lastBucket = this.findBucket(linkId, day);
    return this.lastBucket;
  }

  private findBucket(linkId: string, day: string): Bucket {
    let byLink = day === this.lastDay ? this.lastByLink : this.buckets.get(day);
    if (byLink === undefined) this.buckets.set(day, (byLink = new Map()));
    this.lastDay = day;
    this.lastByLink = byLink;
    let bucket = byLink.get(linkId);
    if (bucket === undefined) byLink.set(linkId, (bucket = emptyBucket(linkId, day)));
    return bucket;
  }

  private add(bucket: Bucket, field: 'total' | 'bots' | 'clicks', by: number): void {
    if (bucket[field] === 0) this.rowCount++;
    bucket[field] += by;
  }
}

/**
 * The rows of an aggregate in parts of about `maxRows` rows, each built when the next is asked for, the
 * links in ascending id (so each part continues the last one's range): one click update per link (its
 * days and the carried clicks summed), its counters, then the visitor hashes. A link's click update and all its counters share a part (a part grows past `maxRows` for one link
 * rather than split them), so a crash between parts never leaves `clicks` and `total` apart.
 */
function* partsOf(
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
    for (const b of days) countersOf(b, counters);
    const size = (click === null ? 0 : 1) + counters.length;
    if (rows > 0 && rows + size > maxRows) {
      yield part;
      part = emptyPart();
      rows = 0;
    }
    if (click !== null) part.clicks.push(click);
    part.counters.push(...counters);
    rows += size;
  }
  for (const days of daysOf.values()) {
    for (const { linkId, day, hashes } of days) {
      for (const hash of typeof hashes === 'string' ? [hashes] : (hashes ?? [])) {
        if (rows >= maxRows) {
          yield part;
          part = emptyPart();
          rows = 0;
        }
        part.visitors.push({ linkId, day, hash });
        rows++;
      }
    }
  }
  if (rows > 0) yield part;
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
  if (b.total > 0) counters.push({ linkId, day, dimension: 'total', key: '', count: b.total });
  if (b.bots > 0) counters.push({ linkId, day, dimension: 'bots', key: '', count: b.bots });
  const keyed = b.keyed;
  if (keyed === undefined) return countersOfOneProfile(b, counters);
  const counts = {
    device: countsOf(keyed.device),
    browser: countsOf(keyed.browser),
    referrer: countsOf(keyed.referrer),
    country: countsOf(keyed.country),
    rule: countsOf(keyed.rule),
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
type CountedDimension = 'device' | 'browser' | 'referrer' | 'country' | 'rule';

const countsOf = (tallies: Map<string, Tally>): Map<string, number> =>
  new Map([...tallies].map(([key, tally]) => [key, tally.n]));

const emptyPart = () => ({
  clicks: [] as ClickIncrement[],
  counters: [] as CounterIncrement[],
  visitors: [] as VisitorSighting[],
});
