import { writeFile } from 'node:fs/promises';
import {
  CreateLinkInput,
  EXPORTED_LINK_CSV_COLUMNS,
  ExportedLink,
  LINK_CSV_COLUMNS,
  countText,
  csvText,
  err,
  linkCsvRow,
  parseInput,
} from '@shortener/core';
import type { DomainError, LinkView, Result } from '@shortener/core';
import type { Command } from 'commander';
import { CliError, unwrap, unwrapFlags, usageError } from '../cli-io.js';
import type { CliIo } from '../cli-io.js';
import { clip, progressBar, table } from '../render.js';
import type { ExportPage, ShortenerClient } from '../client/client.js';
import { importRecords, readInput } from './batch-io.js';
import type { ImportRecord } from './batch-io.js';
import {
  creationFault,
  creationFields,
  creationNotes,
  exportedLinkFault,
  exportedLinkFields,
  isExportedLink,
} from './import-fields.js';
import { importFrom, importFromOptions } from './import-from.js';
import { addClientCommand } from './kit.js';
import type { ClientCommand, ClientRun } from './kit.js';
import { numberOf } from './link-options.js';

/** One line of a batch: its number, what it said, and how it is written (or why it cannot be). */
interface BatchItem {
  readonly line: number;
  readonly input: string;
  readonly write: (client: ShortenerClient) => Promise<Result<LinkView>>;
  readonly notes?: readonly string[];
}

/** A batch item that creates a link from `create`, or fails with its error. */
const creation = (create: Result<CreateLinkInput>) => (client: ShortenerClient) =>
  create.ok ? client.create(create.value) : Promise.resolve(create);

type BatchResult =
  | { line: number; input: string; ok: true; link: LinkView; notes?: readonly string[] }
  | { line: number; input: string; ok: false; error: { code: string; message: string; field?: string } };

const BULK: ClientCommand = {
  spec: 'bulk <file>',
  description: 'Shorten every URL of a file (one per line; - reads stdin). Blank and # lines are skipped.',
  examples: ['bulk urls.txt', 'cat urls.txt | shortener bulk - --domain s.example --json'],
  options: (command) =>
    command
      .option('--domain <host>', 'short domain of every link')
      .option('--expires-in <days>', 'every link expires after this many days'),
  run: async (run) => {
    const shared = { domain: run.options.domain, expires_in_days: numberOf(run.options.expiresIn) };
    unwrapFlags(parseInput(CreateLinkInput, { url: 'x', ...shared }), { expires_in_days: '--expires-in' });
    const items = (await readInput(run.io, run.args[0] ?? '-')).split(/\r?\n/).flatMap((text, i) => {
      const input = text.trim();
      if (input === '' || input.startsWith('#')) return [];
      return [
        { line: i + 1, input, write: creation(parseInput(CreateLinkInput, { ...shared, url: input })) },
      ];
    });
    await createAll(run, items);
  },
};

const IMPORT: ClientCommand = {
  spec: 'import [file]',
  description:
    'Write back the links of an `export` (locally as they were), or create links from JSON lines or a CSV with a header (url, alias, title, …); - reads stdin. With --from, import another shortener’s links into --account: Shlink, YOURLS, Kutt, Bitly, or their CSV exports.',
  examples: [
    'import links.jsonl',
    'import links.csv --account alice',
    'import - --format csv < links.csv',
    'import --from csv bitly-links.csv --account alice --dry-run',
    'import --from shlink --url https://s.example --api-key … --account alice',
    'import --from yourls --database mysql://yourls:…@127.0.0.1/yourls --domain sho.rt --account alice',
  ],
  options: (command) => {
    command.option('--format <format>', 'jsonl or csv (default: by extension, else by content)');
    importFromOptions(command);
  },
  run: async (run) => {
    if (run.options.from !== undefined) return importFrom(run);
    const file = run.args[0] ?? '-';
    const text = await readInput(run.io, file);
    const records = importRecords(text, formatOf(run.options.format, file, text));
    const { importLink } = run.client;
    if (importLink && run.options.account !== undefined && records.some(isLosslessRecord))
      throw usageError('--account does not apply to a lossless export: its lines name their owners');
    await createAll(
      run,
      records.map((record) => importItem(record, importLink)),
    );
  },
};

const isLosslessRecord = (record: ImportRecord) => 'fields' in record && isExportedLink(record.fields);

