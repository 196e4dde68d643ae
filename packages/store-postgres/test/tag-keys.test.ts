import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, dropPostgresSchema, migrate, openPostgresStores } from '../src/index.js';
import { DATABASE_URL, freshSchemaName } from './fresh-schema.js';

// the tags' keys are migration 21 (decisions §25), whatever comes after them
const TAG_KEYS = 21;

describe.runIf(DATABASE_URL !== null)(`PostgreSQL tag keys (migration ${TAG_KEYS})`, () => {
  const schema = freshSchemaName();
  const pool = new pg.Pool({
    connectionString: DATABASE_URL ?? '',
    max: 1,
    options: `-c search_path=${schema}`,
  });
  afterAll(async () => {
    await dropPostgresSchema({ connectionString: DATABASE_URL ?? '', schema });
    await pool.end();
  });

  it('gives the links tagged before it their keys, so filters and counts find them', async () => {
    const before = MIGRATIONS.filter((m) => m.version < TAG_KEYS);
    await migrate(pool, schema, before);
    await pool.query(`INSERT INTO links (id, domain, slug, url, created_at, updated_at, account_id, tags)
      VALUES ('l1', 'sho.rt', 'old', 'https://example.com/', 1, 1, NULL, '["summer","print"]'::jsonb)`);
    expect(await migrate(pool, schema)).toBe(MIGRATIONS.at(-1)?.version);
    const { rows } = await pool.query<{ tag_keys: string[] }>(`SELECT tag_keys FROM links WHERE id = 'l1'`);
    expect(rows[0]?.tag_keys).toEqual(['summer', 'print']);
    const stores = openPostgresStores({ connectionString: DATABASE_URL ?? '', schema });
    try {
      const found = await stores.links.listAll?.({ limit: 10, tags: ['print'] });
      expect(found?.map((link) => link.id)).toEqual(['l1']);
    } finally {
      await stores.close();
    }
  });
});
