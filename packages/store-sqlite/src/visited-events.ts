import { summarizeVisitBatch } from '@shortener/core';
import type { VisitBatch } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { consumed } from './migrations/011-event-consumers.js';

/**
 * The `link.visited` event of one link, with its account, domain and slug at the time (decisions §16),
 * when someone takes it (migration 011's rule: the broker, or a webhook of the account).
 */
const ADD_VISITED = `INSERT INTO event_outbox (id, type, account_id, payload, created_at)
  SELECT 'msg_' || lower(hex(randomblob(16))), 'link.visited', l.account_id,
    json_set(?, '$.domain', l.domain, '$.slug', l.slug), CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM links l WHERE l.id = ? AND ${consumed('l.account_id', 'link.visited')}`;

/**
 * Adds the `link.visited` events of written visits inside the caller's transaction: a flush's (the visit
 * writer) or a capped link's click (the link store). `uniques` counts the new visitor hashes per link;
 * links that no longer exist get none, and while no one takes `link.visited` nothing is summarised.
 */
export function createVisitedEvents(
  db: Database,
): (batch: Pick<VisitBatch, 'counters'>, uniques?: ReadonlyMap<string, number>) => void {
  const addVisited = db.prepare<[string, string]>(ADD_VISITED);
  const anyone = db.prepare<[], number>(`SELECT ${consumed(null, 'link.visited')}`).pluck();
  return (batch, uniques = new Map()) => {
    if (batch.counters.length === 0 || anyone.get() !== 1) return;
    for (const summary of summarizeVisitBatch({ clicks: [], visitors: [], ...batch }, uniques)) {
      addVisited.run(JSON.stringify(summary), summary.link_id);
    }
  };
}
