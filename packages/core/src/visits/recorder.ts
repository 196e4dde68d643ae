import type { Visit } from '../links/redirect.js';
import type {
  Clock,
  CounterIncrement,
  GeoLookup,
  RandomSource,
  UserAgentParser,
  VisitBatch,
  VisitDimension,
  VisitStore,
  VisitorDescription,
} from '../ports.js';
import { createClassifier, createDayCache } from './classify.js';
import { createVisitAggregate } from './visit-aggregate.js';
import { createSaltCache } from './salt-cache.js';

/** A followed link waiting to be recorded: the request's visit, wrapped rather than copied. */
export interface TrackedVisit {
  readonly linkId: string;
  readonly at: number;
  /**
   * The click and its counters were written already, with the atomic click of a capped link
   * ({@link VisitRecorder.countersOf}): only the visitor hash waits.
   */
  readonly counted: boolean;
  readonly visit: Visit;
}

/** A part's rows as the aggregate counts them (a visitor hash may add a `unique` counter: two). */
const weightOf = (part: VisitBatch): number =>
  part.clicks.length + part.counters.length + 2 * part.visitors.length;

/** Buffers visits in memory and writes them in batches, off the request path. */
export interface VisitRecorder {
  /** Queues a visit; never waits and never writes. */
  track(visit: TrackedVisit): void;
  /**
   * Writes everything queued, in store transactions of `rowsPerWrite` rows; resolves with how many
   * visits were written.
   */
  flush(): Promise<number>;
  /** How many visits are not written yet: queued, or in a write under way (a read that settles waits). */
  pending(): number;
  /** How many visits were dropped because the buffer held `maxPendingRows` rows (the store failing). */
  dropped(): number;
  /**
   * Backpressure: undefined while no write is under way, or while the rows not written yet (buffered,
   * or in the write's parts still to come) are fewer than `backlogRows` and nobody waits; else a promise
   * that settles after the part of the write that brings them below it. A server answers a visit only
   * then, so visits arrive no faster than the store writes them (a long tail of links can produce more
   * rows a second than a store writes off the event loop), none is dropped while the store is healthy,
   * and each waits about one part (a few ms), not a whole write. A failing write lets every waiting
   * visit go at once, and from then until a write succeeds again nothing waits (the store is away: the
   * visits wait in memory instead, up to `maxPendingRows`).
   */
  backlog(): Promise<void> | undefined;
  /**
   * The counters of a human click on a capped link at `at` (total, device, browser, referrer,
   * country), for the store to add in the transaction of the atomic click (`tryConsumeClick`).
   */
  countersOf(linkId: string, at: number, visit: Visit): CounterIncrement[];
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
  /**
   * While the store cannot write, visits wait in memory and each flush retries them; past this many
   * rows (default 200,000, some tens of MB; a row is a link's counter of a day or a visitor hash, so a
   * hot link's visits are a few rows however many) the newest visits are dropped and counted
   * ({@link VisitRecorder.dropped}), the ones buffered first are kept.
   */
  readonly maxPendingRows?: number;
  /**
   * The buffer's size in rows past which `backlog()` makes visits wait (default twice `flushAtRows`, at
   * most half `maxPendingRows`): the smaller, the shorter each wait under a long tail of new links.
   */
  readonly backlogRows?: number;
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
  const maxPendingRows = deps.maxPendingRows ?? 200_000;
  // two auto-flushes' worth: a visit that waits, waits for a write of about that many rows
  const backlogRows = deps.backlogRows ?? Math.min(Math.floor(maxPendingRows / 2), 2 * flushAtRows);
  let dropped = 0;
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
  let writing = false; // a flush is writing its parts
  let unwritten = 0; // rows of that flush not written yet
  let failing = false; // the last write failed: nobody waits for the next one
  const waiting: (() => void)[] = []; // backlog() callers, first come first served
  const backlogged = () => aggregate.rows() + unwritten >= backlogRows;
  const letGo = (): void => {
    for (const go of waiting.splice(0)) go();
  };

  const fold = (tracked: TrackedVisit): void => {
    // visits waiting for their day's salt count too: a new day may begin while the store is away
    if (aggregate.rows() + unsalted.length >= maxPendingRows) {
      dropped++;
      queued--;
      return;
    }
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
        rule: visit.rule ?? null,
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
    await Promise.all([...new Set(unsalted.map((v) => dayOfVisit(v.at)))].map(salts.load)).catch(
      (error: unknown) => {
        failing = true;
        throw error;
      },
    );
    foldUnsalted();
    foldIncoming();
    const taken = aggregate;
    const count = folded;
    aggregate = createVisitAggregate();
    classify = createClassifier(deps, descriptions);
    folded = 0;
    // built a part at a time: a long tail's batch is never turned into rows in one stretch of the loop
    const parts = taken.parts(rowsPerWrite);
    let part: VisitBatch | undefined; // the part being written
    let written = 0;
    writing = true;
    unwritten = taken.rows();
    try {
      for (let next = parts.next(); next.done !== true; next = parts.next()) {
        if (written > 0) await new Promise<void>((resolve) => afterThisTurn(resolve));
        part = next.value;
        await deps.visits.record(part);
        written++;
        failing = false;
        // the waiting visits go once the rows not written fall below backlogRows: their own rows are
        // counted already, so the buffer stays near that size and each waits about one part
        unwritten = Math.max(0, unwritten - weightOf(part));
        part = undefined;
        if (!backlogged()) letGo();
      }
      unwritten = 0;
      // pending until written, not until taken: a read that settles first must wait for this write
      queued -= count;
      await salts.prune(deps.clock.now());
      if (autoFlush === 'failed') autoFlush = 'idle';
      writing = false;
      // visits still waiting wait for the next write, which starts now
      if (waiting.length > 0 && backlogged()) void flush().catch(letGo);
      else letGo();
      return count;
    } catch (error) {
      writing = false;
      failing = true;
      unwritten = 0;
      letGo();
      // keep the rows not written for the next flush: nothing lost, nothing counted twice. Parts are
      // rows, not visits, so after a partial write all `count` visits are reported pending until then.
      if (part !== undefined) {
        if (written === 0) {
          // nothing written (the store away): the taken rows are whole, and what was folded meanwhile
          // joins them, so a failing flush costs the few new rows, not the whole buffer again
          const added = aggregate.parts(rowsPerWrite);
          for (let next = added.next(); next.done !== true; next = added.next()) taken.addBatch(next.value);
          aggregate = taken;
        } else {
          aggregate.addBatch(part);
          for (let next = parts.next(); next.done !== true; next = parts.next())
            aggregate.addBatch(next.value);
        }
        folded += count;
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
    backlog: () =>
      !writing || failing || (waiting.length === 0 && !backlogged())
        ? undefined
        : new Promise<void>((go) => waiting.push(go)),
    pending: () => queued,
    dropped: () => dropped,
    countersOf(linkId, at, visit) {
      const day = dayOfVisit(at);
      const { visitor, referrer, country } = classify.profile(visit);
      const counter = (dimension: VisitDimension, key: string) => ({ linkId, day, dimension, key, count: 1 });
      const counters = [
        counter('total', ''),
        counter('device', visitor.description.device),
        counter('browser', visitor.description.browser),
        counter('referrer', referrer),
        counter('country', country),
      ];
      if (visit.rule != null) counters.push(counter('rule', visit.rule));
      return counters;
    },
  };
}
