import type { PoolClient } from 'pg';
import { createPool, inTransaction } from './database.js';
import type { PostgresOptions } from './database.js';
import { tagKeysValue } from './link-rows.js';
import { migrateOn } from './migrations/index.js';

/** The rows of one table to copy in, as the PostgreSQL schema names its columns. */
export interface TableRows {
  /** A table of the schema, e.g. `links`. */
  readonly table: CopyTable;
  readonly columns: readonly string[];
  /** Values in the order of `columns`: numbers for BIGINT, booleans, string arrays for TEXT[]. */
  readonly rows: readonly (readonly unknown[])[];
}

/**
 * Every table of the schema, parents before the tables whose foreign keys point at them (the order
 * rows are copied in). `schema_migrations` is the target's own.
 */
export const COPY_TABLES = [
  'accounts',
  'webhooks',
  'links',
  'visit_log',
  'visit_counters',
  'visitor_hashes',
  'salts',
  'api_keys',
  'account_passwords',
  'passkeys',
  'invites',
  'sessions',
  'webauthn_challenges',
  'settings',
  'idempotency_keys',
  'import_jobs',
  'import_report',
  'imported_links',
  'orphan_visits',
  'domains',
  'memberships',
  'team_invites',
  'identities',
] as const;

/** A table {@link copyIntoEmptyDatabase} fills. */
export type CopyTable = (typeof COPY_TABLES)[number];

/** Rows per INSERT: well under PostgreSQL's 65,535 bound parameters for the widest table (16 columns). */
const CHUNK = 1000;
const COLUMN_NAME = /^[a-z_]+$/;

/**
 * Copies `tables` into the database of `options` in one transaction: creates the schema's tables
 * (migrations, under their advisory lock), refuses a target where any table holds a row, inserts every
 * row, then counts each table and compares with the rows given. Any failure rolls it all back, so the
 * target is left as it was. Returns the count of every table of {@link COPY_TABLES}.
 */
export async function copyIntoEmptyDatabase(
  options: PostgresOptions,
  tables: readonly TableRows[],
): Promise<Record<CopyTable, number>> {
  const pool = createPool({ ...options, poolSize: 1 });
  try {
    return await inTransaction(pool, async (client) => {
      await migrateOn(client, options.schema);
      const before = await countRows(client);
      const filled = COPY_TABLES.filter((table) => before[table] > 0);
      if (filled.length > 0) {
        throw new Error(
          `the target database is not empty (rows in ${filled.join(', ')}); nothing was copied`,
        );
      }
      const ordered = [...tables].sort((a, b) => COPY_TABLES.indexOf(a.table) - COPY_TABLES.indexOf(b.table));
      for (const rows of ordered) await insertRows(client, withTagKeys(rows));
      // the log's rows keep their order (seq); the next append is numbered after them
      await client.query(`SELECT setval(pg_get_serial_sequence('visit_log', 'seq'),
        (SELECT COALESCE(max(seq), 0) + 1 FROM visit_log), false)`);
      // the copy is no change: the events its inserts left in the outbox are dropped (decisions §16)
      await client.query('DELETE FROM event_outbox');
      const after = await countRows(client);
      for (const { table, rows } of tables) {
        if (after[table] !== rows.length) {
          throw new Error(
            `${table}: ${rows.length} rows to copy, ${after[table]} in the target; nothing was copied`,
          );
        }
      }
      return after;
    });
  } finally {
    await pool.end();
  }
}

/**
 * The links' rows with `tag_keys` (migration 19) made from `tags` when the source has none: SQLite keeps
 * no keys, it compares tags through core's `tagKey` as it reads them.
 */
function withTagKeys(rows: TableRows): TableRows {
  const tags = rows.columns.indexOf('tags');
  if (rows.table !== 'links' || tags < 0 || rows.columns.includes('tag_keys')) return rows;
  const keysOf = (value: unknown): string => {
    const list: unknown = typeof value === 'string' ? JSON.parse(value) : value;
    return tagKeysValue(Array.isArray(list) ? list.map(String) : []);
  };
  return {
    ...rows,
    columns: [...rows.columns, 'tag_keys'],
    rows: rows.rows.map((row) => [...row, keysOf(row[tags])]),
  };
}

async function insertRows(client: PoolClient, { table, columns, rows }: TableRows): Promise<void> {
  if (!COPY_TABLES.includes(table) || !columns.every((c) => COLUMN_NAME.test(c))) {
    throw new Error(`cannot copy into ${table} (${columns.join(', ')})`);
  }
  for (let start = 0; start < rows.length; start += CHUNK) {
    const chunk = rows.slice(start, start + CHUNK);
    const tuples = chunk.map(
      (_, row) => `(${columns.map((_c, column) => `$${row * columns.length + column + 1}`).join(', ')})`,
    );
    await client.query(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')}`,
      chunk.flat(),
    );
  }
}

async function countRows(client: PoolClient): Promise<Record<CopyTable, number>> {
  const selects = COPY_TABLES.map((table) => `SELECT '${table}' AS name, count(*) AS n FROM ${table}`);
  const { rows } = await client.query<{ name: CopyTable; n: number }>(selects.join(' UNION ALL '));
  return Object.fromEntries(rows.map(({ name, n }) => [name, Number(n)])) as Record<CopyTable, number>;
}
