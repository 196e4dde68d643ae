import { basename } from 'node:path';
import { IMPORT_SOURCES, dateReaderOf, importReportRow, toImportJobView } from '@shortener/core';
import type { ImportReportLine, ImportSourceName } from '@shortener/core';
import type { Command } from 'commander';
import { CliError, unwrap, usageError } from '../cli-io.js';
import type { CliIo } from '../cli-io.js';
import { countsLine, progressOf } from './import-progress.js';
import type { ClientRun } from './kit.js';
import { readInput } from './batch-io.js';

/** The flags of `import --from` (decisions §17); `--token` (Bitly's) is the command's own. */
export function importFromOptions(command: Command): void {
  const collect = (value: string, all: string[]) => [...all, value];
  command
    .option(
      '--from <source>',
      `import from another shortener: ${IMPORT_SOURCES.join(', ')} (local, with --account)`,
    )
    .option('--url <url>', '--from shlink, kutt (bitly: another API host): the API’s base URL')
    .option('--api-key <key>', '--from shlink, kutt: the API key (used for this run, never stored)')
    .option('--database <url>', '--from yourls: mysql://user:password@host:port/name')
    .option('--prefix <prefix>', '--from yourls: the tables’ prefix (default yourls_)')
    .option('--domain <host>', '--from yourls: the short domain of its links')
    .option('--on-conflict <how>', '--from: a code taken or refused here: skip (default) or rename')
    .option(
      '--domain-map <old=new>',
      '--from: links of the old host go to this short domain (repeat it)',
      collect,
      [],
    )
    .option(
      '--date-format <pattern>',
      '--from csv: how the file writes dates, e.g. DD.MM.YYYY HH:mm (YYYY MM DD HH mm ss; UTC)',
    )
    .option('--dry-run', '--from: report what would happen, write nothing')
    .option('--verbose', '--from: list the skipped rows too (by default only their count)');
}

/** `--domain-map old=new` flags as a map. */
function domainMapOf(pairs: readonly string[]): Record<string, string> {
  const map: Record<string, string> = {};
  for (const pair of pairs) {
    const [from, to, ...rest] = pair.split('=');
    if (!from || !to || rest.length > 0) throw usageError(`--domain-map takes old=new (got "${pair}")`);
    map[from.trim().toLowerCase()] = to.trim();
  }
  return map;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The question Ctrl-C asks on a terminal (decisions §25). */
export const CANCEL_QUESTION = 'Cancel the import? what was imported stays [y/N] ';

/** The exit code of an import cancelled by Ctrl-C (128 + SIGINT, as the shell's). */
const CANCELLED_EXIT = 130;

/** A row not imported, as it was: `skipped old: reason`, `renamed old → new: reason`, `refused old: reason`. */
function notImportedText(line: ImportReportLine): string {
  const target = line.outcome === 'renamed' ? ` → ${line.shortUrl ?? ''}` : '';
  return `${line.outcome.padEnd(8)} ${line.originalShortUrl}${target}${line.reason === null ? '' : `: ${line.reason}`}`;
}

/**
 * The rows printed after the counts: renamed and refused ones always (a new address to hand on, a link
 * that did not come), skipped ones only with `--verbose`, as a re-run skips every row it imported before.
 */
function listedRows(notImported: readonly ImportReportLine[], verbose: boolean): string[] {
  const listed = notImported.filter((line) => verbose || line.outcome !== 'skipped');
  const hidden = notImported.length - listed.length;
  const rows = hidden === 1 ? '1 skipped row' : `${hidden} skipped rows`;
  const hint = hidden === 0 ? [] : [`(${rows} not listed: --verbose lists them)`];
  return [...listed.map(notImportedText), ...hint];
}

/** A note as counted: without the row's number and the value quoted (`created "…" not read, …`). */
const noticeKind = (note: string): string =>
  note.replace(/^row \d+: /, '').replace(/ "(?:[^"\\]|\\.)*"/g, '');

/** The imported rows that carry a note (disabled at the source, a date not read: decisions §25). */
const noted = (lines: readonly ImportReportLine[]): ImportReportLine[] =>
  lines.filter((line) => line.outcome === 'imported' && line.reason !== null);

/**
 * The notices of the rows that came, each counted once by kind (`3 rows: password at the source: set one
 * and enable it`), then where to see the rows: listed with `--verbose`, and in the job's report.
 */
function noticeLines(lines: readonly ImportReportLine[], verbose: boolean): string[] {
  const rows = noted(lines);
  if (rows.length === 0) return [];
  const counts = new Map<string, number>();
  for (const line of rows) {
    for (const note of new Set((line.reason ?? '').split('; ').map(noticeKind))) {
      counts.set(note, (counts.get(note) ?? 0) + 1);
    }
  }
  const counted = [...counts].map(([note, n]) => `notice   ${n === 1 ? '1 row' : `${n} rows`}: ${note}`);
  if (verbose)
    return [...counted, ...rows.map((line) => `noted    ${line.originalShortUrl}: ${line.reason ?? ''}`)];
  return [...counted, '(the rows with a notice: --verbose lists them, --json and the import report too)'];
}

