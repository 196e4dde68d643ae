import { CSV_TAG_SEPARATOR, LINK_CSV_JSON_COLUMNS, UTM_FIELD_NAMES, domainError } from '@shortener/core';
import type { DomainError } from '@shortener/core';
import { numberOf } from './link-options.js';

/** Whether a record is a lossless export line (a local `export`), which import writes back as it was. */
export function isExportedLink(fields: Record<string, unknown>): boolean {
  return 'password_hash' in fields && 'edit_token_hash' in fields;
}

const NUMBERS = ['clicks', 'imported_clicks', 'max_clicks', 'redirect_status', 'health_failures'] as const;
const BOOLEANS = ['public_stats', 'disabled', 'has_password', 'forward_query', 'crawlable'] as const;

/**
 * The fields of a lossless line as `ExportedLink` reads them: from CSV, empty cells are null, numbers
 * and booleans converted (text that is neither stays, for the schema to name); `alias` is the slug.
 */
export function exportedLinkFields(fields: Record<string, unknown>): Record<string, unknown> {
  const typed: Record<string, unknown> = { ...fields, slug: fields.slug ?? fields.alias };
  for (const [name, value] of Object.entries(typed)) {
    if (value === '') typed[name] = null;
  }
  for (const name of NUMBERS) {
    const value = typed[name];
    if (typeof value === 'string' && /^\d+$/.test(value.trim())) typed[name] = Number(value);
  }
  for (const name of BOOLEANS) {
    const value = typed[name];
    if (typeof value === 'string') typed[name] = booleanOf(value);
  }
  // empty cells mean no tags, rules, split, preview or health, which the lists say by their absence
  const { tags: _tags, rules: _rules, split: _split, preview: _preview, health: _health, ...rest } = typed;
  return { ...rest, ...listsOf(fields, LINK_CSV_JSON_COLUMNS) };
}

/** The JSON cells a new link is made with: not its health, which the checks here will find. */
const SETTING_JSON_COLUMNS = LINK_CSV_JSON_COLUMNS.filter((name) => name !== 'health');

/**
 * `tags` and the JSON cells of `columns` of a record: from CSV, tags joined by `,` (by spaces in
 * exports made before decisions §25), the others as JSON (text that is not JSON stays, for the schema
 * to refuse); absent or empty cells leave them out.
 */
function listsOf(
  fields: Record<string, unknown>,
  columns: readonly string[] = SETTING_JSON_COLUMNS,
): Record<string, unknown> {
  const lists: Record<string, unknown> = {};
  const { tags } = fields;
  if (typeof tags === 'string') {
    const separator = tags.includes(CSV_TAG_SEPARATOR) ? CSV_TAG_SEPARATOR : /\s+/;
    const list = tags.split(separator).map((tag) => tag.trim());
    if (tags.trim() !== '') lists.tags = list.filter((tag) => tag !== '');
  } else if (tags !== undefined && tags !== null) lists.tags = tags;
  for (const name of columns) {
    const value = fields[name];
    if (typeof value === 'string') {
      if (value.trim() !== '') lists[name] = jsonOrText(value);
    } else if (value !== undefined && value !== null) lists[name] = value;
  }
  return lists;
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Why a lossless line cannot be imported as it is written although it parses: a password the line
 * says the link has but whose hash it lacks would leave the destination open to anyone.
 */
export function exportedLinkFault(fields: Record<string, unknown>): DomainError | null {
  return fields.has_password === true && fields.password_hash === null
    ? domainError('invalid_request', 'has_password is true but password_hash is empty.', 'password_hash')
    : null;
}

const TEXT_FIELDS = [
  'url',
  'domain',
  'title',
  'expires_at',
  'starts_at',
  'expired_url',
  'password',
  ...UTM_FIELD_NAMES,
] as const;

/** The creation fields of an imported record: CSV strings converted, empty cells left out, the rest ignored. */
export function creationFields(fields: Record<string, unknown>): Record<string, unknown> {
  const raw: Record<string, unknown> = {};
  const set = (name: string, value: unknown) => {
    if (value !== undefined && value !== null && value !== '') raw[name] = value;
  };
  for (const name of TEXT_FIELDS) set(name, fields[name]);
  set('alias', fields.alias ?? fields.slug);
  for (const name of ['max_clicks', 'expires_in_days'] as const) {
    const value = fields[name];
    set(name, typeof value === 'string' ? numberOf(value || undefined) : value);
  }
  const publicStats = fields.public_stats;
  set('public_stats', typeof publicStats === 'string' ? booleanOf(publicStats) : publicStats);
  for (const name of ['forward_query', 'crawlable'] as const) {
    const value = fields[name];
    set(name, typeof value === 'string' ? booleanOf(value) : value);
  }
  const status = fields.redirect_status;
  set('redirect_status', typeof status === 'string' ? numberOf(status || undefined) : status);
  return { ...raw, ...listsOf(fields) };
}

const yes = (value: unknown) => value === true || (typeof value === 'string' && booleanOf(value) === true);

/**
 * Why a record must not become a new link: it would fail open. A password known only as a hash (or
 * not exported) would be dropped, leaving the destination open to anyone; a disabled link would come
 * back enabled. Import the lossless export locally, or give a `password`.
 */
export function creationFault(fields: Record<string, unknown>): DomainError | null {
  const hasPassword =
    yes(fields.has_password) || (typeof fields.password_hash === 'string' && fields.password_hash !== '');
  if (hasPassword && !fields.password) {
    const message =
      'Its password was not exported, or only as a hash, which only a local import can keep: import the lossless export locally, or give a password.';
    return domainError('invalid_request', message, 'password');
  }
  if (yes(fields.disabled) || fields.status === 'disabled') {
    const message = 'It is disabled and would come back enabled: import the lossless export locally.';
    return domainError('invalid_request', message, 'status');
  }
  return null;
}

/** What a new link made from an exported record does not carry over, as notes for its line. */
export function creationNotes(fields: Record<string, unknown>): string[] {
  return typeof fields.id === 'string' && typeof fields.created_at === 'string'
    ? [
        'a new link: its clicks, dates and edit token start afresh (a local import of a local export keeps them)',
      ]
    : [];
}

function booleanOf(text: string): boolean | string | null {
  const t = text.trim().toLowerCase();
  if (t === '') return null;
  if (['true', '1', 'yes'].includes(t)) return true;
  return ['false', '0', 'no'].includes(t) ? false : text;
}
