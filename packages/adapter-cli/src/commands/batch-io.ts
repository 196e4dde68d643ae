import { readFile } from 'node:fs/promises';
import { UTM_FIELD_NAMES } from '@shortener/core';
import type { LinkView } from '@shortener/core';
import { CliError } from '../cli-io.js';
import type { CliIo } from '../cli-io.js';
import { numberOf } from './link-options.js';

/** The text of `file`, or of standard input for `-`. */
export async function readInput(io: CliIo, file: string): Promise<string> {
  if (file === '-') {
    let text = '';
    const decoder = new TextDecoder();
    for await (const chunk of io.stdin ?? [])
      text += typeof chunk === 'string' ? chunk : decoder.decode(chunk);
    return text;
  }
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(
      `cannot read ${file}: ${(error as { code?: string }).code ?? String(error)} (io_error)`,
      1,
    );
  }
}

/** Rows of RFC 4180 CSV: quoted cells may hold commas, quotes (`""`) and line breaks. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (quoted) {
      if (c !== '"') cell += c;
      else if (text[i + 1] === '"') cell += text[++i];
      else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      rows.push([...row, cell]);
      [row, cell] = [[], ''];
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) rows.push([...row, cell]);
  return rows;
}

/** The columns of `export --format csv`; `import` reads url, alias (or slug), domain, title and the settings. */
export const CSV_COLUMNS = [
  'url', 'alias', 'domain', 'title', 'expires_at', 'max_clicks', 'public_stats', 'has_password', 'status',
  'clicks', 'created_at', 'short_url', 'id',
] as const; // prettier-ignore

/** One link as a CSV line of {@link CSV_COLUMNS}. */
export function csvLine(link: LinkView): string {
  const values: Record<(typeof CSV_COLUMNS)[number], unknown> = { ...link, alias: link.slug };
  return CSV_COLUMNS.map((column) => csvCell(values[column])).join(',');
}

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record of an import file: its line (row) number and fields, or why it could not be read. */
export type ImportRecord =
  | { readonly line: number; readonly fields: Record<string, unknown> }
  | { readonly line: number; readonly invalid: string };

/** The records of an import file: JSON lines (what `export` writes), or CSV with a header row. */
export function importRecords(text: string, format: 'jsonl' | 'csv'): ImportRecord[] {
  if (format === 'csv') {
    const [header = [], ...rows] = parseCsv(text);
    const names = header.map((h) => h.trim().toLowerCase());
    return rows
      .map((cells, i) => ({
        line: i + 2,
        fields: Object.fromEntries(names.map((n, j) => [n, cells[j] ?? ''])),
      }))
      .filter((r) => Object.values(r.fields).some((v) => v !== ''));
  }
  return text.split(/\r?\n/).flatMap((line, i): ImportRecord[] => {
    if (line.trim() === '') return [];
    try {
      const fields: unknown = JSON.parse(line);
      if (typeof fields === 'object' && fields !== null && !Array.isArray(fields)) {
        return [{ line: i + 1, fields: fields as Record<string, unknown> }];
      }
    } catch {
      // reported below
    }
    return [{ line: i + 1, invalid: 'This line is not a JSON object.' }];
  });
}

const TEXT_FIELDS = ['url', 'domain', 'title', 'expires_at', 'password', ...UTM_FIELD_NAMES] as const;

/** The creation fields of an imported record: CSV strings converted, empty cells left out, the rest ignored. */
export function creationFields(fields: Record<string, unknown>): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  const set = (name: string, value: unknown) => {
    if (value !== undefined && value !== '') raw[name] = value;
  };
  for (const name of TEXT_FIELDS) set(name, fields[name]);
  set('alias', fields.alias ?? fields.slug);
  set(
    'max_clicks',
    typeof fields.max_clicks === 'string' ? numberOf(fields.max_clicks || undefined) : fields.max_clicks,
  );
  set(
    'expires_in_days',
    typeof fields.expires_in_days === 'string'
      ? numberOf(fields.expires_in_days || undefined)
      : fields.expires_in_days,
  );
  set(
    'public_stats',
    typeof fields.public_stats === 'string' ? booleanOf(fields.public_stats) : fields.public_stats,
  );
  return raw;
}

function booleanOf(text: string): boolean | string | undefined {
  const t = text.trim().toLowerCase();
  return t === ''
    ? undefined
    : ['true', '1', 'yes'].includes(t)
      ? true
      : ['false', '0', 'no'].includes(t)
        ? false
        : text;
}

/** What an import cannot carry over, as notes for its line. */
export function importNotes(fields: Record<string, unknown>): string[] {
  const notes: string[] = [];
  const yes = (v: unknown) => v === true || v === 'true';
  if (yes(fields.has_password) && !fields.password)
    notes.push('its password was not exported: set a new one with `links update --password`');
  if (fields.status === 'disabled') notes.push('it was disabled: it is imported enabled');
  return notes;
}
