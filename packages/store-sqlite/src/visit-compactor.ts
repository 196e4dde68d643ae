import { decodeLogCounters, mergeIncrements } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { createCounterWriter } from './counter-writes.js';

interface LogRow {
  readonly seq: number;
  readonly link_id: string;
  readonly counters: string;
}

const OLDEST_ENTRIES = 'SELECT seq, link_id, counters FROM visit_log ORDER BY seq LIMIT ?';

/**
 * The compaction of the visit log (`VisitStore.compact`) on a connection: up to `maxEntries` of the
 * oldest log rows are folded into `visit_counters` (under the per-day key limit, counter-writes.ts; the
 * rows carry the `unique` counts) and deleted, in one IMMEDIATE transaction: a crash folds the chunk whole or not at all, and SQLite's one writer at a time
 * keeps two compactors from folding the same rows. Runs in the background writer's worker thread on
 * the server (background-visit-writes.ts), or on the store's connection.
 */
export function createVisitCompactor(db: Database): (maxEntries: number) => number {
  const oldestEntries = db.prepare<[number], LogRow>(OLDEST_ENTRIES);
  const dropEntries = db.prepare<[number]>('DELETE FROM visit_log WHERE seq <= ?');
  const counters = createCounterWriter(db);

  const compact = db.transaction((maxEntries: number): number => {
    const entries = oldestEntries.all(maxEntries);
    const last = entries.at(-1);
    if (last !== undefined) {
      counters.addAll(mergeIncrements(entries.flatMap((e) => decodeLogCounters(e.link_id, e.counters))));
      // the rows read are the oldest ones of this transaction: none older can appear meanwhile
      dropEntries.run(last.seq);
    }
    return entries.length;
  });
  return (maxEntries) => compact.immediate(maxEntries);
}
