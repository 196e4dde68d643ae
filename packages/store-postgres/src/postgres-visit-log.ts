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
  ON CONFLICT DO NOTHING RETURNING link_id`;

// One compactor per schema at a time, whichever node: the others find the lock taken and go.
const TRY_LOCK = `SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || '.visit_log')) AS locked`;

const TAKE_ENTRIES = `DELETE FROM visit_log WHERE seq IN (SELECT seq FROM visit_log ORDER BY seq LIMIT $1)
  RETURNING seq, link_id, counters`;

const TAKE_VISITORS = `DELETE FROM visit_log_visitors WHERE (link_id, day, hash) IN
  (SELECT link_id, day, hash FROM visit_log_visitors LIMIT $1) RETURNING link_id, day, hash`;

const ADD_VISITORS = `INSERT INTO visitor_hashes (link_id, day, hash)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
  ON CONFLICT DO NOTHING RETURNING link_id, day`;

/**
 * Appends a flush's counters (one log row per link) and its visitor hashes new to their link and day,
 * inside the caller's transaction, for the links in `existing`; returns the new hashes per link.
 */
export async function appendVisits(
  client: PoolClient,
  batch: VisitBatch,
  existing: ReadonlySet<string>,
): Promise<Map<string, number>> {
  const byLink = new Map<string, CounterIncrement[]>();
  for (const c of batch.counters) {
    if (!existing.has(c.linkId)) continue;
    const counters = byLink.get(c.linkId);
    if (counters === undefined) byLink.set(c.linkId, [c]);
    else counters.push(c);
  }
  if (byLink.size > 0) {
    const entries = [...byLink];
    await client.query(APPEND, [entries.map(([id]) => id), entries.map(([, c]) => encodeLogCounters(c))]);
  }
  const uniques = new Map<string, number>();
  const visitors = batch.visitors.filter((v) => existing.has(v.linkId));
  if (visitors.length === 0) return uniques;
  const seen = new Map(visitors.map((v) => [`${v.linkId}\u0000${v.day}\u0000${v.hash}`, v]));
  const rows = [...seen].sort(([a], [b]) => compare(a, b)).map(([, v]) => v);
  const { rows: added } = await client.query<{ link_id: string }>(ADD_TAIL_VISITORS, [
    rows.map((v) => v.linkId),
    rows.map((v) => v.day),
    rows.map((v) => v.hash),
  ]);
  for (const { link_id: id } of added) uniques.set(id, (uniques.get(id) ?? 0) + 1);
  return uniques;
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
  const room = Math.max(maxEntries - entries.length, 0);
  const { rows: visitors } =
    room === 0
      ? { rows: [] }
      : await client.query<{ link_id: string; day: string; hash: string }>(TAKE_VISITORS, [room]);
  if (visitors.length > 0) {
    const { rows: added } = await client.query<{ link_id: string; day: string }>(ADD_VISITORS, [
      visitors.map((v) => v.link_id),
      visitors.map((v) => v.day),
      visitors.map((v) => v.hash),
    ]);
    for (const { link_id: linkId, day } of added)
      increments.push({ linkId, day, dimension: 'unique', key: '', count: 1 });
  }
  await addCounters(client, mergeIncrements(increments));
  return entries.length + visitors.length;
}
