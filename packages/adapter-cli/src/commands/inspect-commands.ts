import { existsSync } from 'node:fs';
import { stat, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { renderQr } from '@shortener/qr';
import {
  CheckAliasInput,
  QrPngQuery,
  STATS_CSV_COLUMNS,
  STATS_MAX_RANGE_DAYS,
  StatsQuery,
  countText,
  csvText,
  parseInput,
  statsCsvRows,
} from '@shortener/core';
import type { Command } from 'commander';
import { CliError, unwrap, unwrapFlags, usageError } from '../cli-io.js';
import type { CliIo } from '../cli-io.js';
import { checkText, statsText } from '../render.js';
import { addClientCommand } from './kit.js';
import type { ClientCommand } from './kit.js';
import { defined } from './link-options.js';

/** The system's time zone, the default of `stats --tz`. */
const systemZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const STATS: ClientCommand = {
  spec: 'stats <id-or-short-url>',
  description:
    'Click statistics of a link: totals, a by-day sparkline and the top countries, referrers, devices, ' +
    'browsers; days counted in --tz (by day and the totals; the other lists by UTC day).',
  examples: [
    'stats hello',
    'stats https://s.example/hello --days 7 --json',
    'stats hello --from 2026-01-01 --to 2026-03-31 --tz Europe/Vienna',
    'stats hello --format csv > hello.csv',
  ],
  options: (command) =>
    command
      .option('--days <n>', 'the last days, 1-365 (default 30)')
      .option('--from <date>', `the first day, YYYY-MM-DD (at most ${STATS_MAX_RANGE_DAYS} days to --to)`)
      .option('--to <date>', 'the last day, YYYY-MM-DD (default today; needs --from)')
      .option('--tz <zone>', 'the IANA time zone whose days count (default: the system’s)')
      .option('--format <format>', 'table (default) or csv: rows dimension,key,count'),
  run: async ({ client, args, options, out, io }) => {
    const { days, from, to } = options;
    const format = options.format ?? 'table';
    if (format !== 'table' && format !== 'csv')
      throw usageError(`--format must be table or csv (got "${String(format)}")`);
    const tz = options.tz ?? systemZone();
    const query = unwrapFlags(parseInput(StatsQuery, defined({ days, from, to, tz })));
    const stats = unwrap(await client.stats(args[0] ?? '', query));
    if (format === 'csv') return void io.stdout.write(csvText(STATS_CSV_COLUMNS, statsCsvRows(stats)));
    // the rule statistics are named by the rules' words when the link can be read (its owner, a token)
    const link = stats.rules.length === 0 ? null : await client.get(args[0] ?? '');
    out.print(stats, statsText(stats, link?.ok === true ? link.value : null));
  },
};

const QR: ClientCommand = {
  spec: 'qr <short-url>',
  description:
    'The QR code of a link: printed in the terminal, or written to a .png or .svg file with --out.',
  examples: [
    'qr hello',
    'qr https://s.example/hello --out hello.png --size 1024 --fg "#1a1a2e"',
    'qr hello --out hello.svg',
  ],
  options: (command) =>
    command
      .option('--out <file>', 'write a PNG or SVG file (by its extension)')
      .option('--size <px>', 'PNG width, 64-2048 (default 512)')
      .option('--fg <color>', 'dark color, #rgb or #rrggbb[aa] (default #000000)')
      .option('--bg <color>', 'light color (default #ffffff)')
      .option('--margin <modules>', 'quiet zone, 0-8 (default 2)'),
  run: async ({ client, args, options, out, io }) => {
    const { size, fg, bg, margin } = options;
    const look = unwrapFlags(parseInput(QrPngQuery, defined({ size, fg, bg, margin })));
    const file = options.out;
    const format = typeof file === 'string' ? formatOf(file) : null;
    const url = unwrap(await client.shortUrl(args[0] ?? ''));
    if (typeof file !== 'string' || format === null) {
      const type = io.stdout.isTTY === true ? 'terminal' : 'utf8';
      // loaded by the command that draws on the terminal, not by every start of the program
      const { default: QRCode } = await import('qrcode');
      const text = await QRCode.toString(url, {
        type,
        small: true,
        margin: look.margin,
        errorCorrectionLevel: 'M',
      });
      return out.print({ short_url: url, text }, `${text.trimEnd()}\n${url}`);
    }
    const image = await renderQr(url, format, look);
    await writeFile(file, image.data);
    out.print({ short_url: url, file, format }, `wrote ${file} (${url})`);
  },
};

function formatOf(file: string): 'png' | 'svg' {
  const extension = extname(file).toLowerCase();
  if (extension === '.png' || extension === '.svg') return extension === '.png' ? 'png' : 'svg';
  throw usageError(`--out must end in .png or .svg (got "${file}")`);
}

const CHECK: ClientCommand = {
  spec: 'check <alias>',
  description: 'Is an alias free, taken, reserved or invalid (and free on the other domain)?',
  examples: ['check hello', 'check hello --domain s.example --json'],
  options: (command) => command.option('--domain <host>', 'short domain (default: the first one)'),
  run: async ({ client, args, options, out }) => {
    const raw = {
      slug: args[0] ?? '',
      ...(typeof options.domain === 'string' ? { domain: options.domain } : {}),
    };
    const check = unwrap(await client.check(unwrapFlags(parseInput(CheckAliasInput, raw), { slug: null })));
    out.print(check, checkText(check));
  },
};

const CLAIM: ClientCommand = {
  spec: 'claim <edit-tokens...>',
  description:
    'Attach anonymous links to your account by their edit tokens (remote: --key; local: --account).',
  examples: ['claim et_… et_… --server https://sho.example --key shk_…', 'claim et_… --account alice'],
  run: async ({ client, args, out }) => {
    const claimed = unwrap(await client.claim(args));
    out.print({ claimed }, `claimed ${countText('en', claimed, 'link', 'links')}`);
    if (claimed === 0) {
      throw new CliError('no link was claimed: the tokens match no anonymous link (not_found)', 1);
    }
  },
};

const BACKUP: ClientCommand = {
  spec: 'backup <file>',
  description:
    'Copy the SQLite database to a file (VACUUM INTO a temporary file, renamed when complete): safe and finite while the server writes.',
  examples: ['backup backups/shortener-$(date +%F).db', 'backup /var/backups/shortener.db --force'],
  options: (command) => command.option('--force', 'overwrite an existing file'),
  localOnly: true,
  run: async ({ client, args, options, out }) => {
    const file = args[0] ?? '';
    if (existsSync(file) && options.force !== true)
      throw usageError(`${file} exists: give --force to overwrite it`);
    await client.backup(file);
    const { size } = await stat(file);
    out.print({ file, bytes: size }, `backed up to ${file} (${size} bytes)`);
  },
};

/** Adds `stats`, `qr`, `check`, `claim` and `backup`. */
export function addInspectCommands(program: Command, io: CliIo): void {
  for (const spec of [STATS, QR, CHECK, CLAIM, BACKUP]) addClientCommand(program, spec, io);
}
