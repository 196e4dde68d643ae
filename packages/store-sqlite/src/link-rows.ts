import { UNKNOWN_HEALTH, isChangeableLinkField } from '@shortener/core';
import type { LinkChanges, LinkRecord, UnlistedLinkFields } from '@shortener/core';
import { clicksOf, lastClickOf } from './migrations/033-link-clicks.js';

/** How a field is kept in its column: what is written, and what is read back. */
const CODECS = {
  text: { write: (value: unknown) => value ?? null, read: (value: unknown) => value },
  integer: { write: (value: unknown) => value ?? null, read: (value: unknown) => value },
  /** A count that is 0 when absent (a snapshot written before its column). */
  count: { write: (value: unknown) => value ?? 0, read: (value: unknown) => value ?? 0 },
  boolean: { write: (value: unknown) => (value === true ? 1 : 0), read: (value: unknown) => value === 1 },
  /** A JSON array (tags). */
  list: {
    write: (value: unknown) => JSON.stringify(value ?? []),
    read: (value: unknown) => JSON.parse(value as string) as unknown,
  },
  /** A JSON value, or NULL for none (a link's preview, its split). */
  json: {
    write: (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value)),
    read: (value: unknown) =>
      value === null || value === undefined ? null : (JSON.parse(value as string) as unknown),
  },
  /** A JSON array, or NULL for none (rules: most links have none). */
  rules: {
    write: (value: unknown) => (Array.isArray(value) && value.length > 0 ? JSON.stringify(value) : null),
    read: (value: unknown) => (value === null ? [] : (JSON.parse(value as string) as unknown)),
  },
  /** A link's health as JSON (decisions §23), NULL while never checked (and in older snapshots). */
  health: {
    write: (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value)),
    read: (value: unknown) =>
      value === null || value === undefined ? UNKNOWN_HEALTH : (JSON.parse(value as string) as unknown),
  },
} satisfies Record<string, { write(value: unknown): unknown; read(value: unknown): unknown }>;

/**
 * The one map of a link record onto the `links` table: each column, the record field it holds and how.
 * The insert, the update, the row mapping, the event snapshots and the link triggers (link-triggers.ts)
 * are built from it: a new field is one line here plus the migration adding its column.
 */
export const LINK_MAP = [
  ['id', 'id', 'text'],
  ['domain', 'domain', 'text'],
  ['slug', 'slug', 'text'],
  ['url', 'url', 'text'],
  ['title', 'title', 'text'],
  ['password_hash', 'passwordHash', 'text'],
  ['public_stats', 'publicStats', 'boolean'],
  ['expires_at', 'expiresAt', 'integer'],
  ['max_clicks', 'maxClicks', 'integer'],
  ['clicks', 'clicks', 'integer'],
  ['imported_clicks', 'importedClicks', 'count'],
  ['last_click_at', 'lastClickAt', 'integer'],
  ['disabled', 'disabled', 'boolean'],
  ['account_id', 'accountId', 'text'],
  ['edit_token_hash', 'editTokenHash', 'text'],
  ['created_at', 'createdAt', 'integer'],
  ['updated_at', 'updatedAt', 'integer'],
  ['tags', 'tags', 'list'],
  ['rules', 'rules', 'rules'],
  ['forward_query', 'forwardQuery', 'boolean'],
  ['redirect_status', 'redirectStatus', 'integer'],
  ['crawlable', 'crawlable', 'boolean'],
  ['expired_url', 'expiredUrl', 'text'],
  ['preview', 'preview', 'json'],
  ['split', 'split', 'json'],
  ['starts_at', 'startsAt', 'integer'],
  ['created_by', 'createdBy', 'text'],
  ['updated_by', 'updatedBy', 'text'],
  ['health', 'health', 'health'],
] as const satisfies readonly (readonly [string, keyof LinkRecord, keyof typeof CODECS])[];

// every field of a link has its column: a new field fails to compile here, named, until it is given one
({}) satisfies Record<UnlistedLinkFields<(typeof LINK_MAP)[number][1]>, never>;

/** A column of `links`. */
export type LinkColumn = (typeof LINK_MAP)[number][0];

/** A row of the `links` table as better-sqlite3 returns it (and as an event snapshot holds it). */
export type LinkRow = { readonly [C in LinkColumn]: string | number | null };

/** The columns of `links`, in order. */
export const LINK_COLUMNS: readonly LinkColumn[] = LINK_MAP.map(([column]) => column);

/** The columns SQLite keeps as 0/1 for a boolean field (`shortener migrate` makes them booleans again). */
export const LINK_BOOLEAN_COLUMNS: readonly LinkColumn[] = LINK_MAP.filter(
  ([, , codec]) => codec === 'boolean',
).map(([column]) => column);

