import { expectLegacyCountsKept, legacyCounts, anInsertedLink } from '@shortener/testkit';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../src/index.js';
import { DATABASE_URL, freshSchemaName, useFreshSchemas } from './fresh-schema.js';

describe.runIf(DATABASE_URL !== null)('PostgreSQL hourly counters (migration 10)', () => {
  const openFresh = useFreshSchemas();
  const admin = new pg.Pool({ connectionString: DATABASE_URL ?? '', max: 1 });
  afterAll(() => admin.end());

  it('keep every daily total and bots count of a version 13 schema, in the 00:00 UTC hour, folded or not', async () => {
    const schema = freshSchemaName();
    const stores = await openFresh(schema);
    try {
      const link = await anInsertedLink(stores.links);
      // the schema as version 13 left it: daily totals (key '') folded, and one in the unfolded log
      const legacy = legacyCounts(link.id);
      await admin.query(`INSERT INTO ${schema}.visit_counters (link_id, day, dimension, key, count)
          VALUES ${legacy.counters};
        INSERT INTO ${schema}.visit_log (link_id, counters) VALUES ('${link.id}', '${legacy.logged}');
        DELETE FROM ${schema}.schema_migrations WHERE version >= ${MIGRATIONS.length};`);
      const pool = new pg.Pool({
        connectionString: DATABASE_URL ?? '',
        max: 1,
        options: `-c search_path=${schema}`,
      });
      expect(await migrate(pool, schema)).toBe(MIGRATIONS.length);
      await pool.end();
      await expectLegacyCountsKept(stores, link.id);
    } finally {
      await stores.close();
    }
  });
});
