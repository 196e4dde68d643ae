import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import type { ShortenerClient } from '../client/client.js';
import { SERVER_VARIABLE, openClient } from '../client/open-client.js';
import type { ConnectionOptions } from '../client/open-client.js';
import { API_KEY_VARIABLE } from '../mcp-command.js';

/** How a command writes: `print` on stdout (JSON with `--json`), `note` on stderr (text mode only). */
export interface Output {
  readonly json: boolean;
  print(json: unknown, text: string): void;
  note(text: string): void;
}

/** What a command's `run` gets. */
export interface ClientRun {
  readonly client: ShortenerClient;
  /** The positional arguments, a variadic one spread out. */
  readonly args: readonly string[];
  /** The command's own flags, by commander's attribute name (`--max-clicks` is `maxClicks`). */
  readonly options: Readonly<Record<string, unknown>>;
  readonly out: Output;
  readonly io: CliIo;
}

/** One command on the {@link ShortenerClient}, in local or remote mode. */
export interface ClientCommand {
  /** Name and arguments, commander style: `shorten <url>`. */
  readonly spec: string;
  readonly description: string;
  /** Command lines without `shortener `, shown under `--help`. */
  readonly examples: readonly string[];
  /** Adds the command's own flags. */
  readonly options?: (command: Command) => void;
  /** Works on the database file only (`backup`): no remote mode, no credentials, only `--db-path`. */
  readonly localOnly?: boolean;
  readonly run: (run: ClientRun) => Promise<void>;
}

/**
 * Adds `spec` under `parent` with the connection flags (`--server`, `--key`, `--token`, `--account`,
 * `--db-path`) and `--json`; its action opens the client, runs, and closes it.
 */
export function addClientCommand(parent: Command, spec: ClientCommand, io: CliIo): Command {
  const command = parent.command(spec.spec).description(spec.description);
  spec.options?.(command);
  command.option('--json', 'print JSON instead of text');
  if (spec.localOnly !== true) {
    command
      .option('--server <url>', `remote mode: the server's base URL [${SERVER_VARIABLE}]`)
      .option('--key <key>', `API key (remote; locally it names the account) [${API_KEY_VARIABLE}]`)
      .option('--token <token>', 'edit token of an anonymous link (remote)')
      .option('--account <name>', 'local mode: the account (id or name) new links belong to');
  }
  command
    .option('--db-path <path>', 'local mode: SQLite file (default: $DB_PATH, else ./data/shortener.db)')
    .addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  $ shortener ${e}\n`).join('')}`);
  command.action(async () => {
    const options = command.opts();
    const json = options.json === true;
    const out: Output = {
      json,
      print: (value, text) => io.stdout.write(json ? `${JSON.stringify(value, null, 2)}\n` : `${text}\n`),
      note: (text) => void (json ? undefined : io.stderr.write(`${text}\n`)),
    };
    // an optional argument not given is undefined there: left out, not the text "undefined"
    const args = command.processedArgs
      .flat()
      .filter((arg) => arg !== undefined)
      .map(String);
    const connection = options as ConnectionOptions;
    const client = await openClient(
      io,
      spec.localOnly === true ? { ...connection, local: true } : connection,
    );
    try {
      await spec.run({ client, args, options, out, io });
    } finally {
      await client.close();
    }
  });
  return command;
}

/** Adds a group command (`links`) with its description and examples. */
export function addGroup(program: Command, name: string, description: string, examples: readonly string[]) {
  return program
    .command(name)
    .description(description)
    .addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ shortener ${e}\n`).join('')}`);
}
