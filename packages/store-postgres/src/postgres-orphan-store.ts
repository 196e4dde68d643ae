import { MAX_ORPHAN_KEYS_PER_DAY } from '@shortener/core';
import type { OrphanCount, OrphanStore } from '@shortener/core';
import type { Pool } from 'pg';
import { inTransaction } from './database.js';

// as SQLite's: a new key of a day past its limit lands on `other` (two nodes at once may pass it by one)
const ADD = `INSERT INTO orphan_visits (day, dimension, key, count)
  SELECT $1, $2, CASE WHEN $2 = 'type' OR EXISTS (SELECT 1 FROM orphan_visits
        WHERE day = $1 AND dimension = $2 AND key = $3)
      OR (SELECT count(*) FROM orphan_visits WHERE day = $1 AND dimension = $2) < ${MAX_ORPHAN_KEYS_PER_DAY}
    THEN $3 ELSE 'other' END, $4
  ON CONFLICT (day, dimension, key) DO UPDATE SET count = orphan_visits.count + excluded.count`;

/** The OrphanStore on a pg pool (migration 012): one transaction a batch. */
export function createPostgresOrphanStore(pool: Pool): OrphanStore {
  return {
    add: (batch) =>
      inTransaction(pool, async (client) => {
        // in key order: two nodes' batches never wait for each other in a cycle
        const sorted = [...batch].sort((a, b) =>
          `${a.day} ${a.dimension} ${a.key}` < `${b.day} ${b.dimension} ${b.key}` ? -1 : 1,
        );
        for (const c of sorted) await client.query(ADD, [c.day, c.dimension, c.key, c.count]);
      }),
    read: async (fromDay, toDay) =>
      (
        await pool.query<OrphanCount>(
          'SELECT day, dimension, key, count::int AS count FROM orphan_visits WHERE day BETWEEN $1 AND $2',
          [fromDay, toDay],
        )
      ).rows,
  };
}
