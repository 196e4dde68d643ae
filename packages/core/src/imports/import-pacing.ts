/**
 * How an import shares its process with the requests it serves (decisions §17: the redirect path never
 * waits for an import). An import is background work: it takes what the requests leave, not an equal
 * turn with them.
 */

/** The share of the process an import keeps however busy the requests are, so it always ends. */
export const IMPORT_MIN_SHARE = 0.02;

/** How long the runner measures the process before it changes its pace. */
export const IMPORT_PACE_WINDOW_MS = 50;

/**
 * The share of the process an import may take when the requests took `othersShare` of the last window
 * (0-1): it leaves them twice what they used, and never falls under {@link IMPORT_MIN_SHARE}. An idle
 * process gives the import all of it; a saturated one 2%.
 */
export function importShare(othersShare: number): number {
  const share = 1 - 2 * Math.min(1, Math.max(0, othersShare));
  return Math.min(1, Math.max(IMPORT_MIN_SHARE, share));
}

/** How long to pause after a chunk that took `chunkMs` so that the import keeps to `share` of the time. */
export function importPauseMs(chunkMs: number, share: number): number {
  if (share >= 1) return 0;
  return Math.max(0, chunkMs) * (1 / Math.max(IMPORT_MIN_SHARE, share) - 1);
}

/** What a pacer reads of its process: a clock and the time the process spent working (both in ms). */
export interface ProcessMeter {
  /** A monotonic clock. */
  now(): number;
  /** The time the process has spent working (not idle) since it started. */
  busy(): number;
}

/**
 * A pacer for {@link ImportPacing.pause}: after each chunk it measures how much of the last window the
 * process spent on other work than the import (busy time less the time of the chunks) and pauses so that
 * the import keeps to {@link importShare} of the time. `wait(ms)` is the timer of the adapter (0: let
 * the waiting requests run, then go on).
 */
export function createImportPacer(meter: ProcessMeter, wait: (ms: number) => Promise<void>) {
  // gently at first: the first window tells whether requests are waiting
  let share = IMPORT_MIN_SHARE;
  let windowStart = meter.now();
  let windowBusy = meter.busy();
  let ours = 0;
  let chunkStart = windowStart;
  return async (): Promise<void> => {
    const now = meter.now();
    const chunkMs = now - chunkStart;
    ours += chunkMs;
    const windowMs = now - windowStart;
    if (windowMs >= IMPORT_PACE_WINDOW_MS) {
      const busy = meter.busy();
      share = importShare((busy - windowBusy - ours) / windowMs);
      windowStart = now;
      windowBusy = busy;
      ours = 0;
    }
    await wait(importPauseMs(chunkMs, share));
    chunkStart = meter.now();
  };
}
