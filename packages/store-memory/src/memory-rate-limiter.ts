import type { RateDecision, RateLimiter, RateWindow } from '@shortener/core';

/** A RateLimiter in memory that can tell how many keys it holds. */
export interface MemoryRateLimiter extends RateLimiter {
  /** How many keys hold hits (keys whose hits all left their windows are swept away). */
  keyCount(): number;
}

/**
 * The hits of one key, oldest first, from `head` on: their times and the running total of their costs
 * (`total[i]` sums every cost up to and including hit i). Hits at the same millisecond share one entry.
 * A window's usage is then a binary search and a subtraction, however many hits the key holds.
 */
interface Bucket {
  readonly at: number[];
  readonly total: number[];
  head: number;
  /** The longest window this key was checked against: older hits can be forgotten. */
  spanMs: number;
}

/** The live hits of a bucket inside one window: indexes [from, bucket.at.length). */
interface WindowState {
  readonly window: RateWindow;
  readonly from: number;
  readonly used: number;
}

/** Every this many hits, keys whose hits all expired are dropped. */
const SWEEP_EVERY = 1000;

/** Options of {@link createMemoryRateLimiter}. */
export interface MemoryRateLimiterOptions {
  /**
   * How many keys are kept at most (default 50,000: about 30 MB). Past it the key hit least recently
   * is forgotten, and its client starts afresh: a day's window keeps a key for every address that
   * created a link that day, so without a bound clients that change address grow memory without end.
   */
  readonly maxKeys?: number;
}

/**
 * Creates a rolling-window RateLimiter in memory: per key a list of (time, cost) hits, where a hit
 * counts in a window while `now - at < windowMs`. Refused hits are not recorded.
 */
export function createMemoryRateLimiter(options: MemoryRateLimiterOptions = {}): MemoryRateLimiter {
  const maxKeys = Math.max(1, options.maxKeys ?? 50_000);
  // Map order is the order of the last hits: the first key is the one hit least recently.
  const buckets = new Map<string, Bucket>();
  let hitsSinceSweep = 0;

  const sweep = (now: number): void => {
    for (const [key, bucket] of buckets) {
      forgetExpired(bucket, now);
      if (size(bucket) === 0) buckets.delete(key);
    }
  };

  // A live iterator from the front, kept: a fresh one would walk every hole V8 leaves where keys were
  // deleted (moved back or forgotten) since the table was last rebuilt, up to thousands of them.
  let fromOldest = buckets.keys();
  const forgetLeastRecent = (): void => {
    let oldest = fromOldest.next();
    if (oldest.done === true) {
      fromOldest = buckets.keys();
      oldest = fromOldest.next();
    }
    if (oldest.done !== true) buckets.delete(oldest.value);
  };

  const hit = (key: string, windows: readonly RateWindow[], cost: number, now: number): RateDecision => {
    if (windows.length === 0 || cost < 0) throw new RangeError('A hit needs windows and a cost >= 0.');
    hitsSinceSweep += 1;
    if (hitsSinceSweep >= SWEEP_EVERY) {
      hitsSinceSweep = 0;
      sweep(now);
    }
    const spanMs = Math.max(...windows.map((w) => w.windowMs));
    const held = buckets.get(key);
    const bucket = held ?? { at: [], total: [], head: 0, spanMs };
    bucket.spanMs = Math.max(bucket.spanMs, spanMs);
    forgetExpired(bucket, now);
    const states = windows.map((window) => windowState(bucket, window, now));
    const allowed = states.every((s) => s.used + cost <= s.window.limit);
    const decision = allowed
      ? allowedDecision(bucket, states, cost, now)
      : refusedDecision(bucket, states, cost, now);
    if (allowed && cost > 0) insertHit(bucket, now, cost);
    if (held !== undefined) buckets.delete(key);
    if (size(bucket) > 0) {
      if (held === undefined && buckets.size >= maxKeys) forgetLeastRecent();
      buckets.set(key, bucket);
    }
    return decision;
  };

  const refund = (key: string, cost: number, at: number): void => {
    const bucket = buckets.get(key);
    if (bucket === undefined || cost <= 0) return;
    const index = firstWhere(bucket, bucket.head, (i) => (bucket.at[i] ?? 0) >= at);
    if (bucket.at[index] !== at) return;
    const held = (bucket.total[index] ?? 0) - totalBefore(bucket, index);
    const back = Math.min(cost, held);
    for (let i = index; i < bucket.total.length; i++) bucket.total[i] = (bucket.total[i] ?? 0) - back;
  };

  return {
    hit: async (key, windows, cost, now) => hit(key, windows, cost, now),
    refund: async (key, cost, at) => refund(key, cost, at),
    keyCount: () => buckets.size,
  };
}

