import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { COPY_TABLES, copyIntoEmptyDatabase } from '@shortener/store-postgres';
import type { CopyTable, TableRows } from '@shortener/store-postgres';
import { isMemoryPath, openSqliteDatabase } from '@shortener/store-sqlite';
import { CliError, usageError } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { loadConfig } from './config.js';
import { table } from './render.js';

const POSTGRES_URL = /^postgres(ql)?:\/\//;

/** SQLite keeps booleans as 0/1 and a passkey's transports as JSON; PostgreSQL has the types. */
const CONVERSIONS: Partial<Record<CopyTable, Record<string, (value: unknown) => unknown>>> = {
  links: { public_stats: Boolean, disabled: Boolean, forward_query: Boolean, crawlable: Boolean },
  passkeys: { transports: (value) => JSON.parse(String(value)) as unknown },
};

/**
 * Adds `migrate --to postgres://…` (decisions §11): the SQLite database of `DB_PATH` copied into an
 * empty PostgreSQL database, every table in one transaction, counts verified and printed.
 */
export function addMigrateCommand(program: Command, io: CliIo): void {
  const command = program
    .command('migrate')
    .description(
      'Copy the SQLite database of DB_PATH into an empty PostgreSQL database (one transaction: all or nothing), then verify and print the rows of every table. Stop the servers first, so every click is in the file.',
    )
    .requiredOption(
      '--to <url>',
      'the PostgreSQL database: a postgres:// URL (its search_path names the schema)',
    )
    .option('--db-path <path>', 'SQLite file (default: $DB_PATH, else ./data/shortener.db)')
    .option('--json', 'print JSON instead of text')
    .addHelpText(
      'after',
      '\nExample:\n  $ shortener migrate --to postgres://shortener@db.internal/shortener\n',
    );
  command.action(async () => {
    const options = command.opts<{ to: string; dbPath?: string; json?: boolean }>();
    if (!POSTGRES_URL.test(options.to)) throw usageError('--to must be a postgres:// URL');
    const flags = options.dbPath === undefined ? {} : { DB_PATH: options.dbPath };
    const path = loadConfig(io.env, flags).store.dbPath;
    if (isMemoryPath(path) || !existsSync(path)) throw new CliError(`no SQLite database at ${path}`, 1);
    const counts = await copy(path, options.to);
    const rows = COPY_TABLES.map((name) => [name, String(counts[name])]);
    io.stdout.write(
      options.json === true
        ? `${JSON.stringify(counts, null, 2)}\n`
        : `${table(['TABLE', 'ROWS'], rows)}\nmigrated ${path} to PostgreSQL: every count verified\n`,
    );
  });
}

async function copy(path: string, url: string): Promise<Record<CopyTable, number>> {
  const tables = readSqlite(path);
  try {
    return await copyIntoEmptyDatabase({ connectionString: url }, tables);
  } catch (error) {
    throw new CliError(`migrate failed, the target is unchanged: ${describe(error)}`, 1);
  }
}

/** Every table of the SQLite file, read in one transaction (a consistent snapshot beside a writer). */
function readSqlite(path: string): TableRows[] {
  const db = openSqliteDatabase(path);
  try {
    return db.transaction(() => {
      const names = db
        .prepare<[], { name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
        .all()
        .map((row) => row.name);
      // the change log only tells other SQLite processes what changed: nothing to carry over
      const copied = names.filter((name) => name !== 'link_change_log');
      const unknown = copied.filter((name) => !(COPY_TABLES as readonly string[]).includes(name));
      if (unknown.length > 0) throw new CliError(`cannot copy table ${unknown.join(', ')}`, 1);
      return COPY_TABLES.map((name) => readTable(db, name));
    })();
  } finally {
    db.close();
  }
}

function readTable(db: ReturnType<typeof openSqliteDatabase>, name: CopyTable): TableRows {
  const statement = db.prepare(`SELECT * FROM ${name}`).raw(true);
  const columns = statement.columns().map((column) => column.name);
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
