import type { CliHost, CliIo } from '@shortener/adapter-cli';
import { CliError } from '@shortener/adapter-cli';
import { authenticateApiKey, keyCaller } from '@shortener/core';
import type { CoreDeps } from '@shortener/core';
import { loadConfig } from './config.js';
import { createJsonLogger } from './logger.js';
import type { AppLogger } from './logger.js';
import type { RunningServer } from './serve.js';
import { VARIABLE_HELP, VARIABLE_NAMES, flagOf } from './variables.js';

// The server, the container with its stores and the copy into PostgreSQL are loaded by the command that
// runs them: `--help`, a typo or a command of the HTTP client loads none of them (1.1 s of a start).

/**
 * The command line's host (`CliHost` of `@shortener/adapter-cli`): the server, the local database, MCP
 * over stdio and the copy into PostgreSQL, each built by this composition root.
 */
export const APP_HOST: CliHost = {
  serveOptions: VARIABLE_NAMES.map((name) => ({ name, flag: flagOf(name), ...VARIABLE_HELP[name] })),
  async serve(io, flags) {
    const config = loadConfig(io.env, flags);
    const logger = createJsonLogger({ level: config.logLevel, stream: io.stderr });
    const { startServer } = await import('./serve.js');
    const running = await startServer(config, { logger });
    await untilClosedBySignal(running, logger);
  },
  openLocalStore: async (io, dbPath) => (await import('./local-store.js')).openLocalStore(io.env, dbPath),
  serveMcp,
  migrate: async (io, options) => (await import('./migrate.js')).migrateToPostgres(io.env, options),
};

/**
 * `shortener mcp`: the MCP tools over stdio on the database of `serve` and the origins it recorded there
 * (decisions §12). The protocol runs on the process's own stdin and stdout, so logs go to `io.stderr`.
 */
async function serveMcp(io: CliIo, options: { readonly key: string | undefined; readonly dbPath?: string }) {
  const flags = options.dbPath === undefined ? {} : { DB_PATH: options.dbPath };
  const logger = createJsonLogger({ level: loadConfig(io.env, flags).logLevel, stream: io.stderr });
  const [{ openDatabase }, { resolve }] = await Promise.all([
    import('./local-store.js'),
    import('./container.js'),
  ]);
  const { container } = await openDatabase(io.env, flags, { logger });
  const stores = resolve(container, 'stores');
  try {
    const caller = await callerOfKey(options.key, resolve(container, 'coreDeps'));
    // loaded here, not at start: every other command (and the server) does without the MCP SDK
    const { serveMcpOverStdio } = await import('@shortener/adapter-mcp');
    const session = await serveMcpOverStdio(resolve(container, 'mcpDeps'), { ...caller, ip: 'stdio' });
    logger.info('serving MCP on stdio', { authenticated: caller.accountId !== null });
    const stop = (): void => void session.close();
    process.once('SIGTERM', stop).once('SIGINT', stop);
    try {
      await session.closed;
    } finally {
      process.off('SIGTERM', stop).off('SIGINT', stop);
    }
  } finally {
    await stores.close();
  }
}

/**
 * Waits for SIGTERM or SIGINT, then shuts down gracefully. A later signal (a second Ctrl-C, or the copy
 * `npm start` forwards of the one the terminal sent) closes the open connections at once instead of
 * killing the process, so buffered visits are still written and the database closed.
 */
async function untilClosedBySignal(running: RunningServer, logger: AppLogger): Promise<void> {
  let on: (name: NodeJS.Signals) => void = () => undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      let first = true;
      on = (name) => {
        logger.info(first ? 'stopping on signal' : 'closing open connections now', { signal: name });
        running.close(first ? {} : { immediate: true }).then(resolve, reject);
        first = false;
      };
      process.on('SIGTERM', on);
      process.on('SIGINT', on);
    });
  } finally {
    process.off('SIGTERM', on);
    process.off('SIGINT', on);
  }
}

/** The tools' caller for `--key`: its account with the key's role and limits (decisions §21); else anonymous. */
async function callerOfKey(key: string | undefined, deps: CoreDeps) {
  if (key === undefined || key.trim() === '') return { accountId: null };
  const found = await authenticateApiKey(deps, key.trim());
  if (!found.ok) throw new CliError(`${found.error.message} (${found.error.code})`, 1);
  const { editToken: _none, ...caller } = keyCaller(found.value, found.value.account, null);
  return caller;
}
