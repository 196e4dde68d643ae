import type { HealthReport } from '@shortener/adapter-http';
import { isStoreUnavailable } from '@shortener/core';
import type { Stores } from '@shortener/core';

/** What `/healthz` says about the store, fed by the visit flushes and write probes of `serve`. */
export interface StoreHealth {
  /**
   * Whether this node can serve, as a load balancer needs it: ok when the store answers and writes (a
   * write that failed is tried again now, so a recovery shows at once); else the reason. What the node
   * serves without (Redis: limits fall back to this node's own; the broker: events wait in the outbox,
   * decisions §16) is only reported, in `degraded` and `broker`.
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
  // one probe at a time, however many health checks and flushes ask at once
  let probing: Promise<string | null> | null = null;
  const probe = (force = false): Promise<string | null> => {
    if (stores.checkWritable === undefined) return Promise.resolve(null);
    if (!force && failure === null && now() - lastWrite < probeEveryMs) return Promise.resolve(null);
    probing ??= stores
      .checkWritable()
      .then(() => wrote(), wrote)
      .then(() => failure)
      .finally(() => (probing = null));
    return probing;
  };
  return {
    report: async (broker = null) => {
      if (!(await stores.ping())) return { ok: false, reason: 'the store does not answer' };
      const failed = failure === null ? null : await probe(true);
      if (failed !== null) return { ok: false, reason: failed };
      const degraded: string[] = [];
      for (const check of options.checks ?? []) {
        const reason = await check().catch((error: unknown) => String(error));
        if (reason !== null) degraded.push(reason);
      }
      return {
        ok: true,
        ...(broker === null ? {} : { broker: broker ? 'connected' : 'down' }),
        ...(degraded.length === 0 ? {} : { degraded }),
      };
    },
    wrote,
    probe,
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
