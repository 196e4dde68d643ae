import type { ClickIncrement } from '../ports.js';

// The port of visit statistics and its types (named in ports.ts too).

/**
 * The dimensions of visit counters. `total` and `bots` are counted per UTC hour: their key is the hour,
 * `00`-`23` (a key `''`, written before hourly counters, reads as `00`); `unique` uses the key `''`.
 */
export type VisitDimension =
  'total' | 'bots' | 'unique' | 'country' | 'referrer' | 'device' | 'browser' | 'rule' | 'variant';

/** An increment of one per-link, per-day, per-dimension counter. `day` is `YYYY-MM-DD` (UTC). */
export interface CounterIncrement {
  readonly linkId: string;
  readonly day: string;
  readonly dimension: VisitDimension;
  readonly key: string;
  readonly count: number;
}

/** A salted visitor hash seen on a day (never an IP). */
export interface VisitorSighting {
  readonly linkId: string;
  readonly day: string;
  readonly hash: string;
}

/**
 * Everything one flush of the visit buffer writes, applied in a single transaction. A link's click
 * increment travels with its counters: a batch is split by link, never between the two.
 */
export interface VisitBatch {
  /** Added to the links' `clicks` (links counted already at request time are not listed). */
  readonly clicks: readonly ClickIncrement[];
  readonly counters: readonly CounterIncrement[];
  /** Each hash not yet seen for (link, day) is kept and adds one to that day's `unique` counter. */
  readonly visitors: readonly VisitorSighting[];
}

/** A count per key: a day for by-day series, a country/referrer/... otherwise. */
export interface KeyCount {
  readonly key: string;
  readonly count: number;
}

/** A summed counter over a window, per dimension and key. */
export interface DimensionCount extends KeyCount {
  readonly dimension: VisitDimension;
}

/** A counter summed over links, per day, dimension and key (the hour, for `total` and `bots`). */
export interface DayCount extends DimensionCount {
  readonly day: string;
}

/** {@link VisitStore.countsByDayOf} and {@link VisitStore.countsByKeyOf} of all an account's links. */
export interface AccountVisitReads {
  countsByDay(
    accountId: string,
    dimensions: readonly VisitDimension[],
    fromDay: string,
    toDay: string,
  ): Promise<DayCount[]>;
  /** The keyed dimensions only, as {@link VisitStore.countsByKeyOf}. */
  countsByKey(accountId: string, fromDay: string, toDay: string): Promise<DimensionCount[]>;
  /**
   * The `limit` links of the account with the largest `total` over the UTC days [fromDay, toDay] (whole
   * days: a zone's range reads the UTC days its hours fall in), largest first, ties by id; links
   * without visits omitted.
   */
  topLinks(accountId: string, fromDay: string, toDay: string, limit: number): Promise<KeyCount[]>;
}

/**
 * Aggregated visit statistics: counters per link, day and dimension, never one row per visit. A flush
 * is appended to a visit log (one entry per link, plus the visitor hashes new to the link and day), and
 * {@link VisitStore.compact} folds the log into the counters later; every read adds the unfolded tail,
 * so what a flush wrote is read at once, and reads never see a visit twice or not at all.
 */
export interface VisitStore {
  /**
   * Applies a flush atomically: the links' clicks, the `link.visited` events and the log entries in one
   * transaction. Increments of links that no longer exist are dropped. A keyed counter (country,
   * referrer, device, browser) whose key is new for its link and day lands on `other` once that link,
   * day and dimension hold `MAX_KEYS_PER_DAY` keys (`keyWithinLimit`), as read and as folded.
   */
  record(batch: VisitBatch): Promise<void>;
  /**
   * Folds up to about `maxEntries` entries of the visit log into the counters and visitor sets and
   * deletes them, in one transaction: a crash folds all of them or none. Returns how many it folded;
   * 0 when the log is empty or another compactor (another node) holds it.
   */
  compact(maxEntries: number): Promise<number>;
  /** About how many entries the visit log holds (a cheap look, for the compactor's schedule). */
  logSize(): Promise<number>;
  /** Per-day sums of one dimension (all keys) for days in [fromDay, toDay], ascending, days without data omitted. */
  countsByDay(linkId: string, dimension: VisitDimension, fromDay: string, toDay: string): Promise<KeyCount[]>;
  /** Sums per (dimension, key) over days in [fromDay, toDay]. */
  countsByKey(linkId: string, fromDay: string, toDay: string): Promise<DimensionCount[]>;
  /**
   * Sums over the links per (day, dimension, key) of the given dimensions, for days in [fromDay, toDay],
   * in no particular order (zero sums omitted): `total` and `bots` per UTC hour (key `00`-`23`), for
   * statistics in any time zone. One query whatever the number of links.
   */
  countsByDayOf(
    linkIds: readonly string[],
    dimensions: readonly VisitDimension[],
    fromDay: string,
    toDay: string,
  ): Promise<DayCount[]>;
  /**
   * {@link VisitStore.countsByKey} summed over the links, in one query, for the keyed dimensions only
   * (`UNKEYED_DIMENSIONS`, the hourly `total` and `bots` and `unique`, are read by day).
   */
  countsByKeyOf(linkIds: readonly string[], fromDay: string, toDay: string): Promise<DimensionCount[]>;
  /**
   * Each link's `total` over the UTC hours [fromHour, toHour] (`YYYY-MM-DDTHH`), key the link id, in no
   * particular order (links without visits omitted), in one query.
   */
  totalsByLink(linkIds: readonly string[], fromHour: string, toHour: string): Promise<KeyCount[]>;
  /**
   * The reads of every link of an account from sums the store keeps per account, unfolded tail added, so
   * an account's statistics read as fast with 10,000 links as with ten. Optional: without them an
   * account's links are read with the reads across links above.
   */
  readonly ofAccount?: AccountVisitReads;
  /** The secret salt of `day`: the stored one, or `candidate` stored now when there is none. */
  salt(day: string, candidate: string): Promise<string>;
  /** Deletes salts of days before `day`. */
  pruneSalts(beforeDay: string): Promise<void>;
  /** Deletes visitor hashes of days before `day` (their counts stay in the `unique` counters). */
  pruneVisitors(beforeDay: string): Promise<void>;
  /** Deletes the counters of days before `day` (older than any statistics window). */
  pruneCounters(beforeDay: string): Promise<void>;
}
