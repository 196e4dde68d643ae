import type { DimensionCount, KeyCount, VisitDimension, VisitStore } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import type { BackgroundVisitWrites } from './background-visit-writes.js';
import { createVisitWriter } from './visit-writer.js';
import { createWriteLock } from './write-lock.js';

const COUNTS_BY_DAY = `SELECT day AS key, SUM(count) AS count FROM visit_counters
  WHERE link_id = ? AND dimension = ? AND day BETWEEN ? AND ? GROUP BY day ORDER BY day`;

const COUNTS_BY_KEY = `SELECT dimension, key, SUM(count) AS count FROM visit_counters
  WHERE link_id = ? AND day BETWEEN ? AND ? GROUP BY dimension, key ORDER BY dimension, count DESC, key`;

/**
 * The VisitStore on a better-sqlite3 connection (already migrated). Statements are prepared once, here.
 * With `background`, flushes are written by its worker thread on a connection of its own, off the event
 * loop; should that writer fail, they are written here again.
 */
export function createSqliteVisitStore(db: Database, background?: BackgroundVisitWrites): VisitStore {
  const write = createVisitWriter(db);
  const lock = createWriteLock(db);
  const byDay = db.prepare<[string, VisitDimension, string, string], KeyCount>(COUNTS_BY_DAY);
  const byKey = db.prepare<[string, string, string], DimensionCount>(COUNTS_BY_KEY);
  const keepSalt = db.prepare<[string, string]>('INSERT OR IGNORE INTO salts (day, salt) VALUES (?, ?)');
  const saltOf = db.prepare<[string], string>('SELECT salt FROM salts WHERE day = ?').pluck();
  const pruneSalts = db.prepare<[string]>('DELETE FROM salts WHERE day < ?');
  const pruneVisitors = db.prepare<[string]>('DELETE FROM visitor_hashes WHERE day < ?');
  const pruneCounters = db.prepare<[string]>('DELETE FROM visit_counters WHERE day < ?');

  const salt = db.transaction((day: string, candidate: string): string => {
    keepSalt.run(day, candidate);
    const kept = saltOf.get(day);
    if (kept === undefined) throw new Error(`The salt of ${day} vanished inside its transaction.`);
    return kept;
  });

  return {
    // IMMEDIATE transactions: see createSqliteLinkStore. The flush waits for a busy lock off the loop.
    record: (batch) =>
      background?.usable() === true ? background.write(batch) : lock.write(() => write(batch)),
    countsByDay: async (linkId, dimension, fromDay, toDay) => byDay.all(linkId, dimension, fromDay, toDay),
    countsByKey: async (linkId, fromDay, toDay) => byKey.all(linkId, fromDay, toDay),
    salt: async (day, candidate) => salt.immediate(day, candidate),
    pruneSalts: async (beforeDay) => void pruneSalts.run(beforeDay),
    pruneVisitors: async (beforeDay) => void pruneVisitors.run(beforeDay),
    pruneCounters: async (beforeDay) => void pruneCounters.run(beforeDay),
  };
}
