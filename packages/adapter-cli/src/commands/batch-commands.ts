import { writeFile } from 'node:fs/promises';
import { CreateLinkInput, parseInput } from '@shortener/core';
import type { DomainError, LinkView, Result } from '@shortener/core';
import type { Command } from 'commander';
import { CliError, USAGE, unwrap, usageError } from '../cli-io.js';
import type { CliIo } from '../cli-io.js';
import { clip, progressBar, table } from '../render.js';
import { CSV_COLUMNS, creationFields, csvLine, importNotes, importRecords, readInput } from './batch-io.js';
import { addClientCommand } from './kit.js';
import type { ClientCommand, ClientRun } from './kit.js';
import { numberOf } from './link-options.js';

/** One line of a batch: its number, what it said, and the creation input or why there is none. */
interface BatchItem {
  readonly line: number;
  readonly input: string;
  readonly create: Result<CreateLinkInput>;
  readonly notes?: readonly string[];
}

type BatchResult =
  | { line: number; input: string; ok: true; link: LinkView; notes?: readonly string[] }
  | { line: number; input: string; ok: false; error: { code: string; message: string } };

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
    unwrap(parseInput(CreateLinkInput, { url: 'x', ...shared }), USAGE);
    const items = (await readInput(run.io, run.args[0] ?? '-')).split(/\r?\n/).flatMap((text, i) => {
      const input = text.trim();
      if (input === '' || input.startsWith('#')) return [];
      return [{ line: i + 1, input, create: parseInput(CreateLinkInput, { ...shared, url: input }) }];
    });
    await createAll(run, items);
  },
};

const IMPORT: ClientCommand = {
  spec: 'import <file>',
  description:
    'Create links from `export` JSON lines or a CSV with a header (url, alias, title, …); - reads stdin.',
  examples: ['import links.jsonl', 'import links.csv --account alice', 'import - --format csv < links.csv'],
  options: (command) =>
    command.option('--format <format>', 'jsonl or csv (default: by extension, else by content)'),
  run: async (run) => {
    const file = run.args[0] ?? '-';
    const text = await readInput(run.io, file);
    const format = formatOf(run.options.format, file, text);
    const items = importRecords(text, format).map((record): BatchItem => {
      if ('invalid' in record) {
        return {
          line: record.line,
          input: '',
          create: { ok: false, error: { code: 'invalid_request', message: record.invalid } },
        };
      }
      const input = typeof record.fields.url === 'string' ? record.fields.url : '';
      const create = parseInput(CreateLinkInput, creationFields(record.fields));
      return { line: record.line, input, create, notes: importNotes(record.fields) };
    });
    await createAll(run, items);
  },
};

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
    const lines = format === 'csv' ? [CSV_COLUMNS.join(',')] : [];
    for (let cursor: string | null | undefined, first = true; first || cursor; first = false) {
      const page = unwrap(await client.list({ limit: 200, ...(cursor ? { cursor } : {}) }));
      lines.push(...page.links.map((link) => (format === 'csv' ? csvLine(link) : JSON.stringify(link))));
      cursor = page.next_cursor;
    }
    const text = lines.map((line) => `${line}\n`).join('');
    if (typeof options.out !== 'string') return void io.stdout.write(text);
    await writeFile(options.out, text);
    const count = lines.length - (format === 'csv' ? 1 : 0);
    out.print({ file: options.out, format, links: count }, `wrote ${count} links to ${options.out}`);
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
    const created = item.create.ok ? await client.create(item.create.value) : item.create;
    const { line, input } = item;
    const notes = item.notes?.length ? { notes: item.notes } : {};
    results.push(
      created.ok
        ? { line, input, ok: true, link: created.value, ...notes }
        : { line, input, ok: false, error: errorJson(created.error) },
    );
    bar.tick(results.length);
  }
  bar.end();
  out.print({ results }, resultsText(results));
  const failed = results.filter((r) => !r.ok).length;
  if (failed > 0) throw new CliError(`${failed} of ${results.length} lines failed (partial_failure)`, 1);
}

const errorJson = (error: DomainError) => ({ code: error.code, message: error.message });

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
