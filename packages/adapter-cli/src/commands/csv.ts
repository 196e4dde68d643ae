import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CliError } from '../cli-io.js';

/** One row of a CSV file: the line it starts on and its cells, or why it could not be read. */
export type CsvRow =
  | { readonly line: number; readonly cells: readonly string[] }
  | { readonly line: number; readonly invalid: string };

const LINE_BREAK = /\r\n|\r|\n/g;
const breaksIn = (text: string): number => text.match(LINE_BREAK)?.length ?? 0;

/**
 * The rows of an RFC 4180 CSV text (an Excel UTF-8 byte order mark skipped; quoted cells may hold
 * commas, quotes and line breaks; blank lines skipped), each with the line it starts on. A row with
 * the wrong number of cells is an invalid row; a quote never closed would swallow the rest of the
 * file into one cell, so it stops the whole read. Cells come back as written before {@link writeCsv}
 * neutralised them.
 *
 * @throws CliError naming the line of a quote that is never closed, or of any other unreadable text.
 */
export function readCsv(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
  // csv-parse reports the line a record ends on (and counts a quoted CRLF twice): count from the raw text.
  let breaksBefore = 0;
  const startOf = (raw: string): number => {
    const line = 1 + breaksBefore + breaksIn(/^[\r\n]*/.exec(raw)?.[0] ?? '');
    breaksBefore += breaksIn(raw);
    return line;
  };
  try {
    parse(text, {
      bom: true,
      raw: true,
      relax_quotes: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      // With `raw`, csv-parse hands on_record the record and its raw text, which its typings miss.
      on_record: (value: unknown) => {
        const { raw, record } = value as { raw: string; record: string[] };
        rows.push({ line: startOf(raw), cells: record.map(restoreCell) });
        return null;
      },
      on_skip: (error: CsvError | undefined, raw?: string) => {
        const line = startOf(raw ?? '');
        if (error?.code === 'CSV_QUOTE_NOT_CLOSED') {
          throw new CliError(
            `line ${line}: a quote opened on this line is never closed; nothing was imported (invalid_request)`,
            1,
          );
        }
        rows.push({ line, invalid: error?.message.replace(/ on line \d+$/, '') ?? 'unreadable row' });
      },
    });
  } catch (error) {
    if (error instanceof CsvError) throw new CliError(`${error.message} (invalid_request)`, 1);
    throw error;
  }
  return rows;
}

// OWASP CSV injection: a cell starting with one of these is a formula to a spreadsheet.
const FORMULA = /^'*[=+\-@\t\r]/;

/**
 * A cell made safe for a spreadsheet: prefixed with `'` when it starts with `=`, `+`, `-`, `@`, a tab
 * or a carriage return, or with quotes followed by one of them, so that {@link restoreCell} can always
 * take exactly one `'` off again (a title `'=x` survives a round trip too).
 */
export function neutraliseCell(text: string): string {
  return FORMULA.test(text) ? `'${text}` : text;
}

/** A cell as it was before {@link neutraliseCell}. */
export function restoreCell(text: string): string {
  return text.startsWith("'") && FORMULA.test(text) ? text.slice(1) : text;
}

/**
 * A CSV text (header row, `\r\n` line ends) of `rows` under `columns`: null and absent values are
 * empty cells, booleans `true`/`false`, and every cell neutralised against formula injection.
 */
export function writeCsv(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  const cell = (value: unknown): string =>
    value === null || value === undefined ? '' : neutraliseCell(String(value));
  return stringify([columns, ...rows.map((row) => columns.map((column) => cell(row[column])))], {
    record_delimiter: 'windows',
  });
}
