import type { Command } from 'commander';
import {
  CreateKeyInput,
  createAccount,
  createApiKey,
  findAccount,
  inviteAccount,
  makeApiKey,
  parseInput,
  listApiKeys,
  revokeApiKey,
  setAccountDisabled,
} from '@shortener/core';
import type { Account, ApiKeyRecord, CoreDeps } from '@shortener/core';
import { unwrap, unwrapFlags } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { localOptions, printerOf, withLocalStore } from './host.js';
import { table } from './render.js';

/** The role and lists of `keys create`, checked by the API's own schema. */
const KeyLimitsInput = CreateKeyInput.pick({ role: true, domains: true, url_hosts: true });

/** Options every operator command takes. */
interface OperatorOptions {
  readonly dbPath?: string;
  readonly json?: boolean;
  readonly [flag: string]: unknown;
}

/** What a command's action gets: the core on the opened database, its one argument, and output. */
interface Run {
  readonly core: CoreDeps;
  readonly argument: string;
  /** Prints `json` with `--json`, else `text`, on stdout. */
  readonly print: (json: unknown, text: string) => void;
  readonly io: CliIo;
  /** The command's own flags (`flags`), as commander parsed them. */
  readonly options: Readonly<Record<string, unknown>>;
}

interface OperatorCommand {
  readonly group: 'accounts' | 'keys';
  readonly spec: string;
  readonly description: string;
  readonly example: string;
  /** Extra flags: `[flags, description]`, e.g. `['--admin', 'make it an admin']`. */
  readonly flags?: readonly (readonly [string, string])[];
  readonly run: (run: Run) => Promise<void>;
}

const GROUPS = {
  accounts: [
    'Manage accounts: invite people (they sign in at /login), disable them.',
    'accounts invite alice',
    'accounts list',
  ],
  keys: ['Manage API keys (shown once, stored as SHA-256 hashes).', 'keys create alice', 'keys list alice'],
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
    spec: 'invite <name>',
    description:
      'Print a one-time link (48 hours) where a person sets the password or passkey of the account; creates the account when the name is new, else the link resets it: using it ends its sessions and removes its passkeys and webhooks.',
    example: 'accounts invite alice --admin',
    flags: [['--admin', 'make the account an admin']],
    run: async ({ core, argument, print, options }) => {
      const invite = unwrap(await inviteAccount(core, argument, options.admin === true));
      const json = { ...accountJson(invite.account), url: invite.url, expires_at: iso(invite.expiresAt) };
      print(json, invite.url);
    },
  },
  accountSwitch(
    'disable',
    'Disable an account (id or name): it cannot sign in, its sessions end, its keys get 401.',
  ),
  accountSwitch('enable', 'Enable a disabled account again.'),
  {
    group: 'accounts',
    spec: 'list',
    description: 'List the accounts, oldest first.',
    example: 'accounts list --json',
    run: async ({ core, print }) => {
      const all = await core.accounts.listAccounts();
      const rows = all.map((a) => [
        a.id,
        a.name,
        a.role,
        iso(a.createdAt),
        a.disabledAt === null ? '-' : 'disabled',
      ]);
      print(all.map(accountJson), table(['ID', 'NAME', 'ROLE', 'CREATED', 'STATUS'], rows));
    },
  },
  {
    group: 'keys',
    spec: 'create <account>',
    description: 'Create an API key for an account (id or name); prints the key, once.',
    example: 'keys create alice --name blog --role creator --url-hosts example.com',
    flags: [
      ['--name <name>', 'what the key is for (listed beside its prefix)'],
      ['--role <role>', 'admin (the default), editor, viewer or creator (only makes links)'],
      ['--domains <hosts>', 'the short domains it may create on, comma-separated (default: any)'],
      ['--url-hosts <hosts>', 'the destination hosts it may shorten, comma-separated (default: any)'],
    ],
    run: async ({ core, argument, print, io, options }) => {
      const name = typeof options.name === 'string' ? options.name : '';
      const account = unwrap(await findAccount(core, argument));
      const list = (flag: unknown) => (typeof flag === 'string' ? flag.split(',') : undefined);
      const limits = unwrapFlags(
        parseInput(KeyLimitsInput, {
          role: options.role,
          domains: list(options.domains),
          url_hosts: list(options.urlHosts),
        }),
      );
      // the operator makes it: any role, its lists checked as the API checks them
      const operator = { accountId: account.id, editToken: null, operator: true };
      const made =
        limits.role === undefined && limits.domains === undefined && limits.url_hosts === undefined
          ? await createApiKey(core, account.id, name, 'cli')
          : await makeApiKey(core, operator, { ...limits, name: name || 'cli' }, 'cli');
      const { key, secret } = unwrap(made);
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
      const limits = (k: ApiKeyRecord) =>
        [...(k.domains ?? []).map((d) => `domain ${d}`), ...(k.urlHosts ?? []).map((h) => `url ${h}`)].join(
          ', ',
        ) || '-';
      const rows = all.map((k) => [k.id, `${k.prefix}…`, k.role, limits(k), iso(k.createdAt), revoked(k)]);
      print(all.map(keyJson), table(['ID', 'PREFIX', 'ROLE', 'LIMITS', 'CREATED', 'REVOKED'], rows));
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
];

/**
 * Adds `accounts` and `keys` (decisions §2). They open the SQLite database of `DB_PATH`
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

/** `accounts disable|enable <account>`: the one switch, either way. */
function accountSwitch(verb: 'disable' | 'enable', description: string): OperatorCommand {
  return {
    group: 'accounts',
    spec: `${verb} <account>`,
    description,
    example: `accounts ${verb} alice`,
    run: async ({ core, argument, print }) => {
      const account = unwrap(await setAccountDisabled(core, argument, verb === 'disable'));
      print(accountJson(account), `${verb}d ${account.name}`);
    },
  };
}

function addLeaf(parent: Command, spec: OperatorCommand, io: CliIo): void {
  const command = localOptions(parent.command(spec.spec).description(spec.description)).addHelpText(
    'after',
    `\nExample:\n  $ shortener ${spec.example}\n`,
  );
  for (const [flags, description] of spec.flags ?? []) command.option(flags, description);
  command.action(async () => {
    const options = command.opts<OperatorOptions>();
    const print = printerOf(io, options);
    const argument = String(command.processedArgs[0] ?? '');
    await withLocalStore(io, options.dbPath, ({ core }) => spec.run({ core, argument, print, io, options }));
  });
}

const iso = (ms: number): string => new Date(ms).toISOString();

const accountJson = (a: Account) => ({
  id: a.id,
  name: a.name,
  role: a.role,
  created_at: iso(a.createdAt),
  disabled_at: a.disabledAt === null ? null : iso(a.disabledAt),
});

const keyJson = (k: ApiKeyRecord) => ({
  id: k.id,
  account_id: k.accountId,
  name: k.name,
  prefix: k.prefix,
  created_at: iso(k.createdAt),
  created_via: k.createdVia,
  last_used_at: k.lastUsedAt === null ? null : iso(k.lastUsedAt),
  revoked_at: k.revokedAt === null ? null : iso(k.revokedAt),
  role: k.role,
  domains: k.domains,
  url_hosts: k.urlHosts,
});
