import type { Visit } from '../links/redirect.js';
import type {
  Clock,
  CounterIncrement,
  GeoLookup,
  RandomSource,
  UserAgentParser,
  VisitStore,
} from '../ports.js';
import { BufferedVisitRecorder } from './buffered-recorder.js';

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
  /**
   * The secret salt of the UTC day of `at`, the one visitor hashes take (decisions §4): at hand once
   * read, else a promise (the day's first ask reads it from the store, or makes it there). A split test
   * picks its entry by the visitor hash (decisions §19), so every node picks alike. While the store
   * cannot give it, a stand-in of the day that every node makes alike (never stored, never a visitor's
   * hash for statistics), so a split link still answers.
   */
  saltOf(at: number): string | Promise<string>;
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
   * Rows per store transaction (default 250; the server sets its store's, packages/app's
   * adapter-deps.ts): a flush writes its batch in parts and lets the event loop answer requests in
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
 * Creates the buffered recorder. The caller flushes it every second and at shutdown. Each visit is
 * classified and folded into per-link, per-day counters soon after the answer (once per event-loop
 * turn), so a flush writes one row per counter, not per visit: a hot link costs the same few rows a
 * second at 10 or 10,000 visits a second.
 */
export function createVisitRecorder(deps: VisitRecorderDeps): VisitRecorder {
  return new BufferedVisitRecorder(deps);
}
