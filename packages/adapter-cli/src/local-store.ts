import type { CoreDeps } from '@shortener/core';
import type { CliIo } from './cli-io.js';
import { ConfigError, loadConfig } from './config.js';
import { createContainer, resolve } from './container.js';
import type { Services } from './container.js';

/** The database of `DB_PATH` opened for one command, through the composition root. */
export interface LocalStore {
  readonly core: CoreDeps;
  readonly backup: Services['backup'];
  close(): Promise<void>;
}

/**
 * Opens the SQLite database of `DB_PATH` (or `dbPath`, the `--db-path` flag) for a command that works
 * on it directly: WAL and a busy timeout make that safe while the server runs. A memory store would be
 * a new, empty one in this process, so it is refused.
 *
 * @throws ConfigError for a bad configuration or `STORE=memory`.
 */
export function openLocalStore(io: CliIo, dbPath: string | undefined): LocalStore {
  const config = loadConfig(io.env, dbPath === undefined ? {} : { DB_PATH: dbPath });
  if (config.store.kind !== 'sqlite') {
    throw new ConfigError(
      'STORE',
      'STORE must be sqlite for commands that open the database (got "memory"); use --server for a running one',
    );
  }
  const container = createContainer(config);
  return {
    core: resolve(container, 'coreDeps'),
    backup: resolve(container, 'backup'),
    close: () => resolve(container, 'stores').close(),
  };
}

/** Runs `run` on the local database and closes it afterwards, whatever happens. */
export async function withLocalStore<T>(
  io: CliIo,
  dbPath: string | undefined,
  run: (store: LocalStore) => Promise<T>,
): Promise<T> {
  const store = openLocalStore(io, dbPath);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}
