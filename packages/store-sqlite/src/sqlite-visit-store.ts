import type { DimensionCount, KeyCount, VisitBatch, VisitDimension, VisitStore } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { createCounterWriter } from './counter-writes.js';
import { createWriteLock } from './write-lock.js';

const ADD_CLICKS = `UPDATE links SET clicks = clicks + ?,
  last_click_at = MAX(COALESCE(last_click_at, 0), ?) WHERE id = ?`;

const ADD_VISITOR = 'INSERT OR IGNORE INTO visitor_hashes (link_id, day, hash) VALUES (?, ?, ?)';

const COUNTS_BY_DAY = `SELECT day AS key, SUM(count) AS count FROM visit_counters
  WHERE link_id = ? AND dimension = ? AND day BETWEEN ? AND ? GROUP BY day ORDER BY day`;

const COUNTS_BY_KEY = `SELECT dimension, key, SUM(count) AS count FROM visit_counters
  WHERE link_id = ? AND day BETWEEN ? AND ? GROUP BY dimension, key ORDER BY dimension, count DESC, key`;

/** The VisitStore on a better-sqlite3 connection (already migrated). Statements are prepared once, here. */
export function createSqliteVisitStore(db: Database): VisitStore {
  const addClicks = db.prepare<[number, number, string]>(ADD_CLICKS);
  const counters = createCounterWriter(db);
  const lock = createWriteLock(db);
  const addVisitor = db.prepare<[string, string, string]>(ADD_VISITOR);
  const linkExists = db.prepare<[string], number>('SELECT 1 FROM links WHERE id = ?').pluck();
  const byDay = db.prepare<[string, VisitDimension, string, string], KeyCount>(COUNTS_BY_DAY);
  const byKey = db.prepare<[string, string, string], DimensionCount>(COUNTS_BY_KEY);
  const keepSalt = db.prepare<[string, string]>('INSERT OR IGNORE INTO salts (day, salt) VALUES (?, ?)');
  const saltOf = db.prepare<[string], string>('SELECT salt FROM salts WHERE day = ?').pluck();
  const pruneSalts = db.prepare<[string]>('DELETE FROM salts WHERE day < ?');
  const pruneVisitors = db.prepare<[string]>('DELETE FROM visitor_hashes WHERE day < ?');
  const pruneCounters = db.prepare<[string]>('DELETE FROM visit_counters WHERE day < ?');

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
    for (const v of batch.visitors) {
      if (exists(v.linkId) && addVisitor.run(v.linkId, v.day, v.hash).changes === 1) {
        counters.add({ linkId: v.linkId, day: v.day, dimension: 'unique', key: '', count: 1 });
      }
    }
  });
  const salt = db.transaction((day: string, candidate: string): string => {
    keepSalt.run(day, candidate);
    const kept = saltOf.get(day);
    if (kept === undefined) throw new Error(`The salt of ${day} vanished inside its transaction.`);
    return kept;
  });

  return {
    // IMMEDIATE transactions: see createSqliteLinkStore. The flush waits for a busy lock off the loop.
    record: (batch) => lock.write(() => record.immediate(batch)),
    countsByDay: async (linkId, dimension, fromDay, toDay) => byDay.all(linkId, dimension, fromDay, toDay),
    countsByKey: async (linkId, fromDay, toDay) => byKey.all(linkId, fromDay, toDay),
    salt: async (day, candidate) => salt.immediate(day, candidate),
    pruneSalts: async (beforeDay) => void pruneSalts.run(beforeDay),
    pruneVisitors: async (beforeDay) => void pruneVisitors.run(beforeDay),
    pruneCounters: async (beforeDay) => void pruneCounters.run(beforeDay),
  };
}
