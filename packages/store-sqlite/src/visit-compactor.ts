import { decodeLogCounters, mergeIncrements } from '@shortener/core/visit-writes';
import type { Database } from 'better-sqlite3';
import { createCounterWriter } from './counter-writes.js';
import { createWeekSummer } from './counter-weeks.js';

interface LogRow {
  readonly seq: number;
  readonly link_id: string;
  readonly counters: string;
  readonly clicks: number;
  readonly last_click_at: number | null;
}

const OLDEST_ENTRIES =
  'SELECT seq, link_id, counters, clicks, last_click_at FROM visit_log ORDER BY seq LIMIT ?';

// epochs never decrease along the log (visit-writer.ts): those before the oldest entry's are empty
const DROP_EMPTY_EPOCHS = `DELETE FROM visit_log_epochs WHERE epoch <
  COALESCE((SELECT epoch FROM visit_log ORDER BY seq LIMIT 1), (SELECT MAX(epoch) + 1 FROM visit_log_epochs))`;

// a narrow row of its own, not the wide links row (migration 033)
const ADD_CLICKS = `INSERT INTO link_clicks (link_id, clicks, last_click_at) VALUES (?, ?, ?)
  ON CONFLICT (link_id) DO UPDATE SET clicks = clicks + excluded.clicks,
    last_click_at = MAX(COALESCE(last_click_at, 0), excluded.last_click_at)`;

/**
 * The compaction of the visit log (`VisitStore.compact`) on a connection: up to `maxEntries` of the
 * oldest log rows are folded into the counters (under the per-day key limit, counter-writes.ts: a
 * link-day new to the store as one `counter_days` row, migration 034, others into `visit_counters`; the
 * rows carry the `unique` counts) and their clicks into `link_clicks` (one upsert a link of the chunk,
 * migrations 012 and 033), and deleted with the epochs they emptied (migration 013), in one IMMEDIATE
 * transaction: a crash folds the chunk whole or not at all, so `clicks` and the statistics never part,
 * and SQLite's one writer at a time keeps two compactors from folding the same rows. Runs in the
 * background writer's worker thread on the server (background-visit-writes.ts), or on the store's
 * connection. A compaction that finds the log empty then sums a step of the weeks that are over
 * (counter-weeks.ts), in a transaction of its own.
 */
export function createVisitCompactor(db: Database): (maxEntries: number) => number {
  const oldestEntries = db.prepare<[number], LogRow>(OLDEST_ENTRIES);
  const dropEntries = db.prepare<[number]>('DELETE FROM visit_log WHERE seq <= ?');
  const dropEmptyEpochs = db.prepare(DROP_EMPTY_EPOCHS);
  const addClicks = db.prepare<[string, number, number]>(ADD_CLICKS);
  const linkExists = db.prepare<[string], number>('SELECT 1 FROM links WHERE id = ?').pluck();
  const counters = createCounterWriter(db);

  const compact = db.transaction((maxEntries: number): number => {
    const read = oldestEntries.all(maxEntries);
    const last = read.at(-1);
    if (last === undefined) {
      dropEmptyEpochs.run(); // a deleted link's entries go by trigger, and may have been the last
      return 0;
    }
    const clicks = new Map<string, { count: number; lastClickAt: number }>();
    for (const e of read) {
      if (e.clicks === 0 || e.last_click_at === null) continue;
      const sum = clicks.get(e.link_id);
      if (sum === undefined) clicks.set(e.link_id, { count: e.clicks, lastClickAt: e.last_click_at });
      else {
        sum.count += e.clicks;
        sum.lastClickAt = Math.max(sum.lastClickAt, e.last_click_at);
      }
    }
    // rows of a link deleted after they were tracked (the flush looks no link up, migration 012) go
    // unfolded: the link's counters and clicks went with it
    const existing = new Map<string, boolean>();
    const exists = (linkId: string): boolean => {
      let known = existing.get(linkId);
      if (known === undefined) existing.set(linkId, (known = linkExists.get(linkId) !== undefined));
      return known;
    };
    for (const [linkId, sum] of clicks) if (exists(linkId)) addClicks.run(linkId, sum.count, sum.lastClickAt);
    const entries = read.filter((e) => exists(e.link_id));
    counters.addAll(mergeIncrements(entries.flatMap((e) => decodeLogCounters(e.link_id, e.counters))));
    // the rows read are the oldest ones of this transaction: none older can appear meanwhile
    dropEntries.run(last.seq);
    dropEmptyEpochs.run();
    return read.length;
  });
  const sumWeeks = createWeekSummer(db);
  return (maxEntries) => {
    const folded = compact.immediate(maxEntries);
    if (folded === 0) sumWeeks();
    return folded;
  };
}
