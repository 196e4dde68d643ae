import { summarizeVisitBatch } from '@shortener/core';
import type { VisitBatch } from '@shortener/core';
import type { Database } from 'better-sqlite3';

/** The `link.visited` event of one link, with its account, domain and slug at the time (decisions §16). */
const ADD_VISITED = `INSERT INTO event_outbox (id, type, account_id, payload, created_at)
  SELECT 'msg_' || lower(hex(randomblob(16))), 'link.visited', account_id,
    json_set(?, '$.domain', domain, '$.slug', slug), CAST(unixepoch('subsec') * 1000 AS INTEGER)
  FROM links WHERE id = ?`;

/**
 * Adds the `link.visited` events of written visits inside the caller's transaction: a flush's (the visit
 * writer) or a capped link's click (the link store). `uniques` counts the new visitor hashes per link;
 * links that no longer exist get none.
 */
export function createVisitedEvents(
  db: Database,
): (batch: Pick<VisitBatch, 'counters'>, uniques?: ReadonlyMap<string, number>) => void {
  const addVisited = db.prepare<[string, string]>(ADD_VISITED);
  return (batch, uniques = new Map()) => {
    for (const summary of summarizeVisitBatch({ clicks: [], visitors: [], ...batch }, uniques)) {
      addVisited.run(JSON.stringify(summary), summary.link_id);
    }
  };
}
