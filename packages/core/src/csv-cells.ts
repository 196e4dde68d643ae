// Every CSV file we write (the link list, exports, statistics, import reports) is made here, by one
// function, as decisions §25 "CSV out" says. The encoding is ours rather than a library's: RFC 4180 is a
// few lines, and csv-stringify, given CRLF as its record delimiter, stops quoting a cell holding a bare LF
// or CR, which let a title's line break start a row of its own (issue 60).

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
 * The cells of a CSV file of `rows` under `columns`, the header row first: null and absent values are
 * empty cells, booleans `true`/`false`, every cell neutralised against formula injection.
 */
export function csvCells(columns: readonly string[], rows: readonly Record<string, unknown>[]): string[][] {
  const cell = (value: unknown): string =>
    value === null || value === undefined ? '' : neutraliseCell(String(value));
  return [[...columns], ...rows.map((row) => columns.map((column) => cell(row[column])))];
}

/** A cell as RFC 4180 writes it: in quotes (its quotes doubled) when it holds a comma, quote, CR or LF. */
const encodeCell = (cell: string): string =>
  /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;

/**
 * The text of a CSV file (decisions §25): the header row of `columns`, then one row per record of
 * `rows`, cells as {@link csvCells} makes them, each quoted when it holds a comma, a quote, a CR or an
 * LF, and every row ended by CRLF (RFC 4180).
 */
export function csvText(columns: readonly string[], rows: readonly Record<string, unknown>[]): string {
  return csvCells(columns, rows)
    .map((row) => `${row.map(encodeCell).join(',')}\r\n`)
    .join('');
}
