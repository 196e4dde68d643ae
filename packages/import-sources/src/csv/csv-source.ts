/**
 * The `csv` import source (decisions §17): a file with a header row, such as Shlink's, Dub's and Bitly's link
 * exports or YOURLS's export plugin (`source,target,hits`), or our own links CSV. It reads the destination, the
 * old short link (or its code and domain), the title, tags, creation time and a click total, and every setting
 * of our own CSV (decisions §25), by the headers in `CSV_ALIASES`; cells lose the `'` guarding a formula;
 * every other column (an export's IDs, leads, revenue, archive flags) is never read. A row it cannot read
 * (no destination, a bad count) carries a `problem`; a creation date it cannot read is left out and noted
 * (decisions §25), read in the job's `dateFormat` when it names one, else as ISO 8601; a file without a
 * destination column throws.
 *
 * Cursor: the data row's number, from 1 (the row after the header).
 */
import { dateReaderOf, restoreCell } from '@shortener/core';
import type { DateReader, ImportRow, ImportSource, ImportStep } from '@shortener/core';
import { parse } from 'csv-parse';
import { parseInstant, unreadDateNote } from '../dates.js';
import { bareCode, joinShortUrl, splitShortUrl } from '../short-url.js';
import type { CsvColumns } from './columns.js';
import { findColumns } from './columns.js';
import { readSettings } from './settings-cells.js';
import type { Mutable } from './settings-cells.js';

