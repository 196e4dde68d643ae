import { CsvError, parse } from 'csv-parse/sync';
import { restoreCell } from '@shortener/core';
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
 * file into one cell, so it stops the whole read. Cells come back as written before core's `csvText`
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
