import { performance } from 'node:perf_hooks';
import { createBackgroundPacer, createWaitingWorkPacer } from '@shortener/core';
import type { Pace } from '@shortener/core';

/** Lets the requests waiting run before the next chunk (a chunk is a synchronous transaction on SQLite). */
export const yieldToRequests = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Waits `ms` (under half a millisecond: only lets the waiting requests run). */
const waitFor = (ms: number): Promise<void> =>
  ms < 0.5 ? yieldToRequests() : new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The pause of a server's background work between chunks (an import's, the events'): it takes what the
 * requests leave idle (core's `backgroundShare`), measured by the event loop's busy time, so a busy
 * redirect path keeps its pace. Each piece of work has its own.
 */
export function serverPacer(): Pace {
  const meter = { now: () => performance.now(), busy: () => performance.eventLoopUtilization().active };
  return createBackgroundPacer(meter, waitFor);
}

/**
 * The pause of a server's background work that mostly waits on other sites (link health checks): by how
 * busy the event loop was (core's `waitingWorkPauseMs`), not by the work's wall time, which is waiting.
 */
export function serverWaitingPacer(): Pace {
  const meter = { now: () => performance.now(), busy: () => performance.eventLoopUtilization().active };
  return createWaitingWorkPacer(meter, waitFor);
}
