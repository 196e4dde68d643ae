import type { DimensionCount, KeyCount, VisitBatch, VisitDimension, VisitStore } from '@shortener/core';
import type { Database } from 'better-sqlite3';

const ADD_CLICKS = `UPDATE links SET clicks = clicks + @count,
  last_click_at = MAX(COALESCE(last_click_at, 0), @lastClickAt) WHERE id = @linkId`;

// The EXISTS guard drops increments of deleted links instead of failing the whole flush on the foreign key.
const LINK_EXISTS = 'WHERE EXISTS (SELECT 1 FROM links WHERE id = @linkId)';

const ADD_COUNT = `INSERT INTO visit_counters (link_id, day, dimension, key, count)
  SELECT @linkId, @day, @dimension, @key, @count ${LINK_EXISTS}
  ON CONFLICT (link_id, day, dimension, key) DO UPDATE SET count = count + excluded.count`;

const ADD_VISITOR = `INSERT OR IGNORE INTO visitor_hashes (link_id, day, hash)
  SELECT @linkId, @day, @hash ${LINK_EXISTS}`;

const COUNTS_BY_DAY = `SELECT day AS key, SUM(count) AS count FROM visit_counters
  WHERE link_id = ? AND dimension = ? AND day BETWEEN ? AND ? GROUP BY day ORDER BY day`;

const COUNTS_BY_KEY = `SELECT dimension, key, SUM(count) AS count FROM visit_counters
  WHERE link_id = ? AND day BETWEEN ? AND ? GROUP BY dimension, key ORDER BY dimension, count DESC, key`;

interface CountParams {
  linkId: string;
  day: string;
  dimension: VisitDimension;
  key: string;
  count: number;
}

/** The VisitStore on a better-sqlite3 connection (already migrated). Statements are prepared once, here. */
export function createSqliteVisitStore(db: Database): VisitStore {
  const addClicks = db.prepare<{ linkId: string; count: number; lastClickAt: number }>(ADD_CLICKS);
  const addCount = db.prepare<CountParams>(ADD_COUNT);
  const addVisitor = db.prepare<{ linkId: string; day: string; hash: string }>(ADD_VISITOR);
  const byDay = db.prepare<[string, VisitDimension, string, string], KeyCount>(COUNTS_BY_DAY);
  const byKey = db.prepare<[string, string, string], DimensionCount>(COUNTS_BY_KEY);
  const keepSalt = db.prepare<[string, string]>('INSERT OR IGNORE INTO salts (day, salt) VALUES (?, ?)');
  const saltOf = db.prepare<[string], string>('SELECT salt FROM salts WHERE day = ?').pluck();
  const pruneSalts = db.prepare<[string]>('DELETE FROM salts WHERE day < ?');
  const pruneVisitors = db.prepare<[string]>('DELETE FROM visitor_hashes WHERE day < ?');

  const record = db.transaction((batch: VisitBatch) => {
    for (const click of batch.clicks) addClicks.run(click);
    for (const counter of batch.counters) addCount.run(counter);
    for (const visitor of batch.visitors) {
      if (addVisitor.run(visitor).changes === 1) {
        addCount.run({ linkId: visitor.linkId, day: visitor.day, dimension: 'unique', key: '', count: 1 });
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
    record: async (batch) => record(batch),
    countsByDay: async (linkId, dimension, fromDay, toDay) => byDay.all(linkId, dimension, fromDay, toDay),
    countsByKey: async (linkId, fromDay, toDay) => byKey.all(linkId, fromDay, toDay),
    salt: async (day, candidate) => salt(day, candidate),
    pruneSalts: async (beforeDay) => void pruneSalts.run(beforeDay),
    pruneVisitors: async (beforeDay) => void pruneVisitors.run(beforeDay),
  };
}
