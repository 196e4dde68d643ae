import type { ImportRow } from '@shortener/core';
import { parseInstant } from '../dates.js';
import type { CsvColumns } from './columns.js';

/** A row being read, its fields set one by one. */
export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

type Defined<K extends keyof ImportRow> = Exclude<ImportRow[K], undefined>;

/** A cell of the row by field, trimmed; empty when the file has no such column. */
export type CellOf = (field: keyof CsvColumns) => string;

/** `true`/`false` as our CSV writes them (and `1`/`0`, `yes`/`no`); null when neither. */
function booleanOf(text: string): boolean | null {
  const t = text.toLowerCase();
  if (['true', '1', 'yes'].includes(t)) return true;
  return ['false', '0', 'no'].includes(t) ? false : null;
}

const INSTANTS = { expiresAt: 'expires_at', startsAt: 'starts_at' } as const;

const BOOLEANS = {
  publicStats: 'public_stats',
  forwardQuery: 'forward_query',
  crawlable: 'crawlable',
} as const;

/**
 * The settings of a row of our own links CSV (decisions §25) into `row`: the expiry and start, the cap, the flags,
 * the redirect status, the expired URL, and rules, a split and a preview as JSON, each only when its cell
 * is not empty; a cell that cannot be read is a problem of the row. A link that had a password, or was
 * disabled, is a problem too: imported as a new link it would be open to anyone.
 */
export function readSettings(cell: CellOf, row: Mutable<ImportRow>, problems: string[]): void {
  const bad = (column: string, text: string) => problems.push(`bad ${column} ${JSON.stringify(text)}`);
  for (const [field, column] of Object.entries(INSTANTS) as [keyof typeof INSTANTS, string][]) {
    const text = cell(field);
    if (text === '') continue;
    row[field] = parseInstant(text);
    if (row[field] === null) bad(column, text);
  }
  const cap = cell('maxClicks');
  if (cap !== '') {
    if (/^\d+$/.test(cap)) row.maxClicks = Number(cap);
    else bad('max_clicks', cap);
  }
  for (const [field, column] of Object.entries(BOOLEANS) as [keyof typeof BOOLEANS, string][]) {
    const text = cell(field);
    const value = booleanOf(text);
    if (value !== null) row[field] = value;
    else if (text !== '') bad(column, text);
  }
  const status = cell('redirectStatus');
  if (status !== '') {
    if (/^\d+$/.test(status)) row.redirectStatus = Number(status);
    else bad('redirect_status', status);
  }
  if (cell('expiredUrl') !== '') row.expiredUrl = cell('expiredUrl');
  // the shapes are the importer's to check, as a creation's are
  const json = (field: 'rules' | 'split' | 'preview'): unknown => {
    const text = cell(field);
    if (text === '') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return void bad(field, text);
    }
  };
  const [rules, split, preview] = [json('rules'), json('split'), json('preview')];
  if (rules !== undefined) row.rules = rules as Defined<'rules'>;
  if (split !== undefined) row.split = split as Defined<'split'>;
  if (preview !== undefined) row.preview = preview as Defined<'preview'>;
  if (booleanOf(cell('hasPassword')) === true)
    problems.push('password at the source: it would be open to anyone here; create it with a password');
  if (cell('status').toLowerCase() === 'disabled')
    problems.push('disabled at the source: it would be enabled here');
}