/** The columns an update may write (core's changeable fields), in order. */
export const CHANGEABLE_COLUMNS: readonly LinkColumn[] = LINK_MAP.filter(([, field]) =>
  isChangeableLinkField(field),
).map(([column]) => column);

/**
 * The columns whose change is a change of the link (not its clicks, not its health: a check sends its
 * own event, decisions §23): the link triggers fire on them.
 */
export const LINK_CHANGE_COLUMNS: readonly LinkColumn[] = LINK_COLUMNS.filter(
  (column) => column !== 'clicks' && column !== 'last_click_at' && column !== 'health',
);

/**
 * A `json_object` of the link as it is (`NEW`) or was (`OLD`), keyed by column as {@link LinkRow}:
 * the payload of a link event. `clicks` and `last_click_at` may be given as expressions (the visit
 * log's unfolded tail, migration 013).
 */
export function linkSnapshot(
  row: 'NEW' | 'OLD',
  expressions: Partial<Record<LinkColumn, string>> = {},
): string {
  const pairs = LINK_COLUMNS.map((column) => `'${column}', ${expressions[column] ?? `${row}.${column}`}`);
  return `json_object(${pairs.join(', ')})`;
}

/**
 * A {@link LinkRow} as read: the columns of `links`, `clicks` and `last_click_at` with the folded ones
 * kept apart (migration 033) and the visit log's unfolded tail (migration 012), for a SELECT or a
 * RETURNING clause.
 */
export const LINK_READ = LINK_COLUMNS.map((column) => {
  if (column === 'clicks') return `${clicksOf('links')} AS clicks`;
  if (column === 'last_click_at') return `${lastClickOf('links')} AS last_click_at`;
  return `links.${column}`;
}).join(', ');

/**
 * {@link LINK_READ} for the redirect: the folded clicks and the unfolded tail are added to a capped link
 * only, whose `clicks` decide (a CASE evaluates its branch alone); an uncapped link costs no look-up in
 * `link_clicks` or the log, and its `clicks` and `last_click_at` are its row's alone (the port allows
 * it: nothing the redirect answers shows them). At 1M links with a 50,000-entry log: 15.3 -> 12.9 µs a
 * look-up.
 */
export const LINK_READ_FOR_REDIRECT = LINK_COLUMNS.map((column) => {
  if (column === 'clicks')
    return `CASE WHEN links.max_clicks IS NULL THEN links.clicks ELSE ${clicksOf('links')} END AS clicks`;
  if (column === 'last_click_at')
    return `CASE WHEN links.max_clicks IS NULL THEN links.last_click_at ELSE ${lastClickOf('links')} END AS last_click_at`;
  return `links.${column}`;
}).join(', ');

/** A row read in raw mode (`Statement.raw()`): the values of {@link LINK_COLUMNS}, in order. */
export type LinkValues = readonly (string | number | null)[];

/**
 * Turns a raw row into a record: one object literal, made from {@link LINK_MAP} once. better-sqlite3
 * builds a named row 3 µs slower than an array, and a record set field by field in a loop costs 1.7 µs
 * more than a literal (a cold redirect at 100,000 links: 12.9 µs a look-up, 7.1 µs so).
 */
export const toLinkRecordFromValues = new Function(
  'codecs',
  'v',
  `return { ${LINK_MAP.map(([, field, codec], i) => `${field}: codecs.${codec}.read(v[${i}])`).join(', ')} };`,
).bind(null, CODECS) as (values: LinkValues) => LinkRecord;

/** Turns a row (or an event snapshot) into a record. */
export function toLinkRecord(row: LinkRow): LinkRecord {
  const record: Record<string, unknown> = {};
  for (const [column, field, codec] of LINK_MAP) record[field] = CODECS[codec].read(row[column]);
  return record as unknown as LinkRecord;
}

/** Turns a record into a row (the insert parameters); the domain is stored lower-case, the slug as given. */
export function toLinkRow(link: LinkRecord): LinkRow {
  const row: Record<string, unknown> = {};
  for (const [column, field, codec] of LINK_MAP) row[column] = CODECS[codec].write(link[field]);
  row.domain = link.domain.toLowerCase();
  return row as LinkRow;
}

/**
 * Turns changes into the update statement's parameters: each changeable column's value and its
 * `set_` flag (0 keeps the column as it is, for a field the changes leave out).
 */
export function toChangeParams(id: string, changes: LinkChanges): Record<string, string | number | null> {
  const params: Record<string, unknown> = { id, updated_at: changes.updatedAt };
  for (const [column, field, codec] of LINK_MAP) {
    if (!isChangeableLinkField(field)) continue;
    const value = changes[field];
    params[`set_${column}`] = value === undefined ? 0 : 1;
    params[column] = value === undefined ? null : CODECS[codec].write(value);
  }
  return params as Record<string, string | number | null>;
}
