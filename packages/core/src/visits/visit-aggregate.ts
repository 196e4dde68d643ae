import type { ClickIncrement, VisitBatch } from '../ports.js';
import type { VisitProfile } from './classify.js';
import { countInHour, emptyBucket, keyedOf, see } from './visit-bucket.js';
import type { Bucket, Tally } from './visit-bucket.js';
import { partsOf } from './visit-rows.js';
import { hashVisitor } from './visitor-hash.js';

/** One human visit, classified (the IP only inside its profile's visitor, which lives until the flush). */
export interface HumanVisit {
  readonly linkId: string;
  readonly day: string;
  readonly at: number;
  readonly counted: boolean;
  readonly profile: VisitProfile;
  /** The redirect rule that answered, or null for a link without rules. */
  readonly rule: string | null;
  /** The split test's entry that answered, or null for a link without a split. */
  readonly variant: string | null;
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
  /** A bot's visit at `at` (epoch ms) on its UTC day `day`. */
  addBot(linkId: string, day: string, at: number): void;
  /** Adds a batch back (a failed write), so nothing is lost or counted twice. */
  addBatch(batch: VisitBatch): void;
  /**
   * The rows, in parts of about `maxRows` rows (see `partsOf`), each built when asked for: a
   * flush turns a large aggregate into rows a part at a time, answering requests in between, instead
   * of in one long stretch of the event loop. Only for an aggregate no visit is added to any more.
   */
  parts(maxRows: number): Iterator<VisitBatch, void, undefined>;
}

/** An empty aggregate; the recorder starts a new one for every flush. */
export function createVisitAggregate(): VisitAggregate {
  return new BucketAggregate();
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
      if (countInHour(bucket, 'total', hourOfDay(v.at), 1)) this.rowCount++;
      if (bucket.clicks === 0) this.rowCount++;
      bucket.clicks++;
      if (v.at > bucket.lastClickAt) bucket.lastClickAt = v.at;
      if (v.rule !== null) this.tally(keyedOf(bucket).rule, v.rule, 1);
      if (v.variant !== null) this.tally(keyedOf(bucket).variant, v.variant, 1);
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

  addBot(linkId: string, day: string, at: number): void {
    if (countInHour(this.bucketOf(linkId, day), 'bots', hourOfDay(at), 1)) this.rowCount++;
  }

  addBatch(batch: VisitBatch): void {
    for (const c of batch.counters) {
      const bucket = this.bucketOf(c.linkId, c.day);
      if (c.dimension === 'total' || c.dimension === 'bots') {
        if (countInHour(bucket, c.dimension, Number(c.key), c.count)) this.rowCount++;
      } else if (c.dimension !== 'unique') this.tally(keyedOf(bucket)[c.dimension], c.key, c.count);
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
}

/** The UTC hour (0-23) of an epoch-millisecond time. */
const hourOfDay = (at: number): number => Math.floor(at / 3_600_000) % 24;
