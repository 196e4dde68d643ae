import type { Visit } from '../links/redirect.js';
import type { CounterIncrement, VisitBatch, VisitDimension, VisitorDescription } from '../ports.js';
import { createClassifier, createDayCache, type Classifier } from './classify.js';
import { createVisitAggregate, type VisitAggregate } from './visit-aggregate.js';
import { createSaltCache } from './salt-cache.js';
import type { TrackedVisit, VisitRecorder, VisitRecorderDeps } from './recorder.js';
import { hourOf } from './zone-days.js';

/** A part's rows as the aggregate counts them (a visitor hash may add a `unique` counter: two). */
const weightOf = (part: VisitBatch): number =>
  part.clicks.length + part.counters.length + 2 * part.visitors.length;

/**
 * Folding runs once the event loop has answered everything that arrived in this turn. A microtask would
 * run after every single request (each arrives in a callback of its own): one fold per turn costs
 * redirects about a sixth less CPU under load (docs/benchmarks.md).
 */
const afterThisTurn: (run: () => void) => void =
  typeof setImmediate === 'function' ? (run) => void setImmediate(run) : (run) => void setTimeout(run, 0);

/** How far a write got through its parts. */
interface WriteProgress {
  part: VisitBatch | undefined; // the part being written
  written: number;
}

/** The recorder `createVisitRecorder` returns: visits tracked, folded into an aggregate, written in parts. */
export class BufferedVisitRecorder implements VisitRecorder {
  private readonly flushAtRows: number;
  private readonly rowsPerWrite: number;
  private readonly maxPendingRows: number;
  private readonly backlogRows: number;
  private droppedCount = 0;
  private readonly salts: ReturnType<typeof createSaltCache>;
  private readonly dayOfVisit = createDayCache();
  private aggregate = createVisitAggregate();
  private readonly descriptions = new Map<string, VisitorDescription>(); // User-Agents parsed, kept across batches
  private classify: Classifier;
  private incoming: TrackedVisit[] = []; // tracked, folded after this event-loop turn
  private unsalted: TrackedVisit[] = []; // their day's salt is being read from the store
  private readonly awaitedDays = new Set<string>();
  private folded = 0; // visits in `aggregate`
  private queued = 0; // visits tracked and not written
  private foldScheduled = false;
  private autoFlush: 'idle' | 'running' | 'failed' = 'idle'; // after a failure, only the caller's timer retries
  private running: Promise<unknown> = Promise.resolve();
  private writing = false; // a flush is writing its parts
  private unwritten = 0; // rows of that flush not written yet
  private failing = false; // the last write failed: nobody waits for the next one
  private readonly waiting: (() => void)[] = []; // backlog() callers, first come first served

  constructor(private readonly deps: VisitRecorderDeps) {
    this.flushAtRows = deps.flushAtRows ?? 10_000;
    this.rowsPerWrite = Math.max(1, deps.rowsPerWrite ?? 250);
    this.maxPendingRows = deps.maxPendingRows ?? 200_000;
    // two auto-flushes' worth: a visit that waits, waits for a write of about that many rows
    this.backlogRows =
      deps.backlogRows ?? Math.min(Math.floor(this.maxPendingRows / 2), 2 * this.flushAtRows);
    this.salts = createSaltCache(deps);
    this.classify = createClassifier(deps, this.descriptions);
  }

  track(visit: TrackedVisit): void {
    this.incoming.push(visit);
    if (!this.foldScheduled) {
      this.foldScheduled = true;
      afterThisTurn(this.foldIncoming);
    }
    this.queued++;
  }

  readonly flush = (): Promise<number> => {
    const next = this.running.then(this.writeQueued, this.writeQueued);
    this.running = next.catch(() => undefined);
    return next;
  };

  backlog(): Promise<void> | undefined {
    return !this.writing || this.failing || (this.waiting.length === 0 && !this.backlogged())
      ? undefined
      : new Promise<void>((go) => this.waiting.push(go));
  }

  pending(): number {
    return this.queued;
  }

  dropped(): number {
    return this.droppedCount;
  }

  countersOf(linkId: string, at: number, visit: Visit): CounterIncrement[] {
    const day = this.dayOfVisit(at);
    const { visitor, referrer, country } = this.classify.profile(visit);
    const counter = (dimension: VisitDimension, key: string) => ({ linkId, day, dimension, key, count: 1 });
    const counters = [
      counter('total', hourOf(at).slice(11)),
      counter('device', visitor.description.device),
      counter('browser', visitor.description.browser),
      counter('referrer', referrer),
      counter('country', country),
    ];
    if (visit.rule != null) counters.push(counter('rule', visit.rule));
    if (visit.variant != null) counters.push(counter('variant', visit.variant));
    return counters;
  }

  saltOf(at: number): string | Promise<string> {
    const day = this.dayOfVisit(at);
    // a store away at the day's first split visit: the split still picks, by a hash every node makes
    // alike without the secret (it is never stored), until the day's salt can be read (decisions §19)
    return this.salts.known(day) ?? this.salts.load(day).catch(() => unsaltedOf(day));
  }

  private backlogged(): boolean {
    return this.aggregate.rows() + this.unwritten >= this.backlogRows;
  }

  private readonly letGo = (): void => {
    for (const go of this.waiting.splice(0)) go();
  };