/** How one import record is written: back as it was (a lossless line, locally), else as a new link. */
function importItem(record: ImportRecord, importLink: ShortenerClient['importLink']): BatchItem {
  const { line } = record;
  if ('invalid' in record) {
    const error = { code: 'invalid_request', message: record.invalid } as const;
    return { line, input: '', write: () => Promise.resolve(err(error)) };
  }
  const { fields } = record;
  const input = typeof fields.url === 'string' ? fields.url : '';
  if (importLink && isExportedLink(fields)) {
    const typed = exportedLinkFields(fields);
    const fault = exportedLinkFault(typed);
    const parsed = fault === null ? parseInput(ExportedLink, typed) : err(fault);
    return {
      line,
      input,
      write: () => (parsed.ok ? importLink(parsed.value) : Promise.resolve(parsed)),
    };
  }
  const fault = creationFault(fields);
  const create = fault === null ? parseInput(CreateLinkInput, creationFields(fields)) : err(fault);
  return { line, input, write: creation(create), notes: creationNotes(fields) };
}

const EXPORT: ClientCommand = {
  spec: 'export',
  description:
    'Write links with their settings as JSON lines or CSV: locally every link (or --account’s), remotely the key’s.',
  examples: [
    'export > links.jsonl',
    'export --format csv --out links.csv',
    'export --server https://sho.example --key shk_…',
  ],
  options: (command) =>
    command
      .option('--format <format>', 'jsonl (default) or csv')
      .option('--out <file>', 'write to this file instead of stdout'),
  run: async ({ client, options, io, out }) => {
    const format = options.format ?? 'jsonl';
    if (format !== 'jsonl' && format !== 'csv')
      throw usageError(`--format must be jsonl or csv (got "${String(format)}")`);
    const links: ExportPage['links'][number][] = [];
    for (let cursor: string | null = null, first = true; first || cursor !== null; first = false) {
      const page: ExportPage = unwrap(await client.exportPage(cursor));
      links.push(...page.links);
      cursor = page.next_cursor;
    }
    const columns = client.importLink === undefined ? LINK_CSV_COLUMNS : EXPORTED_LINK_CSV_COLUMNS;
    const text =
      format === 'csv'
        ? csvText(columns, links.map(linkCsvRow))
        : links.map((link) => `${JSON.stringify(link)}\n`).join('');
    if (typeof options.out !== 'string') return void io.stdout.write(text);
    // A local export holds password and edit-token hashes: readable by its owner only, like a backup.
    await writeFile(options.out, text, { mode: 0o600 });
    const count = links.length;
    out.print(
      { file: options.out, format, links: count },
      `wrote ${countText('en', count, 'link', 'links')} to ${options.out}`,
    );
  },
};

function formatOf(given: unknown, file: string, text: string): 'jsonl' | 'csv' {
  if (given === 'jsonl' || given === 'csv') return given;
  if (given !== undefined) throw usageError(`--format must be jsonl or csv (got "${String(given)}")`);
  if (/\.csv$/i.test(file)) return 'csv';
  if (/\.jsonl?$/i.test(file)) return 'jsonl';
  return text.trimStart().startsWith('{') ? 'jsonl' : 'csv';
}

/** Creates one link per item, in order, with a progress bar on a terminal; reports every line. */
async function createAll({ client, out, io }: ClientRun, items: readonly BatchItem[]): Promise<void> {
  if (items.length === 0) throw usageError('the input holds no link');
  const bar = progressBar(io.stderr, items.length);
  const results: BatchResult[] = [];
  for (const item of items) {
    const written = await item.write(client);
    const { line, input } = item;
    const notes = item.notes?.length ? { notes: item.notes } : {};
    results.push(
      written.ok
        ? { line, input, ok: true, link: written.value, ...notes }
        : { line, input, ok: false, error: errorJson(written.error) },
    );
    bar.tick(results.length);
  }
  bar.end();
  out.print({ results }, resultsText(results));
  const failed = results.filter((r) => !r.ok).length;
  if (failed > 0) {
    const lines = countText('en', results.length, 'line', 'lines');
    throw new CliError(`${failed} of ${lines} failed (partial_failure)`, 1);
  }
}

const errorJson = ({ code, message, field }: DomainError) => ({
  code,
  message,
  ...(field === undefined ? {} : { field }),
});

function resultsText(results: readonly BatchResult[]): string {
  const rows = results.map((r) =>
    r.ok
      ? [
          String(r.line),
          r.link.short_url,
          r.link.edit_token ?? '-',
          clip(r.input, 50),
          (r.notes ?? []).join('; '),
        ]
      : [String(r.line), `error: ${r.error.message} (${r.error.code})`, '-', clip(r.input, 50), ''],
  );
  return table(['LINE', 'SHORT URL', 'EDIT TOKEN', 'INPUT', 'NOTE'], rows);
}

/** Adds `bulk`, `import` and `export`. */
export function addBatchCommands(program: Command, io: CliIo): void {
  for (const spec of [BULK, IMPORT, EXPORT]) addClientCommand(program, spec, io);
}
