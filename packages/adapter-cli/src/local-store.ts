import type { CoreDeps } from '@shortener/core';
import type { CliIo } from './cli-io.js';
import { ConfigError, loadConfig } from './config.js';
import type { AppConfig, Environment } from './config.js';
import { createContainer, openStores, resolve } from './container.js';
import type { AppContainer, Services } from './container.js';
import { applyRecordedOrigins } from './origins.js';
import type { RawSettings } from './variables.js';

/** The database of `DB_PATH` opened for one command, through the composition root. */
export interface LocalStore {
  readonly core: CoreDeps;
  readonly backup: Services['backup'];
  close(): Promise<void>;
}

/**
 * Opens the database of `DB_PATH` (or `dbPath`, the `--db-path` flag) for a command that works on it
 * directly: WAL and a busy timeout make that safe while the server runs. The origins are the ones
 * `serve` recorded there (decisions §12), so every short URL the command prints works on the server.
 *
 * @throws ConfigError for a bad configuration, `STORE=memory`, or origins that disagree with the server's.
 */
export async function openLocalStore(io: CliIo, dbPath: string | undefined): Promise<LocalStore> {
  const { container } = await openDatabase(io.env, dbPath === undefined ? {} : { DB_PATH: dbPath });
  return {
    core: resolve(container, 'coreDeps'),
    backup: resolve(container, 'backup'),
    close: () => resolve(container, 'stores').close(),
  };
}

/**
 * The configuration and container of a command on the database (operator commands, local mode,
 * `shortener mcp`). A memory store would be a new, empty one in this process, whose links no server
 * serves: it is refused.
 */
export async function openDatabase(
  env: Environment,
  flags: RawSettings,
  overrides: Partial<Services> = {},
): Promise<{ readonly config: AppConfig; readonly container: AppContainer }> {
  const loaded = loadConfig(env, flags);
  if (loaded.store.kind === 'memory') {
    throw new ConfigError(
      'STORE',
      'STORE must name the database a server uses (got "memory": a new, empty store in this process, whose links no server serves); use --server for a running one',
    );
  }
  const stores = openStores(loaded);
  try {
    const config = await applyRecordedOrigins(loaded, stores.settings, env, flags);
    return { config, container: createContainer(config, { stores, ...overrides }) };
  } catch (error) {
    await stores.close();
    throw error;
  }
}

/** Runs `run` on the local database and closes it afterwards, whatever happens. */
export async function withLocalStore<T>(
  io: CliIo,
  dbPath: string | undefined,
  run: (store: LocalStore) => Promise<T>,
): Promise<T> {
  const store = await openLocalStore(io, dbPath);
  try {
    return await run(store);
  } finally {
    await store.close();
  }
}
