import type { HealthReport } from '@shortener/adapter-http';
import { isStoreUnavailable } from '@shortener/core';
import type { Stores } from '@shortener/core';

/** What `/healthz` says about the store, fed by the visit flushes and write probes of `serve`. */
export interface StoreHealth {
  /**
   * 200 when the store answers and its last write succeeded; else the reason. `broker` (null: none)
   * is only reported: events wait in the outbox while it is away (decisions §16).
   */
  report(broker?: boolean | null): Promise<HealthReport>;
  /** A write succeeded (no `error`) or failed. */
  wrote(error?: unknown): void;
  /**
   * Commits an empty write when the store is failing (to notice it recover) or nothing was written for
   * `probeEveryMs`, or always when `now`; resolves with the failure, or null when the store writes.
   */
  probe(now?: boolean): Promise<string | null>;
}

/** How {@link createStoreHealth} runs; every field has a default. */
export interface StoreHealthOptions {
  /** Default `Date.now` (tests move it by hand). */
  readonly now?: () => number;
  /** Default 5000. */
  readonly probeEveryMs?: number;
  /** The other backends' checks (Redis): null when one works, else why not. */
  readonly checks?: readonly (() => Promise<string | null>)[];
}

/** Creates the health of `stores` and of the other backends `options.checks` look at. */
export function createStoreHealth(stores: Stores, options: StoreHealthOptions = {}): StoreHealth {
  const now = options.now ?? Date.now;
  const probeEveryMs = options.probeEveryMs ?? 5000;
  let failure: string | null = null;
  let lastWrite = now();
  const wrote = (error?: unknown): void => {
    failure = error === undefined ? null : writeFailure(error);
    if (error === undefined) lastWrite = now();
  };
  return {
    report: async (broker = null) => {
      if (!(await stores.ping())) return { ok: false, reason: 'the store does not answer' };
      if (failure !== null) return { ok: false, reason: failure };
      for (const check of options.checks ?? []) {
        const reason = await check();
        if (reason !== null) return { ok: false, reason };
      }
      return broker === null ? { ok: true } : { ok: true, broker: broker ? 'connected' : 'down' };
    },
    wrote,
    probe: async (force = false) => {
      if (stores.checkWritable === undefined) return null;
      if (!force && failure === null && now() - lastWrite < probeEveryMs) return null;
      try {
        await stores.checkWritable();
        wrote();
      } catch (error) {
        wrote(error);
      }
      return failure;
    },
  };
}

/** The reason a write failed, for `/healthz` and the start-up error: SQLite's message and code. */
export function writeFailure(thrown: unknown): string {
  // the driver's own error, not the store's "unavailable" wrapping of it
  const error = isStoreUnavailable(thrown) ? thrown.cause : thrown;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return `the store cannot write: ${message}${typeof code === 'string' ? ` (${code})` : ''}`;
}
