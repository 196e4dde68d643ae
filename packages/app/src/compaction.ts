import type { VisitStore } from '@shortener/core';
import type { AppLogger } from './logger.js';

/** How often the compactor looks at the visit log. */
const COMPACT_EVERY_MS = 2000;
/**
 * Log entries per compaction transaction: about 6 ms of writes (some 65 µs an entry of a cold link), so
 * a flush waiting for SQLite's one write lock waits little, and a crash redoes at most one chunk (never
 * counted twice: see `compact`).
 */
const COMPACT_CHUNK = 100;
/**
 * While visits arrive in a burst, folding waits until the log holds this many entries (one per link per
 * flush: about six seconds of 8,000 cold visits a second), then folds it down to half. A busy link has
 * one entry per second in the log, so a statistics read adds a few entries at most.
 */
export const LOG_HIGH_WATER = 50_000;

/** The background compaction of the visit log, started by `serve`. */
export interface VisitCompaction {
  /** Stops the timer and waits for the chunk under way (the rest of the log waits for the next start). */
  stop(): Promise<void>;
}

/**
 * One look at the log: while `busy()` (visits arrive faster than a flush a second writes comfortably)
 * and the log holds fewer than {@link LOG_HIGH_WATER} entries, nothing is folded, so a burst costs the
 * writers an append each and the counter B-trees are written once it passes; past the mark the log is
 * folded down to half of it; otherwise it is folded until empty. Resolves with the entries folded.
 */
export async function compactionRound(
  visits: VisitStore,
  busy: () => boolean,
  stopped: () => boolean = () => false,
): Promise<number> {
  const size = await visits.logSize();
  const floor = !busy() ? 0 : size >= LOG_HIGH_WATER ? LOG_HIGH_WATER / 2 : size;
  let folded = 0;
  // at least one chunk when folding to empty: it also sweeps tail visitor hashes the log rows outlived
  for (let left = floor === 0 ? Math.max(size, 1) : size; left > floor && !stopped();) {
    const chunk = await visits.compact(COMPACT_CHUNK);
    folded += chunk;
    // another node holds the log (0), or it is empty now
    if (chunk < COMPACT_CHUNK) break;
    left -= chunk;
  }
  return folded;
}

/** A burst lasts while visits waiting to be written were seen above the mark within this long. */
const BURST_HOLD_MS = 5000;
/** How often the visits waiting to be written are looked at. */
const SAMPLE_EVERY_MS = 100;

/**
 * Starts looking at the visit log every {@link COMPACT_EVERY_MS} ({@link compactionRound}); a burst is
 * `pending()` (visits waiting to be written) above `burstAbove` at any of its looks in the last
 * {@link BURST_HOLD_MS}, so one look between two flushes does not end it. The work runs where the store
 * puts it: SQLite's worker thread with a connection of its own, PostgreSQL's server (one node at a
 * time, under an advisory lock). A failed round is logged and the next tries again; nothing is lost,
 * as the log keeps what was not folded.
 */
export function startVisitCompaction(
  visits: VisitStore,
  logger: AppLogger,
  pending: () => number,
  burstAbove: number,
): VisitCompaction {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let burstUntil = 0;
  const sampler = setInterval(() => {
    if (pending() > burstAbove) burstUntil = performance.now() + BURST_HOLD_MS;
  }, SAMPLE_EVERY_MS);
  sampler.unref();
  const busy = () => performance.now() < burstUntil;
  const run = async () => {
    try {
      await compactionRound(visits, busy, () => stopped);
    } catch (error) {
      logger.error('folding the visit log failed', { error });
    }
  };
  const timer = setInterval(() => {
    running = running.then(run);
  }, COMPACT_EVERY_MS);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      clearInterval(sampler);
      await running;
    },
  };
}
