import { decodeLogCounters, encodeLogCounters, mergeIncrements } from '@shortener/core';
import type { CounterIncrement, VisitBatch } from '@shortener/core';
import type { PoolClient } from 'pg';
import { addCounters, compare } from './counter-writes.js';

const APPEND = `INSERT INTO visit_log (link_id, counters) SELECT * FROM unnest($1::text[], $2::text[])`;

// The visitor set is written by the flush: a hash it did not hold is new (one `unique`, exact).
const ADD_VISITORS = `INSERT INTO visitor_hashes (link_id, day, hash)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
  ON CONFLICT DO NOTHING RETURNING link_id, day`;

// One compactor per schema at a time, whichever node: the others find the lock taken and go.
const TRY_LOCK = `SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || '.visit_log')) AS locked`;

const TAKE_ENTRIES = `DELETE FROM visit_log WHERE seq IN (SELECT seq FROM visit_log ORDER BY seq LIMIT $1)
  RETURNING seq, link_id, counters`;

/**
 * Appends a flush inside the caller's transaction, for the links in `existing`: its visitor hashes to
 * the visitor set, and one log row per link with its counters and one `unique` per hash the set did not
 * hold. Returns the new hashes per link.
 */
export async function appendVisits(
  client: PoolClient,
  batch: VisitBatch,
  existing: ReadonlySet<string>,
): Promise<Map<string, number>> {
  const byLink = new Map<string, CounterIncrement[]>();
  const entryOf = (linkId: string) => {
    let counters = byLink.get(linkId);
    if (counters === undefined) byLink.set(linkId, (counters = []));
    return counters;
  };
  for (const c of batch.counters) if (existing.has(c.linkId)) entryOf(c.linkId).push(c);
  const uniques = new Map<string, number>();
  for (const { link_id: linkId, day } of await addVisitors(client, batch, existing)) {
    uniques.set(linkId, (uniques.get(linkId) ?? 0) + 1);
    entryOf(linkId).push({ linkId, day, dimension: 'unique', key: '', count: 1 });
  }
  if (byLink.size > 0) {
    const entries = [...byLink];
    await client.query(APPEND, [
      entries.map(([id]) => id),
      entries.map(([, counters]) => encodeLogCounters(mergeIncrements(counters))),
    ]);
  }
  return uniques;
}

/** Adds the batch's visitor hashes to the visitor set; returns those it did not hold. */
async function addVisitors(
  client: PoolClient,
  batch: VisitBatch,
  existing: ReadonlySet<string>,
): Promise<{ link_id: string; day: string }[]> {
  const visitors = batch.visitors.filter((v) => existing.has(v.linkId));
  if (visitors.length === 0) return [];
  const seen = new Map(visitors.map((v) => [`${v.linkId}\u0000${v.day}\u0000${v.hash}`, v]));
  const rows = [...seen].sort(([a], [b]) => compare(a, b)).map(([, v]) => v);
  const { rows: added } = await client.query<{ link_id: string; day: string }>(ADD_VISITORS, [
    rows.map((v) => v.linkId),
    rows.map((v) => v.day),
    rows.map((v) => v.hash),
  ]);
  return added;
}

/**
 * Folds up to `maxEntries` log rows into the counters inside the caller's transaction, and deletes them; 0 when another node's compactor holds the lock. A crash
 * (a terminated backend) rolls the whole chunk back: the rows stay in the log, counted once.
 */
export async function compactVisitLog(client: PoolClient, maxEntries: number): Promise<number> {
  const { rows: lock } = await client.query<{ locked: boolean }>(TRY_LOCK);
  if (lock[0]?.locked !== true) return 0;
  const { rows: entries } = await client.query<{ seq: string; link_id: string; counters: string }>(
    TAKE_ENTRIES,
    [maxEntries],
  );
  entries.sort((a, b) => Number(a.seq) - Number(b.seq)); // the order the key limit is applied in
  const increments = entries.flatMap((e) => decodeLogCounters(e.link_id, e.counters));
  await addCounters(client, mergeIncrements(increments));
  return entries.length;
}