  private fold(tracked: TrackedVisit): void {
    // visits waiting for their day's salt count too: a new day may begin while the store is away
    if (this.aggregate.rows() + this.unsalted.length >= this.maxPendingRows) {
      this.droppedCount++;
      this.queued--;
      return;
    }
    const day = this.dayOfVisit(tracked.at);
    const { visit } = tracked;
    if (visit.bot) this.aggregate.addBot(tracked.linkId, day, tracked.at);
    else {
      const salt = this.salts.known(day);
      if (salt === undefined) {
        // the first visits of a day wait for its salt, then are folded (or by the flush, which retries)
        if (!this.awaitedDays.has(day)) {
          this.awaitedDays.add(day);
          this.salts.load(day).then(this.foldUnsalted, () => undefined);
        }
        this.unsalted.push(tracked);
        return;
      }
      this.aggregate.addHuman({
        linkId: tracked.linkId,
        day,
        at: tracked.at,
        counted: tracked.counted,
        profile: this.classify.profile(visit),
        rule: visit.rule ?? null,
        variant: visit.variant ?? null,
        salt,
      });
    }
    this.folded++;
    if (this.autoFlush === 'idle' && this.aggregate.rows() >= this.flushAtRows) {
      this.autoFlush = 'running';
      this.flush().then(
        () => (this.autoFlush = 'idle'),
        () => (this.autoFlush = 'failed'),
      );
    }
  }

  private readonly foldIncoming = (): void => {
    this.foldScheduled = false;
    const visits = this.incoming;
    this.incoming = [];
    for (const visit of visits) this.fold(visit);
  };

  private readonly foldUnsalted = (): void => {
    this.awaitedDays.clear();
    const visits = this.unsalted;
    this.unsalted = [];
    for (const visit of visits) this.fold(visit);
  };

  private readonly writeQueued = async (): Promise<number> => {
    this.foldIncoming();
    await Promise.all(
      [...new Set(this.unsalted.map((v) => this.dayOfVisit(v.at)))].map(this.salts.load),
    ).catch((error: unknown) => {
      this.failing = true;
      throw error;
    });
    this.foldUnsalted();
    this.foldIncoming();
    const taken = this.aggregate;
    const count = this.folded;
    this.aggregate = createVisitAggregate();
    this.classify = createClassifier(this.deps, this.descriptions);
    this.folded = 0;
    // built a part at a time: a long tail's batch is never turned into rows in one stretch of the loop
    const parts = taken.parts(this.rowsPerWrite);
    const progress: WriteProgress = { part: undefined, written: 0 };
    this.writing = true;
    this.unwritten = taken.rows();
    try {
      await this.writeParts(parts, progress);
      await this.afterWrite(count);
      return count;
    } catch (error) {
      this.afterFailedWrite(taken, parts, progress, count);
      throw error;
    }
  };

  private async writeParts(parts: Iterator<VisitBatch, void>, progress: WriteProgress): Promise<void> {
    for (let next = parts.next(); next.done !== true; next = parts.next()) {
      if (progress.written > 0) await new Promise<void>((resolve) => afterThisTurn(resolve));
      progress.part = next.value;
      await this.deps.visits.record(progress.part);
      progress.written++;
      this.failing = false;
      // the waiting visits go once the rows not written fall below backlogRows: their own rows are
      // counted already, so the buffer stays near that size and each waits about one part
      this.unwritten = Math.max(0, this.unwritten - weightOf(progress.part));
      progress.part = undefined;
      if (!this.backlogged()) this.letGo();
    }
  }

  private async afterWrite(count: number): Promise<void> {
    this.unwritten = 0;
    // pending until written, not until taken: a read that settles first must wait for this write
    this.queued -= count;
    await this.salts.prune(this.deps.clock.now());
    if (this.autoFlush === 'failed') this.autoFlush = 'idle';
    this.writing = false;
    // visits still waiting wait for the next write, which starts now
    if (this.waiting.length > 0 && this.backlogged()) void this.flush().catch(this.letGo);
    else this.letGo();
  }

  private afterFailedWrite(
    taken: VisitAggregate,
    parts: Iterator<VisitBatch, void>,
    { part, written }: WriteProgress,
    count: number,
  ): void {
    this.writing = false;
    this.failing = true;
    this.unwritten = 0;
    this.letGo();
    // keep the rows not written for the next flush: nothing lost, nothing counted twice. Parts are
    // rows, not visits, so after a partial write all `count` visits are reported pending until then.
    if (part === undefined) return;
    if (written === 0) {
      // nothing written (the store away): the taken rows are whole, and what was folded meanwhile
      // joins them, so a failing flush costs the few new rows, not the whole buffer again
      const added = this.aggregate.parts(this.rowsPerWrite);
      for (let next = added.next(); next.done !== true; next = added.next()) taken.addBatch(next.value);
      this.aggregate = taken;
    } else {
      this.aggregate.addBatch(part);
      for (let next = parts.next(); next.done !== true; next = parts.next())
        this.aggregate.addBatch(next.value);
    }
    this.folded += count;
  }
}

/** The stand-in of a day's salt while the store cannot give it: the same on every node, for that day. */
const unsaltedOf = (day: string): string => `unsalted:${day}`;