const size = (b: Bucket) => b.at.length - b.head;

/** The running total before hit `i` (0 for the first). */
const totalBefore = (b: Bucket, i: number) => (i > 0 ? (b.total[i - 1] ?? 0) : 0);

/** The first index from `lo` whose hit satisfies `inside`, hits being ordered so that it holds for a suffix. */
function firstWhere(b: Bucket, lo: number, inside: (i: number) => boolean): number {
  let hi = b.at.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (inside(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function forgetExpired(b: Bucket, now: number): void {
  b.head = firstWhere(b, b.head, (i) => now - (b.at[i] ?? 0) < b.spanMs);
  if (b.head > 64 && b.head * 2 > b.at.length) {
    // compact: drop the forgotten hits and rebase the running totals
    const base = totalBefore(b, b.head);
    b.at.splice(0, b.head);
    b.total.splice(0, b.head);
    for (let i = 0; i < b.total.length; i++) b.total[i] = (b.total[i] ?? 0) - base;
    b.head = 0;
  }
}

/** Keeps hits oldest first even when callers pass times slightly out of order. */
function insertHit(b: Bucket, at: number, cost: number): void {
  let index = b.at.length;
  while (index > b.head && (b.at[index - 1] ?? 0) > at) index--;
  if (index > b.head && b.at[index - 1] === at) index--;
  else {
    b.at.splice(index, 0, at);
    b.total.splice(index, 0, totalBefore(b, index));
  }
  for (let i = index; i < b.total.length; i++) b.total[i] = (b.total[i] ?? 0) + cost;
}

function windowState(b: Bucket, window: RateWindow, now: number): WindowState {
  const from = firstWhere(b, b.head, (i) => now - (b.at[i] ?? 0) < window.windowMs);
  const last = b.at.length - 1;
  return { window, from, used: last < from ? 0 : (b.total[last] ?? 0) - totalBefore(b, from) };
}

/**
 * Milliseconds until `units` of the window's hits (indexes `from` on) have left it, oldest first (0 when
 * none need to). A need larger than the whole window can never be met; the window's length is the
 * honest best guess (it is also the answer for a hit just added at `now`).
 */
function msUntilFreed(b: Bucket, from: number, units: number, windowMs: number, now: number): number {
  if (units <= 0) return 0;
  const base = totalBefore(b, from);
  const index = firstWhere(b, from, (i) => (b.total[i] ?? 0) - base >= units);
  return index < b.at.length ? (b.at[index] ?? 0) + windowMs - now : windowMs;
}

/** The tightest window is the one with the fewest units left, then the longest wait for one more. */
function allowedDecision(b: Bucket, states: readonly WindowState[], cost: number, now: number): RateDecision {
  const judged = states.map(({ window, from, used }) => {
    const remaining = window.limit - used - cost;
    const empty = used === 0 && cost === 0;
    return { window, remaining, resetMs: empty ? 0 : msUntilFreed(b, from, 1, window.windowMs, now) };
  });
  const tightest = judged.reduce((a, b) =>
    b.remaining < a.remaining || (b.remaining === a.remaining && b.resetMs > a.resetMs) ? b : a,
  );
  const { window, remaining, resetMs } = tightest;
  return { allowed: true, limit: window.limit, remaining, resetMs, retryAfterMs: 0 };
}

/** The tightest window is the refusing one that keeps the hit out the longest. */
function refusedDecision(b: Bucket, states: readonly WindowState[], cost: number, now: number): RateDecision {
  const judged = states.map(({ window, from, used }) => ({
    window,
    retryAfterMs: msUntilFreed(b, from, used + cost - window.limit, window.windowMs, now),
    resetMs: msUntilFreed(b, from, 1, window.windowMs, now),
  }));
  const tightest = judged.reduce((a, b) => (b.retryAfterMs > a.retryAfterMs ? b : a));
  const { window, retryAfterMs, resetMs } = tightest;
  return { allowed: false, limit: window.limit, remaining: 0, resetMs, retryAfterMs };
}
