import { decodeLogCounters, mergeIncrements } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { createCounterWriter } from './counter-writes.js';

interface LogRow {
  readonly seq: number;
  readonly link_id: string;
  readonly counters: string;
}

interface TailVisitor {
  readonly link_id: string;
  readonly day: string;
  readonly hash: string;
}

const OLDEST_ENTRIES = 'SELECT seq, link_id, counters FROM visit_log ORDER BY seq LIMIT ?';
const OLDEST_VISITORS = 'SELECT link_id, day, hash FROM visit_log_visitors LIMIT ?';
const ADD_VISITOR = 'INSERT OR IGNORE INTO visitor_hashes (link_id, day, hash) VALUES (?, ?, ?)';
const DROP_VISITOR = 'DELETE FROM visit_log_visitors WHERE link_id = ? AND day = ? AND hash = ?';

/**
 * The compaction of the visit log (`VisitStore.compact`) on a connection: up to `maxEntries` of the
 * oldest log rows and tail visitor hashes are folded into `visit_counters` (under the per-day key limit,
 * counter-writes.ts; the entries carry the `unique` counts) and `visitor_hashes`, and deleted, in one
 * IMMEDIATE transaction: a crash folds the chunk whole or not at all, and SQLite's one writer at a time
 * keeps two compactors from folding the same rows. Runs in the background writer's worker thread on
 * the server (background-visit-writes.ts), or on the store's connection.
 */
export function createVisitCompactor(db: Database): (maxEntries: number) => number {
  const oldestEntries = db.prepare<[number], LogRow>(OLDEST_ENTRIES);
  const dropEntries = db.prepare<[number]>('DELETE FROM visit_log WHERE seq <= ?');
  const oldestVisitors = db.prepare<[number], TailVisitor>(OLDEST_VISITORS);
  const addVisitor = db.prepare<[string, string, string]>(ADD_VISITOR);
  const dropVisitor = db.prepare<[string, string, string]>(DROP_VISITOR);
  const counters = createCounterWriter(db);

  const compact = db.transaction((maxEntries: number): number => {
    const entries = oldestEntries.all(maxEntries);
    const last = entries.at(-1);
    if (last !== undefined) {
      counters.addAll(mergeIncrements(entries.flatMap((e) => decodeLogCounters(e.link_id, e.counters))));
      // the rows read are the oldest ones of this transaction: none older can appear meanwhile
      dropEntries.run(last.seq);
    }
    const visitors = oldestVisitors.all(Math.max(maxEntries - entries.length, 0));
    // their `unique` counts came with the log entries: the hashes only join the folded set
    for (const { link_id: linkId, day, hash } of visitors) {
      dropVisitor.run(linkId, day, hash);
      addVisitor.run(linkId, day, hash);
    }
    return entries.length + visitors.length;
  });
  return (maxEntries) => compact.immediate(maxEntries);
}
