/**
 * How background work shares its process with the requests it serves (decisions §17 and §26: the
 * redirect path never waits for an import or for events). Background work (an import's chunks, the
 * events' fan-out and deliveries) takes what the requests leave, not an equal turn with them.
 */

/** The share of the process background work keeps however busy the requests are, so it always ends. */
export const BACKGROUND_MIN_SHARE = 0.02;

/**
 * The longest pause a pacer makes at once: a chunk that counted much work done since (the sends that
 * ended) waits no longer, so a shutdown never waits long behind a pause.
 */
export const BACKGROUND_MAX_PAUSE_MS = 1000;

/** How long a pacer measures the process before it changes its pace. */
export const BACKGROUND_PACE_WINDOW_MS = 50;

/**
 * The share of the process background work may take when the requests took `othersShare` of the last
 * window (0-1): it leaves them twice what they used, and never falls under {@link BACKGROUND_MIN_SHARE}.
 * An idle process gives it all; a saturated one 2%.
 */
export function backgroundShare(othersShare: number): number {
  const share = 1 - 2 * Math.min(1, Math.max(0, othersShare));
  return Math.min(1, Math.max(BACKGROUND_MIN_SHARE, share));
}

/** How long to pause after a chunk that took `chunkMs` so that the work keeps to `share` of the time. */
export function backgroundPauseMs(chunkMs: number, share: number): number {
  if (share >= 1) return 0;
  return Math.max(0, chunkMs) * (1 / Math.max(BACKGROUND_MIN_SHARE, share) - 1);
}

/** What a pacer reads of its process: a clock and the time the process spent working (both in ms). */
export interface ProcessMeter {
  /** A monotonic clock. */
  now(): number;
  /** The time the process has spent working (not idle) since it started. */
  busy(): number;
}

/**
 * Paces background work between its chunks: called after each chunk, it waits so that the work keeps to
 * its share. `laterMs` is the work the chunk started that runs after it returns (the sends a claim
 * started: their sockets' callbacks), counted as the chunk's own.
 */
export type Pace = (laterMs?: number) => Promise<void>;

/**
 * A pacer: after each chunk it measures how much of the last window the process spent on other work
 * than this (busy time less the time of the chunks and what they started) and pauses so that the work
 * keeps to {@link backgroundShare} of the time. `wait(ms)` is the timer of the adapter (0: let the
 * waiting requests run, then go on). Each kind of background work has its own pacer.
 */
export function createBackgroundPacer(meter: ProcessMeter, wait: (ms: number) => Promise<void>): Pace {
  // gently at first: the first window tells whether requests are waiting
  let share = BACKGROUND_MIN_SHARE;
  let windowStart = meter.now();
  let windowBusy = meter.busy();
  let ours = 0;
  let chunkStart = windowStart;
  return async (laterMs = 0): Promise<void> => {
    const now = meter.now();
    const chunkMs = now - chunkStart + laterMs;
    ours += chunkMs;
    const windowMs = now - windowStart;
    if (windowMs >= BACKGROUND_PACE_WINDOW_MS) {
      const busy = meter.busy();
      share = backgroundShare((busy - windowBusy - ours) / windowMs);
      windowStart = now;
      windowBusy = busy;
      ours = 0;
    }
    await wait(Math.min(BACKGROUND_MAX_PAUSE_MS, backgroundPauseMs(chunkMs, share)));
    chunkStart = meter.now();
  };
}

/**
 * The pause after one piece of work that mostly waits (a health check: a request to another site, its
 * answer awaited), by how busy the process was since the last piece (`busyShare`, 0-1, the event loop's
 * utilisation). {@link createBackgroundPacer} counts a chunk's wall time as its work, which for waiting
 * work would be most of the window, leaving the requests nothing: this pause looks at the process
 * instead. Idle: none; serving steadily: a quarter second; saturated: a second, so waiting work starts
 * at most a few times a second while requests wait.
 */
export function waitingWorkPauseMs(busyShare: number): number {
  if (busyShare >= 0.9) return BACKGROUND_MAX_PAUSE_MS;
  if (busyShare >= 0.5) return BACKGROUND_MAX_PAUSE_MS / 4;
  return 0;
}

/**
 * A pacer of waiting work ({@link waitingWorkPauseMs}): after each piece, it reads how busy the process
 * was over the last window (at least {@link BACKGROUND_PACE_WINDOW_MS}; shared by pieces run side by side)
 * and pauses accordingly.
 */
export function createWaitingWorkPacer(meter: ProcessMeter, wait: (ms: number) => Promise<void>): Pace {
  let windowStart = meter.now();
  let windowBusy = meter.busy();
  let share = 0;
  return async (): Promise<void> => {
    const now = meter.now();
    if (now - windowStart >= BACKGROUND_PACE_WINDOW_MS) {
      const busy = meter.busy();
      share = Math.min(1, Math.max(0, (busy - windowBusy) / (now - windowStart)));
      windowStart = now;
      windowBusy = busy;
    }
    await wait(waitingWorkPauseMs(share));
  };
}
