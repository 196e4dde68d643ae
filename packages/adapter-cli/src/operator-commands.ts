import type { Command } from 'commander';
import {
  createAccount,
  createApiKey,
  listApiKeys,
  revokeApiKey,
  setLinkDisabled,
  toLinkView,
} from '@shortener/core';
import type { Account, ApiKeyRecord, CoreDeps, Result } from '@shortener/core';
import { CliError } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { ConfigError, loadConfig } from './config.js';
import { createContainer, resolve } from './container.js';

/** Options every operator command takes. */
interface OperatorOptions {
  readonly dbPath?: string;
  readonly json?: boolean;
}

/** What a command's action gets: the core on the opened database, its one argument, and output. */
interface Run {
  readonly core: CoreDeps;
  readonly argument: string;
  /** Prints `json` with `--json`, else `text`, on stdout. */
  readonly print: (json: unknown, text: string) => void;
  readonly io: CliIo;
}

interface OperatorCommand {
  readonly group: 'accounts' | 'keys' | 'links';
  readonly spec: string;
  readonly description: string;
  readonly example: string;
  readonly run: (run: Run) => Promise<void>;
}

const GROUPS = {
  accounts: ['Manage the accounts that API keys belong to.', 'accounts create alice', 'accounts list'],
  keys: ['Manage API keys (shown once, stored as SHA-256 hashes).', 'keys create alice', 'keys list alice'],
  links: [
    'Disable or re-enable links by id or short URL.',
    'links disable https://s.example/abc123',
    'links enable abc123',
  ],
} as const;

const COMMANDS: readonly OperatorCommand[] = [
  {
    group: 'accounts',
    spec: 'create <name>',
    description: 'Create an account; prints its id and name.',
    example: 'accounts create alice',
    run: async ({ core, argument, print }) => {
      const account = unwrap(await createAccount(core, argument));
      print(accountJson(account), `${account.id}\t${account.name}`);
    },
  },
  {
    group: 'accounts',
    spec: 'list',
    description: 'List the accounts, oldest first.',
    example: 'accounts list --json',
    run: async ({ core, print }) => {
      const all = await core.accounts.listAccounts();
      const rows = all.map((a) => [a.id, a.name, iso(a.createdAt)]);
      print(all.map(accountJson), table(['ID', 'NAME', 'CREATED'], rows));
    },
  },
  {
    group: 'keys',
    spec: 'create <account>',
    description: 'Create an API key for an account (id or name); prints the key, once.',
    example: 'keys create alice',
    run: async ({ core, argument, print, io }) => {
      const { key, secret } = unwrap(await createApiKey(core, argument));
      print({ ...keyJson(key), key: secret }, secret);
      io.stderr.write(`This key is shown once and cannot be recovered: store it now (key id ${key.id}).\n`);
    },
  },
  {
    group: 'keys',
    spec: 'list <account>',
    description: 'List the keys of an account: id, prefix, created, revoked (never the keys).',
    example: 'keys list alice',
    run: async ({ core, argument, print }) => {
      const all = unwrap(await listApiKeys(core, argument));
      const revoked = (k: ApiKeyRecord) => (k.revokedAt === null ? '-' : iso(k.revokedAt));
      const rows = all.map((k) => [k.id, `${k.prefix}…`, iso(k.createdAt), revoked(k)]);
      print(all.map(keyJson), table(['ID', 'PREFIX', 'CREATED', 'REVOKED'], rows));
    },
  },
  {
    group: 'keys',
    spec: 'revoke <key-id>',
    description: 'Revoke a key by its id; requests with it get 401 from now on.',
    example: 'keys revoke 0b9a6c1e-…',
    run: async ({ core, argument, print }) => {
      unwrap(await revokeApiKey(core, argument));
      print({ id: argument.trim(), revoked: true }, `revoked ${argument.trim()}`);
    },
  },
  ...[true, false].map((disabled): OperatorCommand => ({
    group: 'links',
    spec: `${disabled ? 'disable' : 'enable'} <id-or-short-url>`,
    description: disabled
      ? 'Disable a link: it answers 410 until enabled again. Owners cannot change this.'
      : 'Enable a disabled link again; prints its short URL, id and status.',
    example: `links ${disabled ? 'disable' : 'enable'} https://s.example/abc123`,
    run: async ({ core, argument, print }) => {
      const link = unwrap(await setLinkDisabled(core, argument, disabled));
      const view = toLinkView(link, core.config, core.clock.now());
      print(view, `${view.short_url}\t${view.id}\t${view.status}`);
    },
  })),
];

/**
 * Adds `accounts`, `keys` and `links` (decisions §2 and §3). They open the SQLite database of `DB_PATH`
 * (or `--db-path`) directly; WAL and a busy timeout make that safe while the server runs.
 */
export function addOperatorCommands(program: Command, io: CliIo): void {
  for (const [group, [description, ...examples]] of Object.entries(GROUPS)) {
    const parent = program
      .command(group)
      .description(description)
      .addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ shortener ${e}\n`).join('')}`);
    for (const spec of COMMANDS.filter((c) => c.group === group)) addLeaf(parent, spec, io);
  }
}

function addLeaf(parent: Command, spec: OperatorCommand, io: CliIo): void {
  const command = parent
    .command(spec.spec)
    .description(spec.description)
    .option('--db-path <path>', 'SQLite file (default: $DB_PATH, else ./data/shortener.db)')
    .option('--json', 'print JSON instead of text')
    .addHelpText('after', `\nExample:\n  $ shortener ${spec.example}\n`);
  command.action(async () => {
    const options = command.opts<OperatorOptions>();
    const print = (json: unknown, text: string): void => {
      io.stdout.write(options.json === true ? `${JSON.stringify(json, null, 2)}\n` : `${text}\n`);
    };
    const argument = String(command.processedArgs[0] ?? '');
    await withCore(io, options, (core) => spec.run({ core, argument, print, io }));
  });
}

async function withCore(io: CliIo, options: OperatorOptions, run: (core: CoreDeps) => Promise<void>) {
  const config = loadConfig(io.env, options.dbPath === undefined ? {} : { DB_PATH: options.dbPath });
  if (config.store.kind !== 'sqlite') {
    throw new ConfigError('STORE', 'STORE must be sqlite for operator commands (got "memory")');
  }
  const container = createContainer(config);
  try {
    await run(resolve(container, 'coreDeps'));
  } finally {
    await resolve(container, 'stores').close();
  }
}

function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new CliError(`${result.error.message} (${result.error.code})`, 1);
}

function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [header, ...rows].map(line).join('\n');
}

const iso = (ms: number): string => new Date(ms).toISOString();

const accountJson = (a: Account) => ({ id: a.id, name: a.name, created_at: iso(a.createdAt) });

const keyJson = (k: ApiKeyRecord) => ({
  id: k.id,
  account_id: k.accountId,
  prefix: k.prefix,
  created_at: iso(k.createdAt),
  revoked_at: k.revokedAt === null ? null : iso(k.revokedAt),
});
