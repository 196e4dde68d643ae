import { decodeLogCounters, encodeLogCounters, mergeIncrements } from '@shortener/core';
import type { CounterIncrement, VisitBatch } from '@shortener/core';
import type { PoolClient } from 'pg';
import { addCounters, compare } from './counter-writes.js';

const APPEND = `INSERT INTO visit_log (link_id, counters) SELECT * FROM unnest($1::text[], $2::text[])`;

// A hash is new when neither the folded set nor the tail holds it: the event's `unique` counts it once.
const ADD_TAIL_VISITORS = `INSERT INTO visit_log_visitors (link_id, day, hash)
  SELECT u.* FROM unnest($1::text[], $2::text[], $3::text[]) AS u(link_id, day, hash)
  WHERE NOT EXISTS (SELECT 1 FROM visitor_hashes v
    WHERE v.link_id = u.link_id AND v.day = u.day AND v.hash = u.hash)
  ON CONFLICT DO NOTHING RETURNING link_id, day`;

// A flush's look-up of the folded hashes and its insert into the tail never straddle a compaction's move
// of tail hashes into the folded set (else a hash moved in between would be counted new twice): flushes
// share this lock, the compactor takes it alone while it moves hashes.
const SHARE_VISITORS = `SELECT pg_advisory_xact_lock_shared(hashtext(current_schema() || '.visit_log_visitors'))`;
const MOVE_VISITORS = `SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.visit_log_visitors'))`;

// One compactor per schema at a time, whichever node: the others find the lock taken and go.
const TRY_LOCK = `SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || '.visit_log')) AS locked`;

const TAKE_ENTRIES = `DELETE FROM visit_log WHERE seq IN (SELECT seq FROM visit_log ORDER BY seq LIMIT $1)
  RETURNING seq, link_id, counters`;

const TAKE_VISITORS = `DELETE FROM visit_log_visitors WHERE (link_id, day, hash) IN
  (SELECT link_id, day, hash FROM visit_log_visitors LIMIT $1) RETURNING link_id, day, hash`;

const ADD_VISITORS = `INSERT INTO visitor_hashes (link_id, day, hash)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING`;

/**
 * Appends a flush inside the caller's transaction, for the links in `existing`: its visitor hashes new
 * to their link and day to the tail, and one log row per link with its counters and one `unique` per
 * new hash (reads never count the tail's hashes). Returns the new hashes per link.
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
  for (const { link_id: linkId, day } of await addTailVisitors(client, batch, existing)) {
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

/** Adds the batch's visitor hashes new to their link and day to the tail; returns those added. */
async function addTailVisitors(
  client: PoolClient,
  batch: VisitBatch,
  existing: ReadonlySet<string>,
): Promise<{ link_id: string; day: string }[]> {
  const visitors = batch.visitors.filter((v) => existing.has(v.linkId));
  if (visitors.length === 0) return [];
  const seen = new Map(visitors.map((v) => [`${v.linkId}\u0000${v.day}\u0000${v.hash}`, v]));
  const rows = [...seen].sort(([a], [b]) => compare(a, b)).map(([, v]) => v);
  await client.query(SHARE_VISITORS);
  const { rows: added } = await client.query<{ link_id: string; day: string }>(ADD_TAIL_VISITORS, [
    rows.map((v) => v.linkId),
    rows.map((v) => v.day),
    rows.map((v) => v.hash),
  ]);
  return added;
}

/**
 * Folds up to `maxEntries` log rows and tail visitor hashes into the counters and visitor sets inside
 * the caller's transaction, and deletes them; 0 when another node's compactor holds the lock. A crash
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
  const room = Math.max(maxEntries - entries.length, 0);
  if (room > 0) await client.query(MOVE_VISITORS);
  const { rows: visitors } =
    room === 0
      ? { rows: [] }
      : await client.query<{ link_id: string; day: string; hash: string }>(TAKE_VISITORS, [room]);
  // their `unique` counts came with the log entries: the hashes only join the folded set
  if (visitors.length > 0) {
    await client.query(ADD_VISITORS, [
      visitors.map((v) => v.link_id),
      visitors.map((v) => v.day),
      visitors.map((v) => v.hash),
    ]);
  }
  return entries.length + visitors.length;
}
