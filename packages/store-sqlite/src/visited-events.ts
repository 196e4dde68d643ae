import { mergeVisitSummaries, summarizeVisitBatch } from '@shortener/core/visit-writes';
import type { VisitBatch, VisitSummary } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { consumed } from './migrations/011-event-consumers.js';

/** Whether someone takes the link's `link.visited` (migration 011's rule: the broker, or a webhook of the account). */
const WANTED = `SELECT 1 FROM links l WHERE l.id = ? AND ${consumed('l.account_id', 'link.visited')}`;
const SUM_OF = 'SELECT summary FROM visit_event_sums WHERE link_id = ?';
// a new window opens at the write's own time (the outbox's clock: SQLite's)
const PUT_SUM = `INSERT INTO visit_event_sums (link_id, opened_at, summary)
  VALUES (?, CAST(unixepoch('subsec') * 1000 AS INTEGER), ?)
  ON CONFLICT (link_id) DO UPDATE SET summary = excluded.summary`;

/**
 * Adds written visits to their links' running `link.visited` sums (migration 024, decisions §26) inside
 * the caller's transaction: a flush's (the visit writer) or a capped link's click (the link store).
 * `uniques` counts the new visitor hashes per link; links that no longer exist, or whose visits no one
 * takes, get none, and while no one takes `link.visited` nothing is summarised. The dispatcher closes
 * each window into one event.
 */
export function createVisitedEvents(
  db: Database,
): (batch: Pick<VisitBatch, 'counters'>, uniques?: ReadonlyMap<string, number>) => void {
  const wanted = db.prepare<[string], number>(WANTED).pluck();
  const sumOf = db.prepare<[string], string>(SUM_OF).pluck();
  const putSum = db.prepare<[string, string]>(PUT_SUM);
  const anyone = db.prepare<[], number>(`SELECT ${consumed(null, 'link.visited')}`).pluck();
  return (batch, uniques = new Map()) => {
    if (batch.counters.length === 0 || anyone.get() !== 1) return;
    for (const summary of summarizeVisitBatch({ clicks: [], visitors: [], ...batch }, uniques)) {
      const running = sumOf.get(summary.link_id);
      if (running === undefined && wanted.get(summary.link_id) !== 1) continue;
      const sum =
        running === undefined ? summary : mergeVisitSummaries(JSON.parse(running) as VisitSummary, summary);
      putSum.run(summary.link_id, JSON.stringify(sum));
    }
  };
}
