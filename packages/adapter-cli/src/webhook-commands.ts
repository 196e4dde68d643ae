import type { Command } from 'commander';
import { createWebhook, EVENT_TYPES, findAccount, toWebhookView } from '@shortener/core';
import type { EventType, Result } from '@shortener/core';
import { CliError, unwrap } from './cli-io.js';
import type { CliIo } from './cli-io.js';
import { localOptions, printerOf, withLocalStore } from './host.js';
import { table } from './render.js';

interface Options {
  readonly dbPath?: string;
  readonly json?: boolean;
  readonly events?: string;
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

/** The options every webhook command takes. */
const common = localOptions;
/** Prints the JSON with `--json`, else the text. */
const print = (io: CliIo, options: Options, json: unknown, text: string) =>
  printerOf(io, options)(json, text);

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
  addList(group, io);
  addAdd(group, io);
  addRemove(group, io);
}

/** `webhooks list [account]`. */
function addList(group: Command, io: CliIo): void {
  const list = common(
    group
      .command('list [account]')
      .description('List webhooks (of one account, id or name): id, account, state, events, URL.'),
  );
  list.action(async (reference: string | undefined) => {
    const options = list.opts<Options>();
    await withLocalStore(io, options.dbPath, async ({ core, webhooks }) => {
      const accountId = reference === undefined ? null : unwrap(await findAccount(core, reference)).id;
      const all = await webhooks.events.listWebhooks(accountId);
      const rows = all.map((w) => [w.id, w.accountId, toWebhookView(w).state, w.events.join(','), w.url]);
      const json = all.map((w) => ({ ...toWebhookView(w), account_id: w.accountId }));
      print(io, options, json, table(['ID', 'ACCOUNT', 'STATE', 'EVENTS', 'URL'], rows));
    });
  });
}

/** A refused private address, with the setting that allows it (the operator is the one who can set it). */
function withPrivateHint<T>(result: Result<T>): Result<T> {
  if (result.ok || result.error.code !== 'private_host') return result;
  const hint = 'WEBHOOK_ALLOW_PRIVATE=true allows private and loopback addresses (here and on the server).';
  return { ok: false, error: { ...result.error, message: `${result.error.message} ${hint}` } };
}

/** `webhooks add <account> <url>`: the secret is printed once. */
function addAdd(group: Command, io: CliIo): void {
  const add = common(
    group
      .command('add <account> <url>')
      .description('Add a webhook to an account (id or name); prints its id and secret, once.'),
  ).option('--events <list>', `comma-separated event types (default: all of ${EVENT_TYPES.join(', ')})`);
  add.action(async (reference: string, url: string) => {
    const options = add.opts<Options>();
    await withLocalStore(io, options.dbPath, async ({ core, webhooks }) => {
      const account = unwrap(await findAccount(core, reference));
      const events = parseEvents(options.events);
      const webhook = unwrap(withPrivateHint(await createWebhook(webhooks, account.id, { url, events })));
      const json = { id: webhook.id, url: webhook.url, events: webhook.events, secret: webhook.secret };
      print(io, options, json, `${webhook.id}\t${webhook.secret}`);
      io.stderr.write(
        'The secret is shown once: give it to the receiver now (it verifies the signatures).\n',
      );
    });
  });
}

/** `webhooks remove <id>`. */
function addRemove(group: Command, io: CliIo): void {
  const remove = common(
    group
      .command('remove <id>')
      .description('Remove a webhook by its id; its pending deliveries are dropped.'),
  );
  remove.action(async (id: string) => {
    const options = remove.opts<Options>();
    await withLocalStore(io, options.dbPath, async ({ webhooks }) => {
      if (!(await webhooks.events.deleteWebhook(id.trim())))
        throw new CliError(`No webhook has the id ${id.trim()}.`, 1);
      print(io, options, { id: id.trim(), removed: true }, `removed ${id.trim()}`);
    });
  });
}
