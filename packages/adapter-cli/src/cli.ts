import { Command, CommanderError, Option } from 'commander';
import { SERVICE_INFO } from '@shortener/core';
import { addBatchCommands } from './commands/batch-commands.js';
import { addInspectCommands } from './commands/inspect-commands.js';
import { addLinkCommands } from './commands/link-commands.js';
import { addTagCommands } from './commands/tag-commands.js';
import type { CliIo } from './cli-io.js';
import { addDomainCommands } from './domain-commands.js';
import { addTeamCommands } from './team-commands.js';
import { addMcpCommand } from './mcp-command.js';
import { addMigrateCommand } from './migrate-command.js';
import { addOperatorCommands } from './operator-commands.js';
import { addWebhookCommands } from './webhook-commands.js';

const EXAMPLES = `
Link commands work on the database of DB_PATH by default (local mode), or on a server's API with
--server URL and --key KEY (or SHORTENER_URL and SHORTENER_API_KEY). Every command takes --json.
Exit codes: 0 ok, 1 failed (error: message (code) on stderr), 2 usage.

Examples:
  $ shortener serve --port 8080
  $ shortener shorten https://example.com/a/long/page --alias hello
  $ shortener stats hello
  $ shortener qr hello --out hello.png
  $ shortener backup backups/shortener.db
  $ shortener links list --server https://sho.example --key shk_…
  $ shortener accounts create alice
  $ SHORTENER_API_KEY=shk_… shortener mcp
`;

/**
 * The `shortener` program: `serve`, `mcp`, the link commands (`shorten`, `bulk`, `links`, `stats`, `qr`,
 * `check`, `claim`, `import`, `export`, `backup`) and the operator's `accounts` and `keys`. Output goes
 * to `io`; usage errors reject with commander's `CommanderError` (exitOverride), failures with
 * {@link CliError} or {@link ConfigError}. {@link runCli} turns those into exit codes.
 */
export function createProgram(io: CliIo): Command {
  const program = new Command('shortener')
    .description('A self-hosted URL shortener: the server, and its links from the terminal.')
    .version(SERVICE_INFO.version, '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', EXAMPLES);
  addServeCommand(program, io);
  addMcpCommand(program, io);
  addLinkCommands(program, io);
  addTagCommands(program, io);
  addInspectCommands(program, io);
  addBatchCommands(program, io);
  addOperatorCommands(program, io);
  addWebhookCommands(program, io);
  addDomainCommands(program, io);
  addTeamCommands(program, io);
  addMigrateCommand(program, io);
  return program;
}

function addServeCommand(program: Command, io: CliIo): void {
  const serve = program
    .command('serve')
    .description('Run the HTTP server. Every flag mirrors an environment variable and wins over it.')
    .addHelpText(
      'after',
      '\nExample:\n  $ shortener serve --host 0.0.0.0 --public-base-url https://sho.example --short-domains s.example\n',
    );
  const options = io.host.serveOptions.map(({ name, flag, value, help }) => {
    const option = new Option(`${flag} ${value}`, `${help} [${name}]`);
    serve.addOption(option);
    return [name, option.attributeName()] as const;
  });
  serve.action(async (given: Record<string, unknown>) => {
    const flags: Record<string, string> = {};
    for (const [name, key] of options) {
      const value = given[key];
      if (value === true) flags[name] = 'true';
      else if (typeof value === 'string') flags[name] = value;
    }
    await io.host.serve(io, flags);
  });
}

/**
 * Runs the program on `args` (without `node` and the script) and returns the exit code: 0 on success and
 * for `--help`, 1 for a failed operation (`error: message (code)` on stderr), 2 for usage and
 * configuration errors.
 */
export async function runCli(args: readonly string[], io: CliIo): Promise<number> {
  try {
    await createProgram(io).parseAsync([...args], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2; // commander printed it
    // a CliError, or the host's configuration error (exit code 2): both say their exit code
    const exitCode = (error as { exitCode?: unknown } | null)?.exitCode;
    const [message, code] =
      error instanceof Error && typeof exitCode === 'number'
        ? [error.message, exitCode]
        : [error instanceof Error ? error.message : String(error), 1];
    io.stderr.write(`error: ${message}\n`);
    return code;
  }
}
