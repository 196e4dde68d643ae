import { setTimeout as sleep } from 'node:timers/promises';
import { isStoreUnavailable } from '@shortener/core';
import type { VisitStore } from '@shortener/core';
import type { AppLogger } from './logger.js';

/** How often the compactor looks at the visit log. */
const COMPACT_EVERY_MS = 2000;
/**
 * Log entries per compaction transaction: about 6 ms of writes (some 25 µs an entry of a cold link at
 * 1,000,000 links), so a flush waiting for SQLite's one write lock waits little, and a crash redoes at
 * most one chunk (never counted twice: see `compact`). Each chunk, with the pause after it, costs more
 * than its entries: SQLite's worker folded a cold entry for a median of 29.0 CPU-µs in chunks of 100
 * and 25.4 in chunks of 250, paused as here (`bench/compaction.mjs --worker --pause 10`, six folds each).
 */
export const COMPACT_CHUNK = 250;
/**
 * While visits arrive in a burst, folding waits until the log holds this many entries (one per link per
 * flush: about six seconds of 8,000 cold visits a second), then folds it down to half. A busy link has
 * one entry per second in the log, so a statistics read adds a few entries at most.
 */
export const LOG_HIGH_WATER = 50_000;

/**
 * Between two chunks of one round: without it, a long fold holds SQLite's write lock nearly all the
 * time and the checkpointer cannot restart the WAL (it grew to 187 MB in the quick benchmark).
 */
const PAUSE_BETWEEN_CHUNKS_MS = 10;

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
    // a breath between chunks: SQLite's checkpointer and the flushes get the write lock in between
    await sleep(PAUSE_BETWEEN_CHUNKS_MS);
  }
  return folded;
}

/** A burst lasts while visits waiting to be written were seen above the mark within this long. */
const BURST_HOLD_MS = 5000;
/** How often the visits waiting to be written are looked at, while visits arrive. */
const SAMPLE_EVERY_MS = 100;
/** Looks in a row with no visit waiting after which the sampling stops until the next round's. */
const QUIET_SAMPLES = 10;
/**
 * Log entries appended between two looks past which visits arrive in a burst too (2,000 a second:
 * visits on that many links a second). Cold visits on many links are flushed within the second, so the
 * visits waiting to be written stay low while each adds an entry: folding them as they come made
 * SQLite's worker commit all the time, and every commit of another connection empties the server's
 * page cache (its look-ups of links then read every page again).
 */
const BURST_LOG_GROWTH = (COMPACT_EVERY_MS / 1000) * 2_000;

/**
 * Starts looking at the visit log every {@link COMPACT_EVERY_MS} ({@link compactionRound}); a burst is
 * `pending()` (visits waiting to be written) above `burstAbove` at any of its looks in the last
 * {@link BURST_HOLD_MS}, so one look between two flushes does not end it, or the log grown by more than
 * {@link BURST_LOG_GROWTH} entries since the last round. The work runs where the store
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
  let lastSize: number | null = null; // the log's size after the last round (what it had not folded)
  // sampling while visits arrive: it stops after a second without any (an idle server's wakes cost
  // CPU, about 100-150 µs each on the benchmark's machines) and the next round restarts it
  let sampler: NodeJS.Timeout | null = null;
  let quietSamples = 0;
  const sample = () => {
    const waiting = pending();
    if (waiting > burstAbove) burstUntil = performance.now() + BURST_HOLD_MS;
    quietSamples = waiting === 0 ? quietSamples + 1 : 0;
    if (quietSamples >= QUIET_SAMPLES && sampler !== null) {
      clearInterval(sampler);
      sampler = null;
    }
  };
  const sampleWhileVisited = () => {
    if (sampler !== null || pending() === 0) return;
    quietSamples = 0;
    sampler = setInterval(sample, SAMPLE_EVERY_MS);
    sampler.unref();
    sample();
  };
  sampleWhileVisited();
  const busy = () => performance.now() < burstUntil;
  const run = async () => {
    try {
      const size = await visits.logSize();
      if (lastSize !== null && size - lastSize > BURST_LOG_GROWTH)
        burstUntil = performance.now() + BURST_HOLD_MS;
      lastSize = size - (await compactionRound(visits, busy, () => stopped));
    } catch (error) {
      // the database busy past its timeout (a long backup, another writer) or away (PostgreSQL restarting,
      // its connection lost) is a wait, not a fault: the log keeps what was not folded and the next round
      // tries again, so only what the store cannot name as an outage (a bug, a broken schema) is an error
      if (isBusy(error)) logger.warn('folding the visit log waits: the database is busy', { error });
      else if (isStoreUnavailable(error))
        logger.warn('folding the visit log waits: the store is unavailable', { error });
      else logger.error('folding the visit log failed', { error });
    }
  };
  const timer = setInterval(() => {
    sampleWhileVisited();
    running = running.then(run);
  }, COMPACT_EVERY_MS);
  timer.unref();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      if (sampler !== null) clearInterval(sampler);
      await running;
    },
  };
}

/** Whether SQLite answered `SQLITE_BUSY` (the error or the store's "unavailable" wrapping of it). */
function isBusy(error: unknown): boolean {
  const cause = isStoreUnavailable(error) ? error.cause : error;
  return /^SQLITE_BUSY/.test(String((cause as { code?: unknown } | null)?.code ?? ''));
}
