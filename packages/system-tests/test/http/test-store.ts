import { randomBytes } from 'node:crypto';
import { dropPostgresSchema, openPostgresStores } from '@shortener/store-postgres';
import { scaleBackendUrl } from '@shortener/testkit';

/** The variables of a test server's store, and how to remove what it wrote. */
export interface TestStore {
  readonly env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * The store of a test server: the SQLite file at `dbPath`, or with `SHORTENER_HTTP_STORE=postgres` a new
 * schema of `DATABASE_URL` (and `REDIS_URL` when set), so the HTTP suite runs on PostgreSQL too.
 */
export async function openTestStore(dbPath: string): Promise<TestStore> {
  if (process.env.SHORTENER_HTTP_STORE !== 'postgres')
    return { env: { DB_PATH: dbPath }, drop: async () => {} };
  return freshPostgresStore(true);
}

/** `STORE=postgres` on a new, migrated schema of `DATABASE_URL`, plus `REDIS_URL` when `withRedis`. */
export async function freshPostgresStore(withRedis: boolean): Promise<TestStore> {
  const url = scaleBackendUrl('DATABASE_URL');
  if (url === null) throw new Error('DATABASE_URL must be set for STORE=postgres tests');
  const redis = withRedis ? scaleBackendUrl('REDIS_URL') : null;
  const schema = `t_${randomBytes(8).toString('hex')}`;
  const stores = openPostgresStores({ connectionString: url, schema });
  await stores.ready(); // creates the schema the URL below names
  await stores.close();
  const searchPath = `options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    env: {
      STORE: 'postgres',
      DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}${searchPath}`,
      ...(redis === null ? {} : { REDIS_URL: redis }),
    },
    drop: () => dropPostgresSchema({ connectionString: url, schema }),
  };
}
