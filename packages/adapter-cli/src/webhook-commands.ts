import type { Command } from 'commander';
import { createWebhook, EVENT_TYPES, findAccount, toWebhookView } from '@shortener/core';
import type { EventType, Stores, WebhookDeps } from '@shortener/core';
import { CliError, unwrap } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { resolve } from './container.js';
import { openDatabase } from './local-store.js';
import { table } from './render.js';

interface Options {
  readonly dbPath?: string;
  readonly json?: boolean;
  readonly events?: string;
}

/** Runs `run` on the webhooks of the local database (`DB_PATH` or `--db-path`), closing it afterwards. */
async function withWebhooks(
  io: CliIo,
  options: Options,
  run: (deps: WebhookDeps & Pick<Stores, 'accounts'>) => Promise<void>,
): Promise<void> {
  const flags = options.dbPath === undefined ? {} : { DB_PATH: options.dbPath };
  const { config, container } = await openDatabase(io.env, flags);
  const stores = resolve(container, 'stores');
  try {
    const clock = resolve(container, 'clock');
    const random = resolve(container, 'random');
    await run({ events: stores.events, accounts: stores.accounts, clock, random, config: config.service });
  } finally {
    await stores.close();
  }
}

function parseEvents(raw: string | undefined): EventType[] {
  const names = (raw ?? EVENT_TYPES.join(','))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const bad = names.find((name) => !(EVENT_TYPES as readonly string[]).includes(name));
  if (bad !== undefined || names.length === 0) {
    throw new CliError(
      `--events takes a comma-separated list of ${EVENT_TYPES.join(', ')} (got "${raw}")`,
      1,
    );
  }
  return names as EventType[];
}

/**
 * `shortener webhooks list|add|remove` (decisions §16): the operator's view of every account's
 * webhooks, on the database directly (the server delivers them; a test ping is in the API and settings).
 */
export function addWebhookCommands(program: Command, io: CliIo): void {
  const group = program
    .command('webhooks')
    .description('Manage webhooks: signed events of an account’s links, POSTed to its endpoints.')
    .addHelpText(
      'after',
      '\nExamples:\n  $ shortener webhooks add alice https://hooks.example/in\n  $ shortener webhooks list\n',
    );
  const common = (command: Command) =>
    command
      .option('--db-path <path>', 'SQLite file (default: $DB_PATH, else ./data/shortener.db)')
      .option('--json', 'print JSON instead of text');
  const print = (options: Options, json: unknown, text: string) =>
    io.stdout.write(options.json === true ? `${JSON.stringify(json, null, 2)}\n` : `${text}\n`);

  const list = common(
    group
      .command('list [account]')
      .description('List webhooks (of one account, id or name): id, account, state, URL.'),
  );
  list.action(async (reference: string | undefined) => {
    const options = list.opts<Options>();
    await withWebhooks(io, options, async (deps) => {
      const accountId = reference === undefined ? null : unwrap(await findAccount(deps, reference)).id;
      const all = await deps.events.listWebhooks(accountId);
      const rows = all.map((w) => [w.id, w.accountId, toWebhookView(w).state, w.events.join(','), w.url]);
      print(
        options,
        all.map((w) => ({ ...toWebhookView(w), account_id: w.accountId })),
        table(['ID', 'ACCOUNT', 'STATE', 'EVENTS', 'URL'], rows),
      );
    });
  });

  const add = common(
    group
      .command('add <account> <url>')
      .description('Add a webhook to an account (id or name); prints its secret, once.'),
  ).option('--events <list>', `comma-separated event types (default: all of ${EVENT_TYPES.join(', ')})`);
  add.action(async (reference: string, url: string) => {
    const options = add.opts<Options>();
    await withWebhooks(io, options, async (deps) => {
      const account = unwrap(await findAccount(deps, reference));
      const webhook = unwrap(
        await createWebhook(deps, account.id, { url, events: parseEvents(options.events) }),
      );
      print(
        options,
        { id: webhook.id, url: webhook.url, events: webhook.events, secret: webhook.secret },
        `${webhook.id}\t${webhook.secret}`,
      );
      io.stderr.write(
        'The secret is shown once: give it to the receiver now (it verifies the signatures).\n',
      );
    });
  });

  const remove = common(
    group
      .command('remove <id>')
      .description('Remove a webhook by its id; its pending deliveries are dropped.'),
  );
  remove.action(async (id: string) => {
    const options = remove.opts<Options>();
    await withWebhooks(io, options, async (deps) => {
      if (!(await deps.events.deleteWebhook(id.trim())))
        throw new CliError(`No webhook has the id ${id.trim()}.`, 1);
      print(options, { id: id.trim(), removed: true }, `removed ${id.trim()}`);
    });
  });
}
