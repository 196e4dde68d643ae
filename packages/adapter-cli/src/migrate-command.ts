import type { Command } from 'commander';
import { usageError } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { table } from './render.js';

const POSTGRES_URL = /^postgres(ql)?:\/\//;

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
    const { path, counts } = await io.host.migrate(io, {
      to: options.to,
      ...(options.dbPath === undefined ? {} : { dbPath: options.dbPath }),
    });
    const rows = Object.entries(counts).map(([name, count]) => [name, String(count)]);
    io.stdout.write(
      options.json === true
        ? `${JSON.stringify(counts, null, 2)}\n`
        : `${table(['TABLE', 'ROWS'], rows)}\nmigrated ${path} to PostgreSQL: every count verified\n`,
    );
  });
}
