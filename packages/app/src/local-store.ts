import { importLocally } from './imports/local-import.js';
import type { LocalStore } from '@shortener/adapter-cli';
import { ConfigError, loadConfig } from './config.js';
import type { AppConfig, Environment } from './config.js';
import { createContainer, openStores, resolve } from './container.js';
import { createHealthChecks } from './health-runtime.js';
import type { AppContainer, Services } from './container.js';
import { applyRecordedOrigins } from './origins.js';
import type { RawSettings } from './variables.js';

/**
 * Opens the database of `DB_PATH` (or `dbPath`, the `--db-path` flag) for a command that works on it
 * directly: WAL and a busy timeout make that safe while the server runs. The origins are the ones
 * `serve` recorded there (decisions §12), so every short URL the command prints works on the server.
 *
 * @throws ConfigError for a bad configuration, `STORE=memory`, or origins that disagree with the server's.
 */
export async function openLocalStore(env: Environment, dbPath: string | undefined): Promise<LocalStore> {
  const { container } = await openDatabase(env, dbPath === undefined ? {} : { DB_PATH: dbPath });
  const core = resolve(container, 'coreDeps');
  // the accounts' own domains as they are now: `shorten --domain` may name one (decisions §20)
  await core.hosts?.refresh();
  return {
    core,
    backup: resolve(container, 'backup'),
    webhooks: resolve(container, 'events').webhooks,
    // the use cases' deps only: a command never starts the background checks
    domains: resolve(container, 'domains').deps,
    // `links check`: `serve`'s probe settings, the operator's checks (no minute limit, no rounds)
    health: createHealthChecks(
      resolve(container, 'stores'),
      resolve(container, 'clock'),
      resolve(container, 'config'),
    ),
    importFrom: (request, onProgress, signal) =>
      importLocally(
        resolve(container, 'coreDeps'),
        resolve(container, 'stores'),
        resolve(container, 'userAgents'),
        request,
        onProgress,
        { signal, retryBaseMs: resolve(container, 'config').importRetryMs },
      ),
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
  const stores = await openStores(loaded);
  try {
    const config = await applyRecordedOrigins(loaded, stores.settings, env, flags);
    return { config, container: createContainer(config, { stores, ...overrides }) };
  } catch (error) {
    await stores.close();
    throw error;
  }
}
