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
  // A checked-out connection (a transaction, a flush) has no pool listener: its loss would end the
  // process. Its queries fail with the error anyway, and a connection that failed is not put back.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

/** Node's socket errors of a connection that failed or was lost. */
const SOCKET_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** SQLSTATEs of a server going away or refusing: shutdown, crash, starting up, too many connections. */
const SERVER_AWAY = new Set(['57P01', '57P02', '57P03', '53300']);

// pg's and pg-pool's own messages for a lost or unopened connection
const CONNECTION_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Query read timeout)/;

/**
 * Why PostgreSQL does not answer, when `error` says it does not (a connection refused, reset, timed
 * out or terminated; SQLSTATE class 08, 57P01-57P03, 53300), else null: a bug or a refused statement.
 */
export function unavailableReason(error: unknown): string | null {
  const code = sqlState(error) ?? '';
  const message = error instanceof Error ? error.message : '';
  const lost =
    SOCKET_ERRORS.has(code) ||
    SERVER_AWAY.has(code) ||
    code.startsWith('08') ||
    CONNECTION_LOST.test(message);
  if (!lost) return null;
  // a socket error's message names the address (host:port): its code alone is shown
  const detail = SOCKET_ERRORS.has(code) ? code : code === '' ? message : `${message}, ${code}`;
  return `The database does not answer (${detail}).`;
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

/** SQLSTATEs of a write PostgreSQL cannot make, in a person's words. */
const WRITE_FAILURES: Readonly<Record<string, string>> = {
  '53100': 'disk full',
  '53200': 'the server is out of memory',
  '53300': 'too many connections',
  '25006': 'the database is read-only',
};

/**
 * A write PostgreSQL refused, as an error whose message says why in a person's words (`disk full`), the
 * driver's error as its cause: an import job shows it in its errors (decisions §25).
 */
export function writeFailure(error: unknown): Error {
  const known = WRITE_FAILURES[sqlState(error) ?? ''];
  const words = known ?? unavailableReason(error) ?? (error instanceof Error ? error.message : String(error));
  return new Error(words, { cause: error });
}
