import { expectLegacyCountsKept, legacyCounts, anInsertedLink } from '@shortener/testkit';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, migrate } from '../src/index.js';
import { DATABASE_URL, freshSchemaName, useFreshSchemas } from './fresh-schema.js';

// the hourly counters are migration 14, whatever comes after them
const HOURLY = 14;

describe.runIf(DATABASE_URL !== null)(`PostgreSQL hourly counters (migration ${HOURLY})`, () => {
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
        DELETE FROM ${schema}.schema_migrations WHERE version >= ${HOURLY};`);
      const pool = new pg.Pool({
        connectionString: DATABASE_URL ?? '',
        max: 1,
        options: `-c search_path=${schema}`,
      });
      // the hourly migration runs again on them; the later ones are in place already
      const upToHourly = MIGRATIONS.filter((m) => m.version <= HOURLY);
      expect(await migrate(pool, schema, upToHourly)).toBe(HOURLY);
      const later = MIGRATIONS.filter((m) => m.version > HOURLY).map((m) => `(${m.version})`);
      if (later.length > 0)
        await pool.query(`INSERT INTO schema_migrations (version) VALUES ${later.join(', ')}`);
      await pool.end();
      await expectLegacyCountsKept(stores, link.id);
    } finally {
      await stores.close();
    }
  });
});
