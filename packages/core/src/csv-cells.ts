// The cells of the CSV files the adapters write (the link list, statistics): the encoding itself is the
// adapters' (csv-stringify); what a cell holds, and its defence against formula injection, is here once.

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

/** The columns of a link list as CSV (`GET /api/v1/links?format=csv`, `export --format csv`). */
export const LINK_CSV_COLUMNS = [
  'url', 'alias', 'domain', 'title', 'expires_at', 'max_clicks', 'public_stats', 'has_password', 'status',
  'clicks', 'created_at', 'short_url', 'id', 'tags', 'rules', 'forward_query', 'redirect_status', 'crawlable',
  'split',
] as const; // prettier-ignore

/**
 * A Link object (or an exported link) as a CSV row: its slug under `alias`, which a CSV made by hand is
 * likelier to say; tags separated by spaces, rules and a split as JSON (empty when none).
 */
export function linkCsvRow(link: object): Record<string, unknown> {
  const { slug, tags, rules, split } = link as {
    slug?: unknown;
    tags?: unknown;
    rules?: unknown;
    split?: unknown;
  };
  return {
    ...link,
    alias: slug,
    tags: Array.isArray(tags) ? tags.join(' ') : tags,
    rules: Array.isArray(rules) && rules.length > 0 ? JSON.stringify(rules) : '',
    split: Array.isArray(split) ? JSON.stringify(split) : '',
  };
}
