import type { CounterIncrement, DimensionCount, KeyCount, VisitBatch, VisitStore } from '@shortener/core';
import type { Pool, PoolClient } from 'pg';
import { addCounters, compare } from './counter-writes.js';
import { inTransaction } from './database.js';

// The batch's links, locked in id order (the same on every node) for the rest of the flush: a link
// deleted meanwhile waits for it, a deleted one is left out, and the clicks below cannot deadlock.
const LOCK_LINKS = 'SELECT id FROM links WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE';

const ADD_CLICKS = `UPDATE links SET clicks = clicks + u.count,
    last_click_at = GREATEST(COALESCE(last_click_at, 0), u.at)
  FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS u(id, count, at) WHERE links.id = u.id`;

const ADD_VISITORS = `INSERT INTO visitor_hashes (link_id, day, hash)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
  ON CONFLICT DO NOTHING RETURNING link_id, day`;

const COUNTS_BY_DAY = `SELECT day AS key, sum(count)::bigint AS count FROM visit_counters
  WHERE link_id = $1 AND dimension = $2 AND day BETWEEN $3 AND $4 GROUP BY day ORDER BY day`;

const COUNTS_BY_KEY = `SELECT dimension, key, sum(count)::bigint AS count FROM visit_counters
  WHERE link_id = $1 AND day BETWEEN $2 AND $3 GROUP BY dimension, key ORDER BY dimension, count DESC, key`;

// DO UPDATE (not DO NOTHING) returns the kept row even when another node inserted it a moment ago.
const SALT = `INSERT INTO salts (day, salt) VALUES ($1, $2)
  ON CONFLICT (day) DO UPDATE SET salt = salts.salt RETURNING salt`;

/** The VisitStore on a pg pool (schema migrated). A flush is one transaction of four statements. */
export function createPostgresVisitStore(pool: Pool): VisitStore {
  return {
    record: async (batch) => {
      if (batch.clicks.length + batch.counters.length + batch.visitors.length === 0) return;
      await inTransaction(pool, (client) => record(client, batch));
    },
    countsByDay: async (linkId, dimension, fromDay, toDay) =>
      (await pool.query<KeyCount>(COUNTS_BY_DAY, [linkId, dimension, fromDay, toDay])).rows,
    countsByKey: async (linkId, fromDay, toDay) =>
      (await pool.query<DimensionCount>(COUNTS_BY_KEY, [linkId, fromDay, toDay])).rows,
    salt: async (day, candidate) => {
      const { rows } = await pool.query<{ salt: string }>(SALT, [day, candidate]);
      return rows[0]?.salt ?? candidate;
    },
    pruneSalts: async (beforeDay) => void (await pool.query('DELETE FROM salts WHERE day < $1', [beforeDay])),
    pruneVisitors: async (beforeDay) =>
      void (await pool.query('DELETE FROM visitor_hashes WHERE day < $1', [beforeDay])),
    pruneCounters: async (beforeDay) =>
      void (await pool.query('DELETE FROM visit_counters WHERE day < $1', [beforeDay])),
  };
}

/** Applies a flush inside a transaction; increments of links that no longer exist are dropped. */
async function record(client: PoolClient, batch: VisitBatch): Promise<void> {
  const ids = new Set([...batch.clicks, ...batch.counters, ...batch.visitors].map((x) => x.linkId));
  const locked = await client.query<{ id: string }>(LOCK_LINKS, [[...ids]]);
  const existing = new Set(locked.rows.map((row) => row.id));
  const clicks = sumClicks(batch.clicks.filter((c) => existing.has(c.linkId)));
  if (clicks.length > 0) {
    await client.query(ADD_CLICKS, [
      clicks.map((c) => c.linkId),
      clicks.map((c) => c.count),
      clicks.map((c) => c.at),
    ]);
  }
  const unique = await addVisitors(
    client,
    batch.visitors.filter((v) => existing.has(v.linkId)),
  );
  await addCounters(client, [...batch.counters.filter((c) => existing.has(c.linkId)), ...unique]);
}

/** The batch's clicks, one per link (counts summed, the latest time kept), sorted by link. */
function sumClicks(clicks: VisitBatch['clicks']): { linkId: string; count: number; at: number }[] {
  const sums = new Map<string, { linkId: string; count: number; at: number }>();
  for (const c of clicks) {
    const sum = sums.get(c.linkId);
    sums.set(c.linkId, {
      linkId: c.linkId,
      count: (sum?.count ?? 0) + c.count,
      at: Math.max(sum?.at ?? 0, c.lastClickAt),
    });
  }
  return [...sums.values()].sort((a, b) => compare(a.linkId, b.linkId));
}

/** Keeps the hashes not seen yet for their link and day; returns one `unique` increment per new one. */
async function addVisitors(
  client: PoolClient,
  visitors: VisitBatch['visitors'],
): Promise<CounterIncrement[]> {
  if (visitors.length === 0) return [];
  const seen = new Map(visitors.map((v) => [`${v.linkId}\u0000${v.day}\u0000${v.hash}`, v]));
  const rows = [...seen.entries()].sort(([a], [b]) => compare(a, b)).map(([, v]) => v);
  const { rows: added } = await client.query<{ link_id: string; day: string }>(ADD_VISITORS, [
    rows.map((v) => v.linkId),
    rows.map((v) => v.day),
    rows.map((v) => v.hash),
  ]);
  return added.map(({ link_id: linkId, day }) => ({ linkId, day, dimension: 'unique', key: '', count: 1 }));
}
