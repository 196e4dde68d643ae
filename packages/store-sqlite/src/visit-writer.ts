import { encodeLogCounters, mergeIncrements } from '@shortener/core';
import type { CounterIncrement, VisitBatch } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { createVisitedEvents } from './visited-events.js';

const APPEND = 'INSERT INTO visit_log (link_id, counters, clicks, last_click_at) VALUES (?, ?, ?, ?)';

const ADD_VISITOR = 'INSERT OR IGNORE INTO visitor_hashes (link_id, day, hash) VALUES (?, ?, ?)';

/** A link's clicks in one flush. */
interface LoggedClicks {
  count: number;
  lastClickAt: number;
}

/**
 * The write of one flush (`VisitStore.record`) on a connection, in one IMMEDIATE transaction: the
 * visitor hashes new to their link and day (`visitor_hashes`), one `visit_log` row per link (its
 * counters, one `unique` per new hash, its clicks and latest click), and the `link.visited` events.
 * Counters and clicks are folded later (visit-compactor.ts): no `links` row is written (migration 012).
 * Runs on the store's own connection, or on the background writer's (background-visit-writes.ts), which
 * loads this module in its worker thread.
 */
export function createVisitWriter(db: Database): (batch: VisitBatch) => void {
  const append = db.prepare<[string, string, number, number | null]>(APPEND);
  const addVisitor = db.prepare<[string, string, string]>(ADD_VISITOR);
  const addVisited = createVisitedEvents(db);

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
    // `unique` is exact), and the log row carries it as one `unique` for the compactor to add
    const uniques = new Map<string, number>();
    for (const { linkId, day, hash } of batch.visitors) {
      if (addVisitor.run(linkId, day, hash).changes !== 1) continue;
      uniques.set(linkId, (uniques.get(linkId) ?? 0) + 1);
      entryOf(linkId).push({ linkId, day, dimension: 'unique', key: '', count: 1 });
    }
    for (const linkId of clicks.keys()) entryOf(linkId);
    for (const [linkId, counters] of byLink) {
      const logged = clicks.get(linkId);
      append.run(
        linkId,
        encodeLogCounters(mergeIncrements(counters)),
        logged?.count ?? 0,
        logged?.lastClickAt ?? null,
      );
    }
    addVisited(batch, uniques); // one per link, in this transaction (decisions §16)
  });
  return (batch) => record.immediate(batch);
}
