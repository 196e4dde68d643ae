import type { Visit } from '../links/redirect.js';
import type {
  ClickIncrement,
  Clock,
  CounterIncrement,
  GeoLookup,
  RandomSource,
  UserAgentParser,
  VisitBatch,
  VisitDimension,
  VisitStore,
} from '../ports.js';
import { addDays, dayOf, hashVisitor } from './visitor-hash.js';

/** A followed link waiting to be recorded. */
export interface TrackedVisit extends Visit {
  readonly linkId: string;
  readonly at: number;
  /** The click was counted on the link already (capped links count at request time). */
  readonly counted: boolean;
}

/** Buffers visits in memory and writes them in batches, off the request path. */
export interface VisitRecorder {
  /** Queues a visit; never waits and never writes. */
  track(visit: TrackedVisit): void;
  /** Writes everything queued in one store transaction; resolves with how many visits were written. */
  flush(): Promise<number>;
  /** How many visits are queued. */
  pending(): number;
}

/** What the recorder needs. */
export interface VisitRecorderDeps {
  readonly visits: VisitStore;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly userAgents: UserAgentParser;
  readonly geo: GeoLookup | null;
  /** A flush starts by itself when this many visits are queued (default 5000). */
  readonly batchSize?: number;
}

/** Creates the buffered recorder. The caller flushes it on a timer and at shutdown. */
export function createVisitRecorder(deps: VisitRecorderDeps): VisitRecorder {
  const batchSize = deps.batchSize ?? 5000;
  let queue: TrackedVisit[] = [];
  let running: Promise<unknown> = Promise.resolve();
  let prunedDay = '';
  const salts = new Map<string, string>();

  const saltFor = async (day: string): Promise<string> => {
    const known = salts.get(day);
    if (known !== undefined) return known;
    const candidate = Buffer.from(deps.random.bytes(32)).toString('hex');
    const salt = await deps.visits.salt(day, candidate);
    salts.set(day, salt);
    return salt;
  };

  const prune = async (): Promise<void> => {
    const today = dayOf(deps.clock.now());
    if (today === prunedDay) return;
    for (const day of salts.keys()) if (day < addDays(today, -1)) salts.delete(day);
    await deps.visits.pruneSalts(addDays(today, -1));
    await deps.visits.pruneVisitors(addDays(today, -1));
    prunedDay = today;
  };

  const writeQueued = async (): Promise<number> => {
    const events = queue;
    queue = [];
    try {
      if (events.length > 0) await deps.visits.record(await aggregate(events, deps, saltFor));
      await prune();
      return events.length;
    } catch (error) {
      queue = events.concat(queue); // keep them for the next flush: nothing lost on a failed write
      throw error;
    }
  };

  const flush = (): Promise<number> => {
    const next = running.then(writeQueued, writeQueued);
    running = next.catch(() => undefined);
    return next;
  };

  return {
    track(visit) {
      queue.push(visit);
      if (queue.length === batchSize) flush().catch(() => undefined);
    },
    flush,
    pending: () => queue.length,
  };
}

async function aggregate(
  events: readonly TrackedVisit[],
  deps: VisitRecorderDeps,
  saltFor: (day: string) => Promise<string>,
): Promise<VisitBatch> {
  const counters = new Map<string, CounterIncrement>();
  const clicks = new Map<string, ClickIncrement>();
  const visitors = new Map<string, { linkId: string; day: string; hash: string }>();
  const described = new Map<string, ReturnType<UserAgentParser['describe']>>();
  const add = (linkId: string, day: string, dimension: VisitDimension, key: string) => {
    const id = `${linkId}\u0000${day}\u0000${dimension}\u0000${key}`;
    const prior = counters.get(id);
    counters.set(id, { linkId, day, dimension, key, count: (prior?.count ?? 0) + 1 });
  };
  for (const e of events) {
    const day = dayOf(e.at);
    if (e.bot) {
      add(e.linkId, day, 'bots', '');
      continue;
    }
    add(e.linkId, day, 'total', '');
    if (!e.counted) {
      const prior = clicks.get(e.linkId);
      clicks.set(e.linkId, {
        linkId: e.linkId,
        count: (prior?.count ?? 0) + 1,
        lastClickAt: Math.max(prior?.lastClickAt ?? 0, e.at),
      });
    }
    let description = described.get(e.userAgent);
    if (description === undefined)
      described.set(e.userAgent, (description = deps.userAgents.describe(e.userAgent)));
    add(e.linkId, day, 'device', description.device);
    add(e.linkId, day, 'browser', description.browser);
    add(e.linkId, day, 'referrer', referrerHost(e.referrer));
    add(
      e.linkId,
      day,
      'country',
      countryCode(e.country) ?? countryCode(deps.geo?.country(e.ip) ?? null) ?? 'unknown',
    );
    const hash = hashVisitor(await saltFor(day), e.linkId, e.ip, e.userAgent);
    visitors.set(`${e.linkId}\u0000${day}\u0000${hash}`, { linkId: e.linkId, day, hash });
  }
  return { clicks: [...clicks.values()], counters: [...counters.values()], visitors: [...visitors.values()] };
}

/** The referrer's host only; `direct` when absent or unreadable (decisions §7). */
export function referrerHost(referrer: string | null): string {
  if (!referrer) return 'direct';
  try {
    return new URL(referrer).hostname.toLowerCase() || 'direct';
  } catch {
    return 'direct';
  }
}

/** An ISO 3166-1 alpha-2 code, upper-case, or null (Cloudflare's `XX` and `T1` mean unknown). */
export function countryCode(raw: string | null): string | null {
  const code = raw?.trim().toUpperCase() ?? '';
  return /^[A-Z]{2}$/.test(code) && code !== 'XX' && code !== 'T1' ? code : null;
}
