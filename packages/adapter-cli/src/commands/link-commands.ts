import { HEALTH_STATES, ListLinksQuery, parseInput } from '@shortener/core';
import type { LinkView } from '@shortener/core';
import type { Command } from 'commander';
import { unwrap, unwrapFlags } from '../cli-io.js';
import type { CliIo } from '../cli-io.js';
import { linkText, linksTable } from '../render.js';
import { CHECK } from './health-commands.js';
import { addClientCommand, addGroup } from './kit.js';
import type { ClientCommand, ClientRun } from './kit.js';
import {
  REFERENCE_HELP,
  addCreateFlags,
  addUpdateFlags,
  collectTag,
  createInputOf,
  defined,
  updateInputOf,
} from './link-options.js';

const SHORTEN: ClientCommand = {
  spec: 'shorten <url>',
  description:
    'Shorten a URL. Piped, prints only the short URL; an anonymous link’s edit token goes to stderr.',
  examples: [
    'shorten https://example.com/a/long/page --alias hello --title Hello',
    'shorten example.com --expires-in 7 --max-clicks 100 | pbcopy',
    `shorten example.com --tag summer --rule '{"when":{"os":"ios"},"url":"https://apps.example"}'`,
    'shorten https://example.com --server https://sho.example --key shk_… --json',
  ],
  options: addCreateFlags,
  run: async ({ client, args, options, out, io }) => {
    const link = unwrap(await client.create(createInputOf(args[0] ?? '', options)));
    out.print(link, io.stdout.isTTY === true ? linkText(link) : link.short_url);
    if (link.edit_token !== undefined) {
      out.note(`edit token (shown once; needed to change or delete this link): ${link.edit_token}`);
    }
  },
};

const LIST: ClientCommand = {
  spec: 'list',
  description: 'List links, newest first: the account’s (the key’s, or --account), or locally every link.',
  examples: [
    'links list',
    'links list --query promo --all --json',
    'links list --tag summer --tag print',
    'links list --health broken',
    'links list --server https://sho.example --key shk_…',
  ],
  options: (command) =>
    command
      .option('--query <text>', 'only links whose slug, title or URL contains it')
      .option('--tag <tag>', 'only links carrying this tag (repeatable: every one)', collectTag)
      .option('--health <state>', `only links in this health state: ${HEALTH_STATES.join(', ')}`)
      .option('--limit <n>', 'links per page, 1-200 (default 50; 200 with --all)')
      .option('--cursor <cursor>', 'the page after this cursor')
      .option('--all', 'every page'),
  run: async ({ client, options, out }) => {
    const all = options.all === true;
    const raw = {
      limit: options.limit ?? (all ? 200 : undefined),
      cursor: options.cursor,
      q: options.query,
      tag: options.tag,
      health: options.health,
    };
    const query = unwrapFlags(parseInput(ListLinksQuery, defined(raw)), { q: '--query' });
    let page = unwrap(await client.list(query));
    const links = [...page.links];
    while (all && page.next_cursor !== null) {
      page = unwrap(await client.list({ ...query, cursor: page.next_cursor }));
      links.push(...page.links);
    }
    const text = links.length === 0 ? 'no links' : linksTable(links, query.health !== undefined);
    out.print({ links, next_cursor: page.next_cursor }, text);
    if (page.next_cursor !== null && !all) out.note(`more: --cursor ${page.next_cursor}, or --all`);
  },
};

const REFERENCE = '<id-or-short-url>';

/** `links show|update|delete|disable|enable`, each on one link. */
const PER_LINK: readonly ClientCommand[] = [
  perLink('show', 'Show a link.', ['links show hello', 'links show https://s.example/hello --json'], (run) =>
    run.client.get(run.args[0] ?? ''),
  ),
  {
    ...perLink(
      'update',
      'Change a link: only the given settings change; --no-… removes one.',
      [
        'links update hello --max-clicks 100 --no-expires-at',
        'links update 0b9a… --token et_… --title "New"',
      ],
      (run) => run.client.update(run.args[0] ?? '', updateInputOf(run.options)),
    ),
    options: addUpdateFlags,
  },
  {
    spec: `delete ${REFERENCE}`,
    description: `Delete a link and its statistics. ${REFERENCE_HELP}`,
    examples: ['links delete hello', 'links delete 0b9a… --server https://sho.example --token et_…'],
    run: async ({ client, args, out }) => {
      const link = unwrap(await client.remove(args[0] ?? ''));
      out.print({ id: link.id, short_url: link.short_url, deleted: true }, `deleted ${link.short_url}`);
    },
  },
  ...[true, false].map((disabled): ClientCommand => ({
    spec: `${disabled ? 'disable' : 'enable'} ${REFERENCE}`,
    description: disabled
      ? 'Disable a link (operator, local only): it answers 410 until enabled again.'
      : 'Enable a disabled link again (operator, local only).',
    examples: [`links ${disabled ? 'disable' : 'enable'} https://s.example/abc123`],
    run: async ({ client, args, out }) => {
      const link = unwrap(await client.setDisabled(args[0] ?? '', disabled));
      out.print(link, `${link.short_url}\t${link.id}\t${link.status}`);
    },
  })),
];

function perLink(
  name: string,
  description: string,
  examples: readonly string[],
  call: (run: ClientRun) => ReturnType<ClientRun['client']['get']>,
): ClientCommand {
  return {
    spec: `${name} ${REFERENCE}`,
    description: `${description} ${REFERENCE_HELP}`,
    examples,
    run: async (run) => {
      const link: LinkView = unwrap(await call(run));
      run.out.print(link, linkText(link));
    },
  };
}

/** Adds `shorten` and the `links` group. */
export function addLinkCommands(program: Command, io: CliIo): void {
  addClientCommand(program, SHORTEN, io);
  const links = addGroup(
    program,
    'links',
    'List, show, change, delete, disable and enable links, and check their destinations.',
    ['links list', 'links show hello', 'links check --broken', 'links disable https://s.example/abc123'],
  );
  for (const spec of [LIST, ...PER_LINK, CHECK]) addClientCommand(links, spec, io);
}