/** `;` when the header line has more of them than `,` (a spreadsheet in a comma-decimal locale), else `,`. */
export function detectDelimiter(text: string): ',' | ';' {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const count = (char: string) => firstLine.split(char).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/** Tags as one cell holds them: split on `,` when it has one, else on `|` (Shlink's export). */
export function splitTags(cell: string): string[] {
  const separator = cell.includes(',') ? ',' : '|';
  return cell
    .split(separator)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** A click total: digits, maybe grouped (`1,234`, `1 234`); null when it is not one. */
function parseCount(cell: string): number | null {
  if (!/^(\d+|\d{1,3}([,. '\u00a0]\d{3})+)$/.test(cell)) return null;
  const total = Number(cell.replace(/\D/g, ''));
  return Number.isSafeInteger(total) ? total : null;
}

type ShortLink = Pick<ImportRow, 'originalShortUrl' | 'domain' | 'code'>;

/**
 * The old short link of a row: the link column, else the code (with the domain column), else none; with
 * a custom back-half (Bitly's `Custom link`), the back-half is the code, on its own host when it names one,
 * the row still keyed by its link.
 */
function shortLinkOf(cell: (field: keyof CsvColumns) => string): ShortLink {
  const short = plainShortLinkOf(cell);
  const custom = cell('customLink');
  if (custom === '') return short;
  const parts = splitShortUrl(custom);
  if (parts.code === null) return short;
  return {
    originalShortUrl: short.originalShortUrl || parts.originalShortUrl,
    domain: parts.domain ?? short.domain,
    code: parts.code,
  };
}

/** The old short link of a row: the link column, else the code (with the domain column), else none. */
function plainShortLinkOf(cell: (field: keyof CsvColumns) => string): ShortLink {
  const domain = cell('domain').toLowerCase() || null;
  const code = bareCode(cell('code'));
  const link = cell('shortUrl');
  if (link !== '') {
    const parts = splitShortUrl(link);
    return {
      originalShortUrl: parts.originalShortUrl,
      domain: domain ?? parts.domain,
      code: code ?? parts.code,
    };
  }
  if (code !== null) return { originalShortUrl: joinShortUrl(domain, code), domain, code };
  return { originalShortUrl: '', domain, code: null };
}

/** How a file's dates are read: the pattern's reader first when there is one, else ISO 8601. */
export function csvDateReader(dateFormat: string | null | undefined): DateReader {
  const pattern = dateFormat === null || dateFormat === undefined ? null : dateReaderOf(dateFormat);
  if (dateFormat !== null && dateFormat !== undefined && pattern === null) {
    throw new Error(`CSV: ${JSON.stringify(dateFormat)} is not a date pattern (DD.MM.YYYY HH:mm)`);
  }
  return pattern === null ? parseInstant : (text) => pattern(text) ?? parseInstant(text);
}

/**
 * One data row (`number`, from 1 after the header) as the importer takes it; what cannot be read goes
 * into `problem`, a creation date that cannot be read into `notes` (the row comes without it).
 */
export function readCsvRow(
  record: readonly string[],
  columns: CsvColumns,
  number = 1,
  readDate: DateReader = parseInstant,
): ImportRow {
  const cell = (field: keyof CsvColumns): string => {
    const index = columns[field];
    return index === undefined ? '' : (record[index] ?? '').trim();
  };
  const problems: string[] = [];
  const url = cell('destination');
  if (url === '') problems.push('no destination');
  const row: Mutable<ImportRow> = { ...shortLinkOf(cell), url };
  if (columns.title !== undefined) row.title = cell('title') || null;
  if (columns.tags !== undefined) row.tags = splitTags(cell('tags'));
  const created = cell('created');
  const createdAt = created === '' ? null : readDate(created);
  if (createdAt !== null) row.createdAt = createdAt;
  else if (created !== '') row.notes = [`row ${number}: ${unreadDateNote('created', created)}`];
  const clicks = cell('clicks');
  if (clicks !== '') {
    const total = parseCount(clicks);
    if (total === null) problems.push(`bad click count ${JSON.stringify(clicks)}`);
    else row.totalClicks = total;
  }
  readSettings(cell, row, problems);
  if (problems.length > 0) row.problem = problems.join('; ');
  return row;
}

/**
 * Characters parsed at a time: a 100,000-row file parsed at once holds its process for over a second,
 * a slice for a few milliseconds. Slices are parsed as rows are asked for, so the runner's pace between
 * chunks (core's pacer) is the parse's too; no slice waits for I/O, so a chunk's time is the import's own.
 */
const SLICE_CHARS = 16 * 1024;

/** The text in slices of {@link SLICE_CHARS}. */
function* slices(text: string): Iterable<string> {
  for (let at = 0; at < text.length; at += SLICE_CHARS) yield text.slice(at, at + SLICE_CHARS);
}

/** The file's records, read a slice at a time, each cell without the `'` a CSV we wrote guards it with; a file that cannot be cut into records (a quote never closed) throws, named. */
async function* records(text: string): AsyncIterable<string[]> {
  const parser = parse({
    delimiter: detectDelimiter(text),
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
  });
  const feeding = (async () => {
    for (const slice of slices(text)) {
      if (!parser.write(slice)) await new Promise((resolve) => parser.once('drain', resolve));
    }
    parser.end();
  })();
  // a parse error ends the reading below; the feeding is then left without a reader
  feeding.catch(() => {});
  try {
    for await (const record of parser) yield (record as string[]).map(restoreCell);
    await feeding;
  } catch (error) {
    throw new Error(
      `CSV: the file cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    parser.destroy();
  }
}

const isBlank = (record: readonly string[]): boolean => record.every((value) => value.trim() === '');

/**
 * The rows a file has, as the job counts them (every record after the header but blank ones): read once
 * before the rows, so the job's total is known from its first chunk on (a tenth of the import's time).
 */
async function countRows(text: string): Promise<number> {
  let rows = -1;
  for await (const record of records(text)) if (rows < 0 || !isBlank(record)) rows += 1;
  return Math.max(0, rows);
}

/**
 * A CSV file's links, its dates read in `dateFormat` (else ISO 8601); throws at the first `rows()` step
 * when the file has no destination column, or when `dateFormat` is not a pattern.
 */
export function csvSource(text: string, dateFormat: string | null = null): ImportSource {
  return {
    name: 'csv',
    async *rows(cursor: string | null): AsyncIterable<ImportStep> {
      const after = cursor === null ? 0 : Number(cursor);
      if (!Number.isSafeInteger(after) || after < 0) {
        throw new Error(`CSV: ${JSON.stringify(cursor)} is not a cursor of this source`);
      }
      const readDate = csvDateReader(dateFormat);
      const total = { rows: await countRows(text), estimated: false };
      let columns: CsvColumns | null = null;
      let number = 0;
      for await (const record of records(text)) {
        if (columns === null) {
          columns = findColumns(record);
          continue;
        }
        number += 1;
        if (number <= after || isBlank(record)) continue;
        yield { row: readCsvRow(record, columns, number, readDate), cursor: String(number), total };
      }
      if (columns === null) findColumns([]);
    },
  };
}
