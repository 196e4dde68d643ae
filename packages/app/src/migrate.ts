import { existsSync } from 'node:fs';
import { CliError } from '@shortener/adapter-cli';
import type { CopyTable, TableRows } from '@shortener/store-postgres';
import {
  IMPORT_FILE_JOINED,
  LINK_BOOLEAN_COLUMNS,
  LINK_CLICKS_READ,
  isMemoryPath,
  openSqliteDatabase,
} from '@shortener/store-sqlite';
import { loadConfig } from './config.js';
import type { Environment } from './config.js';

/** SQLite keeps booleans as 0/1 and a passkey's transports as JSON; PostgreSQL has the types. */
const CONVERSIONS: Partial<Record<CopyTable, Record<string, (value: unknown) => unknown>>> = {
  links: Object.fromEntries(LINK_BOOLEAN_COLUMNS.map((column) => [column, Boolean])),
  passkeys: { transports: (value) => JSON.parse(String(value)) as unknown },
  webhooks: { events: (value) => JSON.parse(String(value)) as unknown },
  import_jobs: { total_estimated: Boolean },
};

/**
 * Tables that only tell this SQLite file's processes something, carried over as nothing: the change log,
 * and the events still waiting for delivery with the last attempts (let the server deliver them first).
 */
const NOT_COPIED = new Set([
  'link_change_log',
  'event_outbox',
  'event_deliveries',
  'webhook_attempts',
  // the running link.visited sums of windows still open (migration 024): visits not yet told, which the
  // source server tells once its windows close (deliver them first, as the outbox)
  'visit_event_sums',
  // which epochs the visit log holds, for SQLite's index of it (migration 013)
  'visit_log_epochs',
  // the counters summed per account that SQLite's triggers keep (migration 020): made from the
  // counters, which are copied, by PostgreSQL's triggers as the rows go in (its migration 16)
  'account_counters',
  'account_link_days',
  'account_link_weeks',
  // the keyed counters summed per week and the hours packed per day (migration 023): SQLite's alone,
  // made again from the counters
  'counter_hours',
  'counter_weeks',
  'counter_weeks_summed',
  // the clicks folded apart from the links rows (migration 033): copied inside the links' own clicks
  'link_clicks',
  // the counters of link-days folded once, packed a row a day (migration 034): copied inside the
  // counters, read through the view of both
  'counter_days',
  // an import's file in parts (migration 037): copied joined, as its job's payload
  'import_file_parts',
]);

/**
 * Columns read as an expression instead of as stored: a link's clicks with those kept apart and those
 * still in the visit log, a job's file joined from its parts.
 */
const READ_AS: Partial<Record<CopyTable, Record<string, string>>> = {
  links: LINK_CLICKS_READ,
  import_jobs: IMPORT_FILE_JOINED,
};

/** Tables read through a view: the counters with the packed days among them (migration 034). */
const READ_FROM: Partial<Record<CopyTable, string>> = { visit_counters: 'all_counters' };

/**
 * Columns only SQLite's store has, left behind: the epoch of a visit-log entry (migration 013), and its
 * clicks (migration 012), which go with their links' (`LINK_CLICKS_READ`): PostgreSQL's log has none.
 */
const SQLITE_ONLY_COLUMNS: Partial<Record<CopyTable, readonly string[]>> = {
  visit_log: ['epoch', 'clicks', 'last_click_at'],
};

/**
 * `shortener migrate` (decisions §11): the SQLite database of `DB_PATH` (or `dbPath`) copied into the
 * empty PostgreSQL database of `to`, every table in one transaction, counts verified and returned.
 */
export async function migrateToPostgres(
  env: Environment,
  options: { readonly to: string; readonly dbPath?: string },
): Promise<{ readonly path: string; readonly counts: Record<CopyTable, number> }> {
  const flags = options.dbPath === undefined ? {} : { DB_PATH: options.dbPath };
  const path = loadConfig(env, flags).store.dbPath;
  if (isMemoryPath(path) || !existsSync(path)) throw new CliError(`no SQLite database at ${path}`, 1);
  // the PostgreSQL store and its driver load here, not with every command (and every server)
  const { COPY_TABLES, copyIntoEmptyDatabase } = await import('@shortener/store-postgres');
  const tables = readSqlite(path, COPY_TABLES);
  try {
    return { path, counts: await copyIntoEmptyDatabase({ connectionString: options.to }, tables) };
  } catch (error) {
    throw new CliError(`migrate failed, the target is unchanged: ${describe(error)}`, 1);
  }
}
/** Every table of the SQLite file, read in one transaction (a consistent snapshot beside a writer). */
function readSqlite(path: string, copyTables: readonly CopyTable[]): TableRows[] {
  const db = openSqliteDatabase(path);
  try {
    return db.transaction(() => {
      const names = db
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
        .all()
        .map((row) => row.name);
      const copied = names.filter((name) => !NOT_COPIED.has(name));
      const unknown = copied.filter((name) => !(copyTables as readonly string[]).includes(name));
      if (unknown.length > 0) throw new CliError(`cannot copy table ${unknown.join(', ')}`, 1);
      return copyTables.map((name) => readTable(db, name));
    })();
  } finally {
    db.close();
  }
}

function readTable(db: ReturnType<typeof openSqliteDatabase>, name: CopyTable): TableRows {
  const left = SQLITE_ONLY_COLUMNS[name] ?? [];
  const every = db.prepare(`SELECT * FROM ${name}`).columns();
  const columns = every.map((column) => column.name).filter((column) => !left.includes(column));
  const read = columns.map((column) => {
    const expression = READ_AS[name]?.[column];
    return expression === undefined ? column : `${expression} AS ${column}`;
  });
  const statement = db.prepare(`SELECT ${read.join(', ')} FROM ${READ_FROM[name] ?? name}`).raw(true);
  const convert = columns.map((column) => CONVERSIONS[name]?.[column] ?? ((value: unknown) => value));
  const rows = (statement.all() as unknown[][]).map((row) =>
    row.map((value, i) => (value === null ? null : convert[i]?.(value))),
  );
  return { table: name, columns, rows };
}

/** One line for any failure; node's AggregateError (every address refused) has an empty message. */
function describe(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') return describe(error.errors[0]);
  if (error instanceof Error) return error.message === '' ? error.name : error.message.split('\n')[0]!;
  return String(error);
}
