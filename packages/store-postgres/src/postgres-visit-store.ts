import type { CounterIncrement, DimensionCount, KeyCount, VisitBatch, VisitStore } from '@shortener/core';
import type { Pool, PoolClient } from 'pg';
import { addCounters, compare } from './counter-writes.js';
import { inTransaction, unavailableReason } from './database.js';
import { addVisitedEvents } from './postgres-event-store.js';

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

const CURRENT_XID = 'SELECT pg_current_xact_id()::text AS xid';
const XACT_STATUS = 'SELECT pg_xact_status($1::xid8) AS status';

// DO UPDATE (not DO NOTHING) returns the kept row even when another node inserted it a moment ago.
const SALT = `INSERT INTO salts (day, salt) VALUES ($1, $2)
  ON CONFLICT (day) DO UPDATE SET salt = salts.salt RETURNING salt`;

/** A flush whose connection was lost while it committed: written or not, only the server knows. */
interface InDoubt {
  readonly xid: string;
  readonly batch: VisitBatch;
}

/** The PostgreSQL VisitStore, and the settling of flushes left in doubt by a lost connection. */
export interface PostgresVisitStore extends VisitStore {
  /**
   * Asks the database what became of each flush in doubt: committed, it is forgotten; rolled back, it
   * is written again. Throws (keeping them) when the database does not answer.
   */
  settleInDoubt(): Promise<void>;
}

/**
 * The VisitStore on a pg pool (schema migrated). A flush is one transaction of four statements. A flush
 * whose connection is lost at its COMMIT may have committed: answering "failed" would have the recorder
 * write it again (counted twice), so it is answered written and kept here, with its transaction id,
 * until the database says whether it committed (before the next flush, or a write probe).
 */
export function createPostgresVisitStore(pool: Pool): PostgresVisitStore {
  const inDoubt: InDoubt[] = [];
  const write = async (batch: VisitBatch): Promise<void> => {
    let xid: string | undefined;
    try {
      await inTransaction(pool, async (client) => {
        await record(client, batch);
        // the last statement before COMMIT: a failure before it is a sure rollback
        xid = (await client.query<{ xid: string }>(CURRENT_XID)).rows[0]?.xid;
      });
    } catch (error) {
      if (xid === undefined || unavailableReason(error) === null) throw error;
      inDoubt.push({ xid, batch });
    }
  };
  const settleInDoubt = async (): Promise<void> => {
    const doubts = inDoubt.splice(0);
    for (const [i, doubt] of doubts.entries()) {
      try {
        const { rows } = await pool.query<{ status: string | null }>(XACT_STATUS, [doubt.xid]);
        const status = rows[0]?.status;
        if (status === 'aborted') await write(doubt.batch);
        else if (status !== 'committed') inDoubt.push(doubt); // still in progress: asked again later
      } catch (error) {
        inDoubt.push(...doubts.slice(i));
        throw error;
      }
    }
  };
  return {
    record: async (batch) => {
      if (batch.clicks.length + batch.counters.length + batch.visitors.length === 0) return;
      if (inDoubt.length > 0) await settleInDoubt();
      await write(batch);
    },
    settleInDoubt,
    compact: async () => 0,
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
  const uniques = new Map<string, number>();
  for (const { linkId } of unique) uniques.set(linkId, (uniques.get(linkId) ?? 0) + 1);
  await addVisitedEvents(
    client,
    { ...batch, counters: batch.counters.filter((c) => existing.has(c.linkId)) },
    uniques,
  );
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
