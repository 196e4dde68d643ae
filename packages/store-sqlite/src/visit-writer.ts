import type { VisitBatch } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { createCounterWriter } from './counter-writes.js';
import { createVisitedEvents } from './visited-events.js';

const ADD_CLICKS = `UPDATE links SET clicks = clicks + ?,
  last_click_at = MAX(COALESCE(last_click_at, 0), ?) WHERE id = ?`;

const ADD_VISITOR = 'INSERT OR IGNORE INTO visitor_hashes (link_id, day, hash) VALUES (?, ?, ?)';

/**
 * The write of one flush (`VisitStore.record`) on a connection: clicks, counters and visitor hashes in
 * one IMMEDIATE transaction. Runs on the store's own connection, or on the background writer's
 * (background-visit-writes.ts), which loads this module in its worker thread.
 */
export function createVisitWriter(db: Database): (batch: VisitBatch) => void {
  const addClicks = db.prepare<[number, number, string]>(ADD_CLICKS);
  const counters = createCounterWriter(db);
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
    counters.addAll(batch.counters.filter((c) => exists(c.linkId)));
    const uniques = new Map<string, number>();
    for (const v of batch.visitors) {
      if (exists(v.linkId) && addVisitor.run(v.linkId, v.day, v.hash).changes === 1) {
        counters.add({ linkId: v.linkId, day: v.day, dimension: 'unique', key: '', count: 1 });
        uniques.set(v.linkId, (uniques.get(v.linkId) ?? 0) + 1);
      }
    }
    addVisited(batch, uniques); // one per link, in this transaction (decisions §16)
  });
  return (batch) => record.immediate(batch);
}
