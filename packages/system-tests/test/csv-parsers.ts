import { execFileSync } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';

// Python's own csv module, reading the bytes as they are: text mode would turn CRLF and a lone CR into
// LF before the parser saw them (the csv module documents newline='' for this reason).
const PYTHON_READER =
  'import csv, io, json, sys\n' +
  'text = sys.stdin.buffer.read().decode("utf-8")\n' +
  'json.dump(list(csv.reader(io.StringIO(text, newline=""))), sys.stdout)\n';

/** The rows of a CSV text as Python's `csv` module reads them. */
export function pythonCsvRows(text: string): string[][] {
  const out = execFileSync('python3', ['-c', PYTHON_READER], { input: text, encoding: 'utf8' });
  return JSON.parse(out) as string[][];
}

/**
 * The rows of a CSV file we wrote, read by two parsers (csv-parse and Python's `csv`), which must read the
 * same rows and cells; and every row of the file must end with CRLF (decisions §25).
 */
export function readCsvTwice(text: string): string[][] {
  const rows = parse(text, { relax_column_count: true }) as string[][];
  expect(pythonCsvRows(text), 'Python’s csv reads what csv-parse reads').toEqual(rows);
  expect(text.endsWith('\r\n'), 'the last row ends with CRLF').toBe(true);
  // outside quoted cells, every line break is CRLF: with the quoted cells taken out, no bare CR or LF is left
  expect(text.replace(/"(?:[^"]|"")*"/g, '').replace(/\r\n/g, ''), 'line ends are CRLF').not.toMatch(
    /[\r\n]/,
  );
  return rows;
}
