import type { Pool, PoolOptions, RowDataPacket } from 'mysql2/promise';

/** The connection settings of `mysql://user:pass@host:port/name` (or `mariadb://`), or a clear error. */
export function connectionOptions(database: string): PoolOptions {
  let url: URL;
  try {
    url = new URL(database);
  } catch {
    // the text may hold a password: never repeat it
    throw new Error('YOURLS: the database is not a URL like mysql://user:pass@host:3306/name');
  }
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!/^(mysql|mariadb):$/.test(url.protocol) || url.hostname === '' || name === '') {
    throw new Error('YOURLS: the database is not a URL like mysql://user:pass@host:3306/name');
  }
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port === '' ? 3306 : Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: name,
    // YOURLS writes UTC wall times (PHP's zone is UTC) without a zone: read them as text, parse them as UTC
    dateStrings: true,
    supportBigNumbers: true,
    connectionLimit: 2,
    maxIdle: 0,
    idleTimeout: 1000,
  };
}

/** One statement's rows; parameters are always bound, never written into the text. */
export type Query = (sql: string, params: readonly (string | number)[]) => Promise<RowDataPacket[]>;

/**
 * A pool opened while someone reads (the rows, or a link's visits after them) and closed when the last
 * reader is done, so that an import that stops leaves no connection behind.
 */
export function createSharedPool(options: PoolOptions): {
  use<T>(work: (query: Query) => Promise<T>): Promise<T>;
  open(): Query;
  close(): Promise<void>;
} {
  // mysql2 (some 60 modules) is loaded by the first import from YOURLS, not by every start
  let pool: Promise<Pool> | null = null;
  let readers = 0;
  const query: Query = async (sql, params) => {
    if (pool === null) throw new Error('YOURLS: the database is closed');
    try {
      const [rows] = await (await pool).query<RowDataPacket[]>(sql, [...params]);
      return rows;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`YOURLS: the database could not be read: ${reason}`);
    }
  };
  const open = (): Query => {
    readers += 1;
    pool ??= import('mysql2/promise').then(({ createPool }) => createPool(options));
    return query;
  };
  const close = async (): Promise<void> => {
    readers -= 1;
    if (readers > 0 || pool === null) return;
    const closing = pool;
    pool = null;
    // a pool that never opened (mysql2 failed to load) has nothing to end: the queries said why
    await closing.then(
      (open) => open.end(),
      () => undefined,
    );
  };
  return {
    open,
    close,
    async use(work) {
      try {
        return await work(open());
      } finally {
        await close();
      }
    },
  };
}
