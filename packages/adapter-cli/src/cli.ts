import { SERVER_INFO } from '@shortener/adapter-mcp';
import { Command, CommanderError, Option } from 'commander';
import { ConfigError, loadConfig } from './config.js';
import { CliError } from './cli-io.js';
import { addBatchCommands } from './commands/batch-commands.js';
import { addInspectCommands } from './commands/inspect-commands.js';
import { addLinkCommands } from './commands/link-commands.js';
import type { CliIo } from './cli-io.js';
import { createJsonLogger } from './logger.js';
import type { AppLogger } from './logger.js';
import { addMcpCommand } from './mcp-command.js';
import { addMigrateCommand } from './migrate-command.js';
import { addOperatorCommands } from './operator-commands.js';
import { addWebhookCommands } from './webhook-commands.js';
import { startServer } from './serve.js';
import type { RunningServer } from './serve.js';
import { VARIABLE_HELP, VARIABLE_NAMES, flagOf } from './variables.js';
import type { RawSettings, VariableName } from './variables.js';

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
    .version(SERVER_INFO.version, '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .showHelpAfterError('(add --help for usage)')
    .addHelpText('after', EXAMPLES);
  addServeCommand(program, io);
  addMcpCommand(program, io);
  addLinkCommands(program, io);
  addInspectCommands(program, io);
  addBatchCommands(program, io);
  addOperatorCommands(program, io);
  addWebhookCommands(program, io);
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
  const options = VARIABLE_NAMES.map((name) => {
    const { value, help } = VARIABLE_HELP[name];
    const option = new Option(`${flagOf(name)} ${value}`, `${help} [${name}]`);
    serve.addOption(option);
    return [name, option.attributeName()] as const;
  });
  serve.action(async (given: Record<string, unknown>) => {
    const flags: RawSettings = {};
    for (const [name, key] of options) setFlag(flags, name, given[key]);
    const config = loadConfig(io.env, flags);
    const logger = createJsonLogger({ level: config.logLevel, stream: io.stderr });
    const running = await startServer(config, { logger });
    await untilClosedBySignal(running, logger);
  });
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

function setFlag(flags: RawSettings, name: VariableName, value: unknown): void {
  if (value === true) flags[name] = 'true';
  else if (typeof value === 'string') flags[name] = value;
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
    const [message, code] =
      error instanceof CliError
        ? [error.message, error.exitCode]
        : error instanceof ConfigError
          ? [error.message, 2]
          : [error instanceof Error ? error.message : String(error), 1];
    io.stderr.write(`error: ${message}\n`);
    return code;
  }
}
