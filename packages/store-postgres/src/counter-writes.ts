import { isKeyedDimension, keyWithinLimit, OTHER_KEY } from '@shortener/core';
import type { CounterIncrement } from '@shortener/core';
import type { PoolClient } from 'pg';

// For each keyed increment: whether its key is held already, and how many keys its link, day and
// dimension hold (`other` aside): the inputs of keyWithinLimit, for a whole batch in one round trip.
const HELD_KEYS = `SELECT
    EXISTS (SELECT 1 FROM visit_counters c
      WHERE c.link_id = u.link_id AND c.day = u.day AND c.dimension = u.dimension AND c.key = u.key) AS held,
    (SELECT count(*) FROM visit_counters c
      WHERE c.link_id = u.link_id AND c.day = u.day AND c.dimension = u.dimension
        AND c.key <> '${OTHER_KEY}') AS keys
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS u(link_id, day, dimension, key, n)
  ORDER BY n`;

// Rows arrive sorted by their key: every node takes the row locks in the same order, so two nodes
// flushing counters of the same links wait for each other instead of deadlocking.
const ADD_COUNTS = `INSERT INTO visit_counters (link_id, day, dimension, key, count)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
  ON CONFLICT (link_id, day, dimension, key) DO UPDATE SET count = visit_counters.count + excluded.count`;

// The links locked FOR KEY SHARE (a claim or a delete waits for this write), then the locks of their
// accounts' sums in order (migration 16): two writers of one account's sums wait for each other, where
// the two triggers of the upsert would take its rows in two runs and could deadlock.
// (MATERIALIZED: a filter pushed below the lock would leave the anonymous links unlocked)
const LOCK_SUMS = `WITH l AS MATERIALIZED (SELECT account_id FROM links WHERE id = ANY($1::text[]) ORDER BY id FOR KEY SHARE)
  SELECT account_sums_lock(account_id) FROM (SELECT DISTINCT account_id FROM l WHERE account_id IS NOT NULL ORDER BY 1) a`;

const groupOf = (c: CounterIncrement) => `${c.linkId}\u0000${c.day}\u0000${c.dimension}`;
const keyOf = (c: CounterIncrement) => `${groupOf(c)}\u0000${c.key}`;

/**
 * Adds counter increments inside the caller's transaction, under the per-day key limit of core
 * (`keyWithinLimit`), applied in the increments' order as SQLite applies it row by row: one query
 * locks the links and their accounts' sums, one looks up the keyed increments, one upsert writes every
 * row, sorted by key.
 */
export async function addCounters(
  client: PoolClient,
  increments: readonly CounterIncrement[],
): Promise<void> {
  if (increments.length === 0) return;
  const links = [...new Set(increments.map((c) => c.linkId))].sort(compare);
  await client.query(LOCK_SUMS, [links]);
  const keyed = [...sumByKey(increments.filter((c) => isKeyedDimension(c.dimension))).values()];
  const limited = await limitKeys(client, keyed);
  const plain = increments.filter((c) => !isKeyedDimension(c.dimension));
  const rows = [...sumByKey([...plain, ...limited]).values()].sort((a, b) => compare(keyOf(a), keyOf(b)));
  await client.query(ADD_COUNTS, [
    rows.map((c) => c.linkId),
    rows.map((c) => c.day),
    rows.map((c) => c.dimension),
    rows.map((c) => c.key),
    rows.map((c) => c.count),
  ]);
}

async function limitKeys(client: PoolClient, keyed: CounterIncrement[]): Promise<CounterIncrement[]> {
  if (keyed.length === 0) return [];
  const { rows } = await client.query<{ held: boolean; keys: number }>(HELD_KEYS, [
    keyed.map((c) => c.linkId),
    keyed.map((c) => c.day),
    keyed.map((c) => c.dimension),
    keyed.map((c) => c.key),
  ]);
  // keys this batch adds count toward the limit of the increments after them
  const added = new Map<string, number>();
  return keyed.map((c, i) => {
    const { held = false, keys = 0 } = rows[i] ?? {};
    const group = groupOf(c);
    const key = keyWithinLimit(c, held, keys + (added.get(group) ?? 0));
    if (!held && key === c.key && key !== OTHER_KEY) added.set(group, (added.get(group) ?? 0) + 1);
    return key === c.key ? c : { ...c, key };
  });
}

/** The increments summed per (link, day, dimension, key), in the order each key first appears. */
function sumByKey(increments: readonly CounterIncrement[]): Map<string, CounterIncrement> {
  const sums = new Map<string, CounterIncrement>();
  for (const c of increments) {
    const key = keyOf(c);
    const sum = sums.get(key);
    sums.set(key, sum === undefined ? c : { ...sum, count: sum.count + c.count });
  }
  return sums;
}

/** A total order every node agrees on (code units, not a locale). */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
