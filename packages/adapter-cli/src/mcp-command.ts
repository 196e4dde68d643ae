import type { Command } from 'commander';
import type { CliIo } from './cli-io.js';

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
    await io.host.serveMcp(io, {
      key: options.key ?? io.env[API_KEY_VARIABLE],
      ...(options.dbPath === undefined ? {} : { dbPath: options.dbPath }),
    });
  });
}
