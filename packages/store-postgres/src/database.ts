import pg from 'pg';
import type { Pool, PoolClient } from 'pg';

/** Where the PostgreSQL stores live. */
export interface PostgresOptions {
  /** A `postgres://` URL (`DATABASE_URL`). */
  readonly connectionString: string;
  /**
   * The schema holding the tables, created when missing (tests use one per test); default: the
   * connection's own `search_path` (normally `public`).
   */
  readonly schema?: string;
  /** Connections in the pool (default 10). */
  readonly poolSize?: number;
}

const INT8_OID = 20;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

// Times (epoch ms) and counts are BIGINT, which pg hands over as strings; they fit a double exactly.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Opens a pool on `options` (no connection is made until the first query). */
export function createPool(options: PostgresOptions): Pool {
  const { schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) throw new Error(`Bad schema name "${schema}".`);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    types,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  // An idle connection the server dropped (a restart) is removed from the pool; without a listener
  // its error would end the process. The next query opens a new one.
  pool.on('error', () => {});
  return pool;
}

/** SQLSTATEs worth a second try of the whole transaction: a deadlock, a serialization failure. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

/**
 * Runs `work` in a transaction (READ COMMITTED) on one pooled connection; commits when it resolves,
 * rolls back when it throws. A deadlock or serialization failure runs it again, up to three times.
 */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      if (attempt < ATTEMPTS && RETRYABLE.has(sqlState(error) ?? '')) continue;
      throw error;
    } finally {
      // a connection that cannot even roll back is dropped rather than handed to the next caller
      client.release(broken);
    }
  }
}

/** The SQLSTATE of a PostgreSQL error, e.g. `23505` for a unique violation. */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Whether `error` is a unique violation of the named constraint. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  return sqlState(error) === '23505' && (error as { constraint?: unknown }).constraint === constraint;
}

/** Drops the schema of `options` and everything in it (tests: each runs in a schema of its own). */
export async function dropPostgresSchema(
  options: PostgresOptions & { readonly schema: string },
): Promise<void> {
  const pool = createPool({ ...options, poolSize: 1 });
  try {
    await pool.query(`DROP SCHEMA IF EXISTS ${options.schema} CASCADE`);
  } finally {
    await pool.end();
  }
}
