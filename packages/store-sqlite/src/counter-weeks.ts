import { dayOf, mondayOf } from '@shortener/core/visit-writes';
import type { Database } from 'better-sqlite3';
import { WEEK_OF } from './migrations/020-account-counters.js';
import { HOUR_PAIRS, HOURLY_ROW, KEYED_ROW } from './migrations/023-counter-weeks.js';

interface Summed {
  readonly before: string;
  readonly target: string;
  readonly cursor: string;
}

const SUMMED = 'SELECT before, target, cursor FROM counter_weeks_summed WHERE id = 1';
const SAVE = 'UPDATE counter_weeks_summed SET before = ?, target = ?, cursor = ? WHERE id = 1';

// the next link holding counters: one look at the edge of each counters' B-tree, whatever the links
// (through the view, SQLite would sort every counter after the cursor)
const NEXT_LINK = `SELECT MIN(link_id) FROM (
  SELECT MIN(link_id) AS link_id FROM visit_counters WHERE link_id > @cursor
  UNION ALL SELECT MIN(link_id) FROM counter_days WHERE link_id > @cursor)`;

// the link's weeks not summed yet; a week the triggers began meanwhile (none, while a pass runs) adds up
const SUM_LINK = `INSERT INTO counter_weeks (link_id, week, dimension, key, count)
  SELECT link_id, ${WEEK_OF('day')}, dimension, key, SUM(count) FROM all_counters c
  WHERE link_id = ? AND day >= ? AND day < ? AND ${KEYED_ROW('c')} GROUP BY 2, 3, 4
  ON CONFLICT (link_id, week, dimension, key) DO UPDATE SET count = count + excluded.count`;

// and its days' hours, packed a row a day
const PACK_LINK = `INSERT INTO counter_hours (link_id, day, dimension, pairs)
  SELECT link_id, day, dimension, ${HOUR_PAIRS} FROM all_counters c
  WHERE link_id = ? AND day >= ? AND day < ? AND ${HOURLY_ROW('c')} GROUP BY day, dimension
  ON CONFLICT (link_id, day, dimension) DO UPDATE SET pairs = excluded.pairs`;

/** How long one step sums links at most: beside the compactor, it never holds the write lock long. */
export const SUM_STEP_MS = 10;

/**
 * The summing of keyed counters per week and packing of hourly ones per day (migration 023) on a
 * connection: one step sums the weeks that are over (before this UTC week's Monday) of the next links, for at most `budgetMs` (at least one link),
 * in one IMMEDIATE transaction, and records how far it got. A pass goes over every link holding counters
 * in order of id, once a week. Returns the links summed: 0 when every week that is over is summed. Runs
 * after a compaction that found the visit log empty (visit-compactor.ts), so never while visits arrive
 * faster than they are folded.
 */
export function createWeekSummer(db: Database): (budgetMs?: number, today?: string) => number {
  const summed = db.prepare<[], Summed>(SUMMED);
  const save = db.prepare<[string, string, string]>(SAVE);
  const nextLink = db.prepare<[{ cursor: string }], string | null>(NEXT_LINK).pluck();
  const sumLink = db.prepare<[string, string, string]>(SUM_LINK);
  const packLink = db.prepare<[string, string, string]>(PACK_LINK);
  const step = db.transaction((budgetMs: number, today: string): number => {
    let { before, target, cursor } = summed.get() ?? { before: '', target: '', cursor: '' };
    if (before === target) {
      const monday = mondayOf(today);
      if (before >= monday) return 0;
      [target, cursor] = [monday, ''];
    }
    const deadline = performance.now() + budgetMs;
    let links = 0;
    do {
      const next = nextLink.get({ cursor });
      if (next === null || next === undefined) {
        [before, cursor] = [target, ''];
        break;
      }
      sumLink.run(next, before, target);
      packLink.run(next, before, target);
      cursor = next;
      links += 1;
    } while (performance.now() < deadline);
    save.run(before, target, cursor);
    return links;
  });
  return (budgetMs = SUM_STEP_MS, today = dayOf(Date.now())) => step.immediate(budgetMs, today);
}

/** Sums every week that is over, step after step: for tools and tests (the server sums beside folds). */
export function sumCounterWeeks(db: Database, today?: string): number {
  const step = createWeekSummer(db);
  let links = 0;
  for (let n = step(SUM_STEP_MS, today); n > 0; n = step(SUM_STEP_MS, today)) links += n;
  return links;
}