/**
 * Ctrl-C during an import (decisions §25): on a terminal it asks {@link CANCEL_QUESTION} and cancels on
 * yes (a second Ctrl-C while asking is a yes); without a terminal it cancels at once. The import stops
 * at its next chunk, what was imported stays.
 */
function cancelOnInterrupt(io: CliIo, progress: ReturnType<typeof progressOf>) {
  const controller = new AbortController();
  // a question left unanswered when the import ends is withdrawn
  const asking = new AbortController();
  const cancel = () => {
    controller.abort();
    undo?.(); // a further Ctrl-C ends the process as usual
  };
  let asked = false;
  const undo = io.interrupts?.(() => {
    if (io.ask === undefined || asked) return cancel();
    asked = true;
    progress.hold(true);
    io.stderr.write('\n');
    io.ask(CANCEL_QUESTION, asking.signal)
      .then((answer) => (/^y(es)?$/i.test(answer.trim()) ? cancel() : undefined))
      .catch(() => undefined)
      .finally(() => {
        asked = false;
        progress.hold(false);
      });
  });
  return {
    signal: controller.signal,
    end: () => {
      asking.abort();
      undo?.();
    },
  };
}

/**
 * `shortener import --from SOURCE [FILE] --account NAME`: the import run here to its end, the counts as it
 * goes, then the summary with the rows renamed or refused (skipped ones too with `--verbose`; `--json`
 * gives every row not imported), and the notices of rows that came (counted; listed with `--verbose`).
 * The same command again goes on with an unfinished job of the same import; Ctrl-C cancels it (after
 * asking, on a terminal). Fails (1) when the job failed, 130 when cancelled.
 */
export async function importFrom({ client, args, options, out, io }: ClientRun): Promise<void> {
  const source = String(options.from) as ImportSourceName;
  if (!IMPORT_SOURCES.includes(source)) {
    throw usageError(`--from must be one of ${IMPORT_SOURCES.join(', ')} (got "${source}")`);
  }
  if (client.importFrom === undefined) {
    throw usageError('--from runs on the local database: leave out --server (or use POST /api/v1/imports)');
  }
  const onConflict = options.onConflict ?? 'skip';
  if (onConflict !== 'skip' && onConflict !== 'rename') {
    throw usageError(`--on-conflict must be skip or rename (got "${String(onConflict)}")`);
  }
  const dateFormat = text(options.dateFormat);
  if (dateFormat !== null && dateReaderOf(dateFormat) === null) {
    throw usageError(
      `--date-format takes YYYY, MM and DD (HH, mm, ss if wanted) between separators (got "${dateFormat}")`,
    );
  }
  const file = source === 'csv' ? await readInput(io, args[0] ?? '-') : null;
  const progress = progressOf(io.stderr, out.json);
  const interrupt = cancelOnInterrupt(io, progress);
  const done = unwrap(
    await client
      .importFrom(
        {
          source,
          file,
          fileName: file === null || args[0] === undefined || args[0] === '-' ? null : basename(args[0]),
          url: text(options.url),
          secret: source === 'bitly' ? text(options.token) : text(options.apiKey),
          database: text(options.database),
          prefix: text(options.prefix),
          domain: text(options.domain),
          onConflict,
          domainMap: domainMapOf((options.domainMap as string[] | undefined) ?? []),
          dryRun: options.dryRun === true,
          dateFormat,
        },
        progress.show,
        interrupt.signal,
      )
      .finally(interrupt.end),
  );
  progress.end(done.job);
  const notImported = done.lines.filter((line) => line.outcome !== 'imported');
  const view = toImportJobView(done.job, '');
  const { report_url: _, ...summary } = view;
  const heading = `${done.job.options.dryRun ? 'Dry run, nothing written. ' : ''}${countsLine(done.job)}`;
  const rows = notImported.map(importReportRow);
  const verbose = options.verbose === true;
  const listed = [...listedRows(notImported, verbose), ...noticeLines(done.lines, verbose)];
  const notices = noted(done.lines).map(importReportRow);
  out.print({ ...summary, not_imported: rows, notices }, [heading, ...listed].join('\n'));
  if (done.job.state === 'failed') throw new CliError(`The import failed: ${done.job.errors.join('; ')}`, 1);
  if (done.job.state === 'cancelled') {
    throw new CliError('The import was cancelled: what was imported stays.', CANCELLED_EXIT);
  }
}
