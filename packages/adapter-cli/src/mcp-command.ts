import { serveMcpOverStdio } from '@shortener/adapter-mcp';
import { authenticateApiKey } from '@shortener/core';
import type { Command } from 'commander';
import { CliError } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { loadConfig } from './config.js';
import { resolve } from './container.js';
import type { AppContainer } from './container.js';
import { openDatabase } from './local-store.js';
import { createJsonLogger } from './logger.js';

/** The environment variable `shortener mcp` reads the API key from when `--key` is not given. */
export const API_KEY_VARIABLE = 'SHORTENER_API_KEY';

interface McpOptions {
  readonly key?: string;
  readonly dbPath?: string;
}

/**
 * Adds `shortener mcp`: the MCP tools over stdio for an agent that launches a local process, on the
 * database of `serve` and the origins it recorded there (decisions §12). The protocol always
 * runs on the process's own stdin and stdout, so nothing else may write there: logs go to `io.stderr`.
 * With `--key` or `SHORTENER_API_KEY` the links are saved to the key's account (a bad key exits 1
 * before serving); without, creation is limited per process as for one anonymous client.
 */
export function addMcpCommand(program: Command, io: CliIo): void {
  const command = program
    .command('mcp')
    .description('Serve the MCP tools over stdio (for agents that start a local process).')
    .option('--key <key>', `API key whose account the links are saved to [${API_KEY_VARIABLE}]`)
    .option('--db-path <path>', 'SQLite file (default: $DB_PATH, else ./data/shortener.db)')
    .addHelpText(
      'after',
      `\nExample client configuration:\n  {"command": "npx", "args": ["shortener", "mcp"], "env": {"${API_KEY_VARIABLE}": "shk_…"}}\n`,
    );
  command.action(async () => {
    const options = command.opts<McpOptions>();
    const flags = options.dbPath === undefined ? {} : { DB_PATH: options.dbPath };
    const logger = createJsonLogger({ level: loadConfig(io.env, flags).logLevel, stream: io.stderr });
    const { container } = await openDatabase(io.env, flags, { logger });
    const stores = resolve(container, 'stores');
    try {
      const accountId = await accountOf(options.key ?? io.env[API_KEY_VARIABLE], container);
      const session = await serveMcpOverStdio(resolve(container, 'mcpDeps'), { accountId, ip: 'stdio' });
      logger.info('serving MCP on stdio', { authenticated: accountId !== null });
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
  });
}

async function accountOf(key: string | undefined, container: AppContainer) {
  if (key === undefined || key.trim() === '') return null;
  const found = await authenticateApiKey(resolve(container, 'coreDeps'), key.trim());
  if (!found.ok) throw new CliError(`${found.error.message} (${found.error.code})`, 1);
  return found.value.accountId;
}
