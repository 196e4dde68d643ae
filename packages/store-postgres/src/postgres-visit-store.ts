import { addDays, OTHER_KEY } from '@shortener/core';
import type { AccountVisitReads, KeyCount, VisitBatch, VisitStore } from '@shortener/core';
import type { Pool, PoolClient } from 'pg';
import { compare } from './counter-writes.js';
import { inTransaction, unavailableReason } from './database.js';
import { addVisitedEvents } from './postgres-event-store.js';
import { createAccountReaders } from './postgres-visit-account.js';
import { acrossReaders } from './postgres-visit-across.js';
import { appendVisits, compactVisitLog } from './postgres-visit-log.js';
import { withTail } from './postgres-visit-tail.js';
import type { KeyRow } from './postgres-visit-tail.js';

// The batch's links, locked in id order (the same on every node) for the rest of the flush: a link
// deleted meanwhile waits for it, a deleted one is left out, and the clicks below cannot deadlock.
const LOCK_LINKS = 'SELECT id FROM links WHERE id = ANY($1::text[]) ORDER BY id FOR NO KEY UPDATE';

const ADD_CLICKS = `UPDATE links SET clicks = clicks + u.count,
    last_click_at = GREATEST(COALESCE(last_click_at, 0), u.at)
  FROM unnest($1::text[], $2::bigint[], $3::bigint[]) AS u(id, count, at) WHERE links.id = u.id`;

// Counters plus the unfolded tail, in one statement: one snapshot, before or after a compaction's commit.
const COUNTS_BY_DAY = `SELECT day AS key, sum(count)::bigint AS count FROM (
    SELECT day, count FROM visit_counters
      WHERE link_id = $1 AND dimension = $2 AND day BETWEEN $3 AND $4
    UNION ALL
    SELECT e->>0, (e->>3)::bigint FROM visit_log l, jsonb_array_elements(l.counters::jsonb) e
      WHERE l.link_id = $1 AND e->>1 = $2 AND e->>0 BETWEEN $3 AND $4
  ) t GROUP BY day ORDER BY day`;

// The stored sums ('s'), the tail's log rows ('t', their new visitors as `unique`) and the keys held
// on the tail's days ('h', for the key limit as the compactor will apply it), in one statement.
const COUNTS_BY_KEY = `SELECT 's' AS part, dimension, key, sum(count)::bigint AS count, '' AS day
    FROM visit_counters WHERE link_id = $1 AND day BETWEEN $2 AND $3 GROUP BY dimension, key
  UNION ALL
  SELECT 't', '', counters, seq, '' FROM visit_log WHERE link_id = $1
  UNION ALL
  SELECT 'h', c.dimension, c.key, 0, c.day FROM visit_counters c
    WHERE c.link_id = $1 AND c.key <> '${OTHER_KEY}' AND c.dimension NOT IN ('total', 'bots', 'unique')
      AND c.day IN (SELECT e->>0 FROM visit_log l, jsonb_array_elements(l.counters::jsonb) e
        WHERE l.link_id = $1)`;

// seq's smallest and largest come from the primary key's two ends, not a count of the rows
const LOG_SIZE = 'SELECT COALESCE(max(seq) - min(seq) + 1, 0) AS n FROM visit_log';

const CURRENT_XID = 'SELECT pg_current_xact_id()::text AS xid';
const XACT_STATUS = 'SELECT pg_xact_status($1::xid8) AS status';

// DO UPDATE (not DO NOTHING) returns the kept row even when another node inserted it a moment ago.
const SALT = `INSERT INTO salts (day, salt) VALUES ($1, $2)
  ON CONFLICT (day) DO UPDATE SET salt = salts.salt RETURNING salt`;

// after the counters, whose trigger left the sums per account of those days at zero (migration 16); a
// week goes once all its days are before the day (the trigger took the days pruned out of it)
const PRUNE_ACCOUNT_SUMS = `WITH counters AS (DELETE FROM account_counters WHERE day < $1),
    days AS (DELETE FROM account_link_days WHERE day < $1)
  DELETE FROM account_link_weeks WHERE week < $2`;

/** Log entries folded per transaction when pruning folds the whole log. */
const PRUNE_CHUNK = 1000;

const logIsEmpty = async (pool: Pool): Promise<boolean> =>
  (await pool.query<{ empty: boolean }>('SELECT NOT EXISTS (SELECT 1 FROM visit_log) AS empty')).rows[0]
    ?.empty === true;

/** A flush whose connection was lost while it committed: written or not, only the server knows. */
interface InDoubt {
  readonly xid: string;
  readonly batch: VisitBatch;
}

/** The PostgreSQL VisitStore, and the settling of flushes left in doubt by a lost connection. */
export interface PostgresVisitStore extends VisitStore {
  readonly ofAccount: AccountVisitReads;
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
    ...countReaders(pool),
    ...acrossReaders(pool),
    ofAccount: createAccountReaders(pool),
    compact: (maxEntries) => inTransaction(pool, (client) => compactVisitLog(client, maxEntries)),
    ...saltsAndPruning(pool),
  };
}

function countReaders(pool: Pool): Pick<VisitStore, 'countsByDay' | 'countsByKey' | 'logSize'> {
  return {
    countsByDay: async (linkId, dimension, fromDay, toDay) =>
      (await pool.query<KeyCount>(COUNTS_BY_DAY, [linkId, dimension, fromDay, toDay])).rows,
    countsByKey: async (linkId, fromDay, toDay) =>
      withTail(
        linkId,
        fromDay,
        toDay,
        (await pool.query<KeyRow>(COUNTS_BY_KEY, [linkId, fromDay, toDay])).rows,
      ),
    logSize: async () => Number((await pool.query<{ n: string | null }>(LOG_SIZE)).rows[0]?.n ?? 0),
  };
}

function saltsAndPruning(
  pool: Pool,
): Pick<VisitStore, 'salt' | 'pruneSalts' | 'pruneVisitors' | 'pruneCounters'> {
  return {
    salt: async (day, candidate) => {
      const { rows } = await pool.query<{ salt: string }>(SALT, [day, candidate]);
      return rows[0]?.salt ?? candidate;
    },
    pruneSalts: async (beforeDay) => void (await pool.query('DELETE FROM salts WHERE day < $1', [beforeDay])),
    pruneVisitors: async (beforeDay) =>
      void (await pool.query('DELETE FROM visitor_hashes WHERE day < $1', [beforeDay])),
    // pruning counters folds the whole log first (waiting for another node's compactor): the counts of
    // the days it forgets are dropped whole
    pruneCounters: async (beforeDay) => {
      await foldAll(pool);
      await inTransaction(pool, async (client) => {
        await client.query('DELETE FROM visit_counters WHERE day < $1', [beforeDay]);
        await client.query(PRUNE_ACCOUNT_SUMS, [beforeDay, addDays(beforeDay, -6)]);
      });
    },
  };
}

async function foldAll(pool: Pool): Promise<void> {
  for (;;) {
    const folded = await inTransaction(pool, (client) => compactVisitLog(client, PRUNE_CHUNK));
    if (folded === 0 && (await logIsEmpty(pool))) return;
  }
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
  const uniques = await appendVisits(client, batch, existing);
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
