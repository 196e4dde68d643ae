import { describeUseCaseSuites } from '@shortener/testkit';
import pg from 'pg';
import { afterAll, describe } from 'vitest';
import { DATABASE_URL, useFreshSchemas } from './fresh-schema.js';

describe.runIf(DATABASE_URL !== null)('PostgreSQL use cases', () => {
  const open = useFreshSchemas();
  const admin = new pg.Pool({ connectionString: DATABASE_URL ?? '', max: 1 });
  afterAll(() => admin.end());
  describeUseCaseSuites('PostgreSQL', () => open(), {
    // a trigger answers every new link as a full disk does (SQLSTATE 53100, disk_full)
    fillDisk: async (stores) => {
      const { schema } = stores as unknown as { schema: string };
      await admin.query(`CREATE FUNCTION ${schema}.disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$;
        CREATE TRIGGER disk_full BEFORE INSERT ON ${schema}.links FOR EACH ROW EXECUTE FUNCTION ${schema}.disk_full()`);
      return async () => void (await admin.query(`DROP FUNCTION ${schema}.disk_full() CASCADE`));
    },
  });
});
