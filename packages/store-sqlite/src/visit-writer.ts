import { encodeLogCounters, mergeIncrements } from '@shortener/core';
import type { CounterIncrement, VisitBatch } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { createVisitedEvents } from './visited-events.js';

const ADD_CLICKS = `UPDATE links SET clicks = clicks + ?,
  last_click_at = MAX(COALESCE(last_click_at, 0), ?) WHERE id = ?`;

const APPEND = 'INSERT INTO visit_log (link_id, counters) VALUES (?, ?)';

const ADD_VISITOR = 'INSERT OR IGNORE INTO visitor_hashes (link_id, day, hash) VALUES (?, ?, ?)';

/**
 * The write of one flush (`VisitStore.record`) on a connection, in one IMMEDIATE transaction: the
 * links' clicks, the visitor hashes new to their link and day (`visitor_hashes`), one `visit_log` row
 * per link (its counters, and one `unique` per new hash), and the `link.visited` events. Counters are folded later (visit-compactor.ts). Runs on the store's own
 * connection, or on the background writer's (background-visit-writes.ts), which loads this module in
 * its worker thread.
 */
export function createVisitWriter(db: Database): (batch: VisitBatch) => void {
  const addClicks = db.prepare<[number, number, string]>(ADD_CLICKS);
  const append = db.prepare<[string, string]>(APPEND);
  const addVisitor = db.prepare<[string, string, string]>(ADD_VISITOR);
  const linkExists = db.prepare<[string], number>('SELECT 1 FROM links WHERE id = ?').pluck();
  const addVisited = createVisitedEvents(db);

  // Increments of links deleted since the visits were tracked are dropped (one look-up per link, not
  // per row; a link whose clicks were just added exists), instead of failing the whole flush on the
  // foreign key.
  const record = db.transaction((batch: VisitBatch) => {
    const existing = new Map<string, boolean>();
    const exists = (linkId: string) => {
      let known = existing.get(linkId);
      if (known === undefined) existing.set(linkId, (known = linkExists.get(linkId) !== undefined));
      return known;
    };
    for (const c of batch.clicks) {
      if (addClicks.run(c.count, c.lastClickAt, c.linkId).changes === 1) existing.set(c.linkId, true);
    }
    const byLink = new Map<string, CounterIncrement[]>();
    const entryOf = (linkId: string) => {
      let counters = byLink.get(linkId);
      if (counters === undefined) byLink.set(linkId, (counters = []));
      return counters;
    };
    for (const c of batch.counters) if (exists(c.linkId)) entryOf(c.linkId).push(c);
    // the visitor set is written here, not folded later: a hash it did not hold is new (the events'
    // `unique` is exact), and the log row carries it as one `unique` for the compactor to add
    const uniques = new Map<string, number>();
    for (const { linkId, day, hash } of batch.visitors) {
      if (!exists(linkId) || addVisitor.run(linkId, day, hash).changes !== 1) continue;
      uniques.set(linkId, (uniques.get(linkId) ?? 0) + 1);
      entryOf(linkId).push({ linkId, day, dimension: 'unique', key: '', count: 1 });
    }
    for (const [linkId, counters] of byLink) append.run(linkId, encodeLogCounters(mergeIncrements(counters)));
    addVisited(batch, uniques); // one per link, in this transaction (decisions §16)
  });
  return (batch) => record.immediate(batch);
}
