import type { Visit } from '../links/redirect.js';
import type {
  Clock,
  GeoLookup,
  RandomSource,
  UserAgentParser,
  VisitStore,
  VisitorDescription,
} from '../ports.js';
import { createClassifier, createDayCache } from './classify.js';
import { createVisitAggregate, splitBatch } from './visit-aggregate.js';
import { addDays, dayOf } from './visitor-hash.js';

/** A followed link waiting to be recorded: the request's visit, wrapped rather than copied. */
export interface TrackedVisit {
  readonly linkId: string;
  readonly at: number;
  /** The click was counted on the link already (capped links count at request time). */
  readonly counted: boolean;
  readonly visit: Visit;
}

/** Buffers visits in memory and writes them in batches, off the request path. */
export interface VisitRecorder {
  /** Queues a visit; never waits and never writes. */
  track(visit: TrackedVisit): void;
  /**
   * Writes everything queued, in store transactions of `rowsPerWrite` rows; resolves with how many
   * visits were written.
   */
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
  /**
   * A flush starts by itself once the waiting counters would write this many rows (default 10,000), so
   * one flush stays short whatever the traffic; otherwise the caller flushes every second.
   */
  readonly flushAtRows?: number;
  /**
   * Rows per store transaction (default 250: a few ms on SQLite, where a click update dirties a page of
   * a large table): a flush writes its batch in parts and lets the event loop answer requests in
   * between, so a flush never stalls redirects for long.
   */
  readonly rowsPerWrite?: number;
}

/**
 * Folding runs once the event loop has answered everything that arrived in this turn. A microtask would
 * run after every single request (each arrives in a callback of its own): one fold per turn costs
 * redirects about a sixth less CPU under load (docs/benchmarks.md).
 */
const afterThisTurn: (run: () => void) => void =
  typeof setImmediate === 'function' ? (run) => void setImmediate(run) : (run) => void setTimeout(run, 0);

/**
 * Creates the buffered recorder. The caller flushes it every second and at shutdown. Each visit is
 * classified and folded into per-link, per-day counters soon after the answer (once per event-loop
 * turn), so a flush writes one row per counter, not per visit: a hot link costs the same few rows a
 * second at 10 or 10,000 visits a second.
 */
export function createVisitRecorder(deps: VisitRecorderDeps): VisitRecorder {
  const flushAtRows = deps.flushAtRows ?? 10_000;
  const rowsPerWrite = Math.max(1, deps.rowsPerWrite ?? 250);
  const salts = createSaltCache(deps);
  const dayOfVisit = createDayCache();
  let aggregate = createVisitAggregate();
  const descriptions = new Map<string, VisitorDescription>(); // User-Agents parsed, kept across batches
  let classify = createClassifier(deps, descriptions);
  let incoming: TrackedVisit[] = []; // tracked, folded after this event-loop turn
  let unsalted: TrackedVisit[] = []; // their day's salt is being read from the store
  const awaitedDays = new Set<string>();
  let folded = 0; // visits in `aggregate`
  let queued = 0; // visits tracked and not written
  let foldScheduled = false;
  let autoFlush: 'idle' | 'running' | 'failed' = 'idle'; // after a failure, only the caller's timer retries
  let running: Promise<unknown> = Promise.resolve();

  const fold = (tracked: TrackedVisit): void => {
    const day = dayOfVisit(tracked.at);
    const { visit } = tracked;
    if (visit.bot) aggregate.addBot(tracked.linkId, day);
    else {
      const salt = salts.known(day);
      if (salt === undefined) {
        // the first visits of a day wait for its salt, then are folded (or by the flush, which retries)
        if (!awaitedDays.has(day)) {
          awaitedDays.add(day);
          salts.load(day).then(foldUnsalted, () => undefined);
        }
        unsalted.push(tracked);
        return;
      }
      aggregate.addHuman({
        linkId: tracked.linkId,
        day,
        at: tracked.at,
        counted: tracked.counted,
        profile: classify.profile(visit),
        salt,
      });
    }
    folded++;
    if (autoFlush === 'idle' && aggregate.rows() >= flushAtRows) {
      autoFlush = 'running';
      flush().then(
        () => (autoFlush = 'idle'),
        () => (autoFlush = 'failed'),
      );
    }
  };
  const foldIncoming = (): void => {
    foldScheduled = false;
    const visits = incoming;
    incoming = [];
    for (const visit of visits) fold(visit);
  };
  const foldUnsalted = (): void => {
    awaitedDays.clear();
    const visits = unsalted;
    unsalted = [];
    for (const visit of visits) fold(visit);
  };

  const writeQueued = async (): Promise<number> => {
    foldIncoming();
    await Promise.all([...new Set(unsalted.map((v) => dayOfVisit(v.at)))].map(salts.load));
    foldUnsalted();
    foldIncoming();
    const batch = aggregate.toBatch();
    const count = folded;
    aggregate = createVisitAggregate();
    classify = createClassifier(deps, descriptions);
    folded = 0;
    queued -= count;
    const parts = count > 0 ? splitBatch(batch, rowsPerWrite) : [];
    let written = 0;
    try {
      for (const part of parts) {
        if (written > 0) await new Promise<void>((resolve) => afterThisTurn(resolve));
        await deps.visits.record(part);
        written++;
      }
      await salts.prune(deps.clock.now());
      if (autoFlush === 'failed') autoFlush = 'idle';
      return count;
    } catch (error) {
      // keep the parts not written for the next flush: nothing lost, nothing counted twice. Parts are
      // rows, not visits, so after a partial write all `count` visits are reported pending until then.
      for (const part of parts.slice(written)) aggregate.addBatch(part);
      if (written < parts.length) {
        folded += count;
        queued += count;
      }
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
      incoming.push(visit);
      if (!foldScheduled) {
        foldScheduled = true;
        afterThisTurn(foldIncoming);
      }
      queued++;
    },
    flush,
    pending: () => queued,
  };
}

/** The daily salts: kept in memory once read, loaded once per day, forgotten (and deleted) after it. */
function createSaltCache(deps: VisitRecorderDeps) {
  const salts = new Map<string, string>();
  const loading = new Map<string, Promise<string>>();
  let prunedDay = '';
  let knownDay = '';
  let knownSalt: string | undefined;
  const load = (day: string): Promise<string> => {
    const known = salts.get(day);
    if (known !== undefined) return Promise.resolve(known);
    let pending = loading.get(day);
    if (pending === undefined) {
      const candidate = Buffer.from(deps.random.bytes(32)).toString('hex');
      pending = deps.visits.salt(day, candidate).then(
        (salt) => {
          salts.set(day, salt);
          knownDay = '';
          loading.delete(day);
          return salt;
        },
        (error: unknown) => {
          loading.delete(day);
          throw error;
        },
      );
      loading.set(day, pending);
    }
    return pending;
  };
  return {
    /** The salt of `day` if read already (the last day asked is remembered: nearly every visit's). */
    known(day: string): string | undefined {
      if (day !== knownDay) {
        knownDay = day;
        knownSalt = salts.get(day);
      }
      return knownSalt;
    },
    load,
    async prune(now: number): Promise<void> {
      const today = dayOf(now);
      if (today === prunedDay) return;
      for (const day of salts.keys()) if (day < addDays(today, -1)) salts.delete(day);
      knownDay = '';
      await deps.visits.pruneSalts(addDays(today, -1));
      await deps.visits.pruneVisitors(addDays(today, -1));
      prunedDay = today;
    },
  };
}
