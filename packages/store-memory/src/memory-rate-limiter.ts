import type { RateDecision, RateLimiter, RateWindow } from '@shortener/core';

/** A RateLimiter in memory that can tell how many keys it holds. */
export interface MemoryRateLimiter extends RateLimiter {
  /** How many keys hold hits (keys whose hits all left their windows are swept away). */
  keyCount(): number;
}

interface Hit {
  readonly at: number;
  readonly cost: number;
}

interface Bucket {
  /** Oldest first. */
  readonly hits: Hit[];
  /** The longest window this key was checked against: older hits can be forgotten. */
  spanMs: number;
}

interface WindowState {
  readonly window: RateWindow;
  /** The hits inside the window, oldest first. */
  readonly hits: readonly Hit[];
  readonly used: number;
}

/** Every this many hits, keys whose hits all expired are dropped, which bounds memory. */
const SWEEP_EVERY = 1000;

/**
 * Creates a rolling-window RateLimiter in memory: per key a list of (time, cost) hits, where a hit
 * counts in a window while `now - at < windowMs`. Refused hits are not recorded.
 */
export function createMemoryRateLimiter(): MemoryRateLimiter {
  const buckets = new Map<string, Bucket>();
  let hitsSinceSweep = 0;

  const sweep = (now: number): void => {
    for (const [key, bucket] of buckets) {
      forgetExpired(bucket, now);
      if (bucket.hits.length === 0) buckets.delete(key);
    }
  };

  const hit = (key: string, windows: readonly RateWindow[], cost: number, now: number): RateDecision => {
    if (windows.length === 0 || cost < 0) throw new RangeError('A hit needs windows and a cost >= 0.');
    hitsSinceSweep += 1;
    if (hitsSinceSweep >= SWEEP_EVERY) {
      hitsSinceSweep = 0;
      sweep(now);
    }
    const spanMs = Math.max(...windows.map((w) => w.windowMs));
    const bucket = buckets.get(key) ?? { hits: [], spanMs };
    bucket.spanMs = Math.max(bucket.spanMs, spanMs);
    forgetExpired(bucket, now);
    const states = windows.map((window) => windowState(bucket.hits, window, now));
    const allowed = states.every((s) => s.used + cost <= s.window.limit);
    if (allowed && cost > 0) insertHit(bucket.hits, { at: now, cost });
    if (bucket.hits.length > 0) buckets.set(key, bucket);
    else buckets.delete(key);
    return allowed ? allowedDecision(states, cost, now) : refusedDecision(states, cost, now);
  };

  return {
    hit: async (key, windows, cost, now) => hit(key, windows, cost, now),
    keyCount: () => buckets.size,
  };
}

function forgetExpired(bucket: Bucket, now: number): void {
  const firstLive = bucket.hits.findIndex((h) => now - h.at < bucket.spanMs);
  bucket.hits.splice(0, firstLive === -1 ? bucket.hits.length : firstLive);
}

/** Keeps hits oldest first even when callers pass times slightly out of order. */
function insertHit(hits: Hit[], hit: Hit): void {
  const index = hits.findLastIndex((h) => h.at <= hit.at);
  hits.splice(index + 1, 0, hit);
}

function windowState(hits: readonly Hit[], window: RateWindow, now: number): WindowState {
  const inside = hits.filter((h) => now - h.at < window.windowMs);
  return { window, hits: inside, used: inside.reduce((sum, h) => sum + h.cost, 0) };
}

/**
 * Milliseconds until `units` of the window's hits have left it, oldest first (0 when none need to).
 * A need larger than the whole window can never be met; the window's length is the honest best guess.
 */
function msUntilFreed(hits: readonly Hit[], units: number, windowMs: number, now: number): number {
  if (units <= 0) return 0;
  let freed = 0;
  for (const hit of hits) {
    freed += hit.cost;
    if (freed >= units) return hit.at + windowMs - now;
  }
  return windowMs;
}

/** The tightest window is the one with the fewest units left, then the longest wait for one more. */
function allowedDecision(states: readonly WindowState[], cost: number, now: number): RateDecision {
  const judged = states.map(({ window, hits, used }) => {
    const after = cost > 0 ? [...hits, { at: now, cost }] : hits;
    const remaining = window.limit - used - cost;
    return {
      window,
      remaining,
      resetMs: after.length === 0 ? 0 : msUntilFreed(after, 1, window.windowMs, now),
    };
  });
  const tightest = judged.reduce((a, b) =>
    b.remaining < a.remaining || (b.remaining === a.remaining && b.resetMs > a.resetMs) ? b : a,
  );
  const { window, remaining, resetMs } = tightest;
  return { allowed: true, limit: window.limit, remaining, resetMs, retryAfterMs: 0 };
}

/** The tightest window is the refusing one that keeps the hit out the longest. */
function refusedDecision(states: readonly WindowState[], cost: number, now: number): RateDecision {
  const judged = states.map(({ window, hits, used }) => ({
    window,
    retryAfterMs: msUntilFreed(hits, used + cost - window.limit, window.windowMs, now),
    resetMs: msUntilFreed(hits, 1, window.windowMs, now),
  }));
  const tightest = judged.reduce((a, b) => (b.retryAfterMs > a.retryAfterMs ? b : a));
  const { window, retryAfterMs, resetMs } = tightest;
  return { allowed: false, limit: window.limit, remaining: 0, resetMs, retryAfterMs };
}
