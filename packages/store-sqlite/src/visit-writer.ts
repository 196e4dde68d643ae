import { encodeLogCounters } from '@shortener/core/visit-writes';
import type { CounterIncrement, VisitBatch } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { createVisitedEvents } from './visited-events.js';

const APPEND =
  'INSERT INTO visit_log (epoch, link_id, counters, clicks, last_click_at) VALUES (?, ?, ?, ?, ?)';

/**
 * Entries a writer appends to one epoch before a transaction whose links do not continue its ascending
 * run opens a new one: flushes of many links share an epoch for a few of them (the tail reads search
 * the index once per epoch), and entries out of order land within the newest few thousand. At 2,048 a
 * burst of cold visits opened some seven epochs a second and reached the cap within the benchmark's
 * cache-miss rounds; at 8,192, about 1.6 a second.
 */
export const EPOCH_ENTRIES = 8192;

/**
 * Epochs the log holds at most: a read of a link's tail searches the index once per epoch. While the
 * compactor is behind (cold visits on many links faster than it folds them), writers keep appending to
 * the newest epoch past this many, at the cost of rows placed within it at random, as before epochs.
 */
export const EPOCHS_AT_MOST = 128;

/** The epoch a writer appended to last: the newest, unless another connection opened one since. */
interface Run {
  epoch: number;
  /** The largest link id appended to it by this writer. */
  lastLinkId: string;
  entries: number;
}

const ADD_VISITOR = 'INSERT OR IGNORE INTO visitor_hashes (link_id, day, hash) VALUES (?, ?, ?)';

/**
 * The hex characters of a visitor hash kept (migration 035): its first 64 bits. The 64 characters of the
 * whole SHA-256 made the rows of the visitor set three times as long, and each cold visitor's insert
 * at a random place of it dearer (at 1,000,000 links and 800,000 hashes of the day, in transactions of
 * 2,500 with their checkpoints: 24.3-26.9 against 33.0-34.0 CPU-µs a visitor). Two visitors of one
 * link and day share 64 bits with a chance of about n² / 2⁶⁵ for n visitors (3 in a million at ten
 * million a day): the `unique` count is exact short of that.
 */
export const VISITOR_HASH_KEPT = 16;

/** A link's clicks in one flush. */
interface LoggedClicks {
  count: number;
  lastClickAt: number;
}

/**
 * The write of one flush (`VisitStore.record`) on a connection, in one IMMEDIATE transaction: the
 * visitor hashes new to their link and day (`visitor_hashes`), one `visit_log` row per link (its
 * counters, one `unique` per new hash, its clicks and latest click), and the `link.visited` events.
 * The rows go in ascending link id, into the newest epoch while they continue this writer's run there,
 * else into a new one once the newest holds {@link EPOCH_ENTRIES} and the log fewer than
 * {@link EPOCHS_AT_MOST} (migration 013): epochs never decrease along the log, which the compactor's
 * clean-up relies on.
 * Counters and clicks are folded later (visit-compactor.ts): no `links` row is written (migration 012).
 * Runs on the store's own connection, or on the background writer's (background-visit-writes.ts), which
 * loads this module in its worker thread.
 */
export function createVisitWriter(db: Database): (batch: VisitBatch) => void {
  const append = db.prepare<[number, string, string, number, number | null]>(APPEND);
  const addVisitor = db.prepare<[string, string, string]>(ADD_VISITOR);
  const addVisited = createVisitedEvents(db);
  const newestEpoch = db.prepare<[], number | null>('SELECT MAX(epoch) FROM visit_log_epochs').pluck();
  const addEpoch = db.prepare<[number]>('INSERT INTO visit_log_epochs (epoch) VALUES (?)');
  const epochCount = db.prepare<[], number>('SELECT COUNT(*) FROM visit_log_epochs').pluck();
  let run: Run | null = null;

  /** The epoch for `count` rows from `firstLinkId` up to `lastLinkId`, and this writer's run after them. */
  const epochFor = (firstLinkId: string, lastLinkId: string, count: number): Run => {
    const newest = newestEpoch.get() ?? null;
    if (newest !== null && run !== null && run.epoch === newest) {
      if (firstLinkId > run.lastLinkId) return { epoch: newest, lastLinkId, entries: run.entries + count };
      if (run.entries < EPOCH_ENTRIES) {
        const largest = lastLinkId > run.lastLinkId ? lastLinkId : run.lastLinkId;
        return { epoch: newest, lastLinkId: largest, entries: run.entries + count };
      }
    }
    if (newest !== null && (epochCount.get() ?? 0) >= EPOCHS_AT_MOST)
      return { epoch: newest, lastLinkId, entries: count }; // another writer's run, or too many epochs
    const epoch = (newest ?? 0) + 1;
    addEpoch.run(epoch);
    return { epoch, lastLinkId, entries: count };
  };

  // No link is looked up (migration 012): the visits of a link deleted since they were tracked leave
  // log rows that the compactor drops, and hashes that go with their day's.
  const record = db.transaction((batch: VisitBatch) => {
    const clicks = new Map<string, LoggedClicks>();
    for (const c of batch.clicks) {
      const logged = clicks.get(c.linkId);
      if (logged === undefined) clicks.set(c.linkId, { count: c.count, lastClickAt: c.lastClickAt });
      else {
        logged.count += c.count;
        logged.lastClickAt = Math.max(logged.lastClickAt, c.lastClickAt);
      }
    }
    const byLink = new Map<string, CounterIncrement[]>();
    const entryOf = (linkId: string) => {
      let counters = byLink.get(linkId);
      if (counters === undefined) byLink.set(linkId, (counters = []));
      return counters;
    };
    for (const c of batch.counters) entryOf(c.linkId).push(c);
    // the visitor set is written here, not folded later: a hash it did not hold is new (the events'
    // `unique` is exact), and the log row carries the new ones as `unique` for the compactor to add (a
    // link-day's hashes come one after another: they add to one increment)
    const uniques = new Map<string, number>();
    for (const { linkId, day, hash } of batch.visitors) {
      if (addVisitor.run(linkId, day, hash.slice(0, VISITOR_HASH_KEPT)).changes !== 1) continue;
      uniques.set(linkId, (uniques.get(linkId) ?? 0) + 1);
      const counters = entryOf(linkId);
      const last = counters.at(-1);
      if (last?.dimension === 'unique' && last.day === day)
        counters[counters.length - 1] = { ...last, count: last.count + 1 };
      else counters.push({ linkId, day, dimension: 'unique', key: '', count: 1 });
    }
    for (const linkId of clicks.keys()) entryOf(linkId);
    const linkIds = [...byLink.keys()].sort();
    const first = linkIds[0];
    const last = linkIds.at(-1);
    if (first === undefined || last === undefined) return run;
    const next = epochFor(first, last, linkIds.length);
    for (const linkId of linkIds) {
      const logged = clicks.get(linkId);
      append.run(
        next.epoch,
        linkId,
        // not merged: the aggregate's counters are one per key, and the readers and the compactor sum
        encodeLogCounters(byLink.get(linkId) ?? []),
        logged?.count ?? 0,
        logged?.lastClickAt ?? null,
      );
    }
    addVisited(batch, uniques); // one per link, in this transaction (decisions §16)
    return next;
  });
  // the run moves on once the transaction committed (a failed one wrote nothing)
  return (batch) => {
    run = record.immediate(batch);
  };
}
