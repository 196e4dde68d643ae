import { MAX_ORPHAN_KEYS_PER_DAY } from '@shortener/core';
import type { OrphanCount, OrphanStore } from '@shortener/core';
import type { Database } from 'better-sqlite3';

// a new key of a day past its limit lands on `other`; an existing one, or a type, is added to as it is
const ADD = `INSERT INTO orphan_visits (day, dimension, key, count)
  SELECT @day, @dimension,
    CASE WHEN @dimension = 'type' OR EXISTS (SELECT 1 FROM orphan_visits
        WHERE day = @day AND dimension = @dimension AND key = @key)
      OR (SELECT count(*) FROM orphan_visits WHERE day = @day AND dimension = @dimension) < ${MAX_ORPHAN_KEYS_PER_DAY}
    THEN @key ELSE 'other' END, @count
  ON CONFLICT (day, dimension, key) DO UPDATE SET count = count + excluded.count`;

/** The OrphanStore on a better-sqlite3 connection (migration 017): one transaction a batch. */
export function createSqliteOrphanStore(db: Database): OrphanStore {
  const add = db.prepare<OrphanCount>(ADD);
  const read = db.prepare<[string, string], OrphanCount>(
    'SELECT day, dimension, key, count FROM orphan_visits WHERE day BETWEEN ? AND ?',
  );
  const addAll = db.transaction((batch: readonly OrphanCount[]) => {
    for (const c of batch) add.run(c);
  });
  return {
    add: async (batch) => addAll.immediate(batch),
    read: async (fromDay, toDay) => read.all(fromDay, toDay),
  };
}
