import type { CounterIncrement, VisitBatch, VisitorDescription } from '../ports.js';

/** The counts of one link on one day, as visits are folded in. */
interface Bucket {
  readonly linkId: string;
  readonly day: string;
  total: number;
  bots: number;
  readonly device: Map<string, number>;
  readonly browser: Map<string, number>;
  readonly referrer: Map<string, number>;
  readonly country: Map<string, number>;
  readonly visitors: Set<string>;
}

/** One classified visit, ready to be counted (no IP: only its country and the visitor hash). */
export interface ClassifiedVisit {
  readonly linkId: string;
  readonly day: string;
  readonly at: number;
  readonly counted: boolean;
  readonly description: VisitorDescription;
  readonly referrer: string;
  readonly country: string;
  readonly visitorHash: string;
}

/**
 * Per-link, per-day counters in memory: each visit is folded in as it comes (a few map increments), so
 * a flush only turns the buckets into rows. Memory grows with the links and keys seen, not the visits.
 */
export interface VisitAggregate {
  /** How many rows a flush of this aggregate writes: counters, visitor hashes and link click updates. */
  rows(): number;
  addHuman(visit: ClassifiedVisit): void;
  addBot(linkId: string, day: string): void;
  /** Adds a batch back (a failed write), so nothing is lost or counted twice. */
  addBatch(batch: VisitBatch): void;
  toBatch(): VisitBatch;
}

/** An empty aggregate; the recorder starts a new one for every flush. */
export function createVisitAggregate(): VisitAggregate {
  const buckets = new Map<string, Map<string, Bucket>>();
  let rows = 0;
  const increment = (counts: Map<string, number>, key: string, by: number): void => {
    const prior = counts.get(key);
    if (prior === undefined) rows++;
    counts.set(key, (prior ?? 0) + by);
  };
  const addVisitor = (bucket: Bucket, hash: string): void => {
    if (bucket.visitors.has(hash)) return;
    bucket.visitors.add(hash);
    rows += 2; // the hash, and perhaps one more unique visitor
  };
  const bucketOf = (linkId: string, day: string): Bucket => {
    let byLink = buckets.get(day);
    if (byLink === undefined) buckets.set(day, (byLink = new Map()));
    let bucket = byLink.get(linkId);
    if (bucket === undefined) {
      bucket = {
        linkId,
        day,
        total: 0,
        bots: 0,
        device: new Map(),
        browser: new Map(),
        referrer: new Map(),
        country: new Map(),
        visitors: new Set(),
      };
      byLink.set(linkId, bucket);
    }
    return bucket;
  };
  // Human clicks still to add to each link (capped links counted theirs at request time).
  const clicks = new Map<string, { linkId: string; count: number; lastClickAt: number }>();
  const addClicks = (linkId: string, count: number, at: number) => {
    const prior = clicks.get(linkId);
    if (prior === undefined) {
      clicks.set(linkId, { linkId, count, lastClickAt: at });
      rows++;
    } else {
      prior.count += count;
      prior.lastClickAt = Math.max(prior.lastClickAt, at);
    }
  };

  const add = (bucket: Bucket, field: 'total' | 'bots', by: number): void => {
    if (bucket[field] === 0) rows++;
    bucket[field] += by;
  };

  return {
    rows: () => rows,
    addHuman(v) {
      const bucket = bucketOf(v.linkId, v.day);
      add(bucket, 'total', 1);
      if (!v.counted) addClicks(v.linkId, 1, v.at);
      increment(bucket.device, v.description.device, 1);
      increment(bucket.browser, v.description.browser, 1);
      increment(bucket.referrer, v.referrer, 1);
      increment(bucket.country, v.country, 1);
      addVisitor(bucket, v.visitorHash);
    },
    addBot(linkId, day) {
      add(bucketOf(linkId, day), 'bots', 1);
    },
    addBatch(batch) {
      for (const c of batch.counters) {
        const bucket = bucketOf(c.linkId, c.day);
        if (c.dimension === 'total' || c.dimension === 'bots') add(bucket, c.dimension, c.count);
        else if (c.dimension !== 'unique') increment(bucket[c.dimension], c.key, c.count);
      }
      for (const c of batch.clicks) addClicks(c.linkId, c.count, c.lastClickAt);
      for (const v of batch.visitors) addVisitor(bucketOf(v.linkId, v.day), v.hash);
    },
    toBatch: () => ({ clicks: [...clicks.values()], ...countersOf(buckets) }),
  };
}

function countersOf(buckets: Map<string, Map<string, Bucket>>): Omit<VisitBatch, 'clicks'> {
  const counters: CounterIncrement[] = [];
  const visitors: VisitBatch['visitors'][number][] = [];
  for (const byLink of buckets.values()) {
    for (const b of byLink.values()) {
      const { linkId, day } = b;
      if (b.total > 0) counters.push({ linkId, day, dimension: 'total', key: '', count: b.total });
      if (b.bots > 0) counters.push({ linkId, day, dimension: 'bots', key: '', count: b.bots });
      for (const dimension of ['device', 'browser', 'referrer', 'country'] as const) {
        for (const [key, count] of b[dimension]) counters.push({ linkId, day, dimension, key, count });
      }
      for (const hash of b.visitors) visitors.push({ linkId, day, hash });
    }
  }
  return { counters, visitors };
}

/**
 * `batch` in parts of at most `maxRows` rows (click updates, counters, visitor hashes), in order: each
 * part is written in a transaction of its own.
 */
export function splitBatch(batch: VisitBatch, maxRows: number): VisitBatch[] {
  const { clicks, counters, visitors } = batch;
  const size = clicks.length + counters.length + visitors.length;
  const parts: VisitBatch[] = [];
  for (let start = 0; start < size; start += maxRows) {
    const end = start + maxRows;
    parts.push({
      clicks: part(clicks, 0, start, end),
      counters: part(counters, clicks.length, start, end),
      visitors: part(visitors, clicks.length + counters.length, start, end),
    });
  }
  return parts;
}

/** The items of `list` (which starts at row `offset` of the whole) among rows [start, end). */
const part = <T>(list: readonly T[], offset: number, start: number, end: number): T[] =>
  list.slice(Math.max(0, start - offset), Math.max(0, end - offset));
