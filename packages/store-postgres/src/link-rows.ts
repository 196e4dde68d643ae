import { UNKNOWN_HEALTH, isChangeableLinkField, tagKeysOf } from '@shortener/core';
import type { LinkChanges, LinkRecord, UnlistedLinkFields } from '@shortener/core';

/** Each column of `links` with the record field it holds and its type (for `unnest` inserts). */
export const LINK_COLUMNS = [
  ['id', 'id', 'text'],
  ['domain', 'domain', 'text'],
  ['slug', 'slug', 'text'],
  ['url', 'url', 'text'],
  ['title', 'title', 'text'],
  ['password_hash', 'passwordHash', 'text'],
  ['public_stats', 'publicStats', 'boolean'],
  ['expires_at', 'expiresAt', 'bigint'],
  ['max_clicks', 'maxClicks', 'bigint'],
  ['clicks', 'clicks', 'bigint'],
  ['imported_clicks', 'importedClicks', 'bigint'],
  ['last_click_at', 'lastClickAt', 'bigint'],
  ['disabled', 'disabled', 'boolean'],
  ['account_id', 'accountId', 'text'],
  ['edit_token_hash', 'editTokenHash', 'text'],
  ['created_at', 'createdAt', 'bigint'],
  ['updated_at', 'updatedAt', 'bigint'],
  ['tags', 'tags', 'jsonb'],
  ['rules', 'rules', 'jsonb'],
  ['forward_query', 'forwardQuery', 'boolean'],
  ['redirect_status', 'redirectStatus', 'integer'],
  ['crawlable', 'crawlable', 'boolean'],
  ['expired_url', 'expiredUrl', 'text'],
  ['preview', 'preview', 'jsonb'],
  ['split', 'split', 'jsonb'],
  ['starts_at', 'startsAt', 'bigint'],
  ['created_by', 'createdBy', 'text'],
  ['updated_by', 'updatedBy', 'text'],
  ['health', 'health', 'jsonb'],
] as const satisfies readonly (readonly [string, keyof LinkRecord, string])[];

// every field of a link has its column: a new field fails to compile here, named, until it is given one
({}) satisfies Record<UnlistedLinkFields<(typeof LINK_COLUMNS)[number][1]>, never>;

/**
 * One statement inserts a batch of links (parameters: {@link linkInsertValues}): a taken (domain, slug)
 * skips its row, which RETURNING leaves out (slug_taken); a duplicate id fails the statement (a bug). A
 * link of an account that is not there (a team deleted meanwhile) is skipped too: the owners' rows are
 * locked (FOR KEY SHARE) until the insert commits, so a deletion either waits for the link, which its
 * last sweep then finds, or goes first, and the link is not written.
 */
export const LINK_INSERT = `WITH owners AS (
    SELECT id FROM accounts
    WHERE id = ANY($${LINK_COLUMNS.findIndex(([column]) => column === 'account_id') + 1}::text[]) FOR KEY SHARE)
  INSERT INTO links (${LINK_COLUMNS.map(([column]) => column).join(', ')}, tag_keys)
  SELECT * FROM unnest(${LINK_COLUMNS.map(([, , type], i) => `$${i + 1}::${type}[]`).join(', ')},
    $${LINK_COLUMNS.length + 1}::jsonb[]) AS l(${LINK_COLUMNS.map(([column]) => column).join(', ')}, tag_keys)
  WHERE l.account_id IS NULL OR l.account_id IN (SELECT id FROM owners)
  ON CONFLICT (domain, slug) DO NOTHING RETURNING id`;

/** The parameters of {@link LINK_INSERT}: one array per column, the tags' keys last (migration 19). */
export const linkInsertValues = (links: readonly LinkRecord[]): unknown[][] => [
  ...LINK_COLUMNS.map(([, field]) => links.map((link) => columnValue(link, field))),
  links.map((link) => tagKeysValue(link.tags)),
];

/** The `tag_keys` of tags (migration 19): core's keys, as JSON text. */
export const tagKeysValue = (tags: readonly string[]): string => JSON.stringify(tagKeysOf(tags));

/** The select list that reads a row of `links` as a {@link LinkRecord} (no rules: an empty list). */
export const LINK_FIELDS = selectList(
  LINK_COLUMNS.map(([column, field]) => [
    column === 'rules'
      ? `COALESCE(rules, '[]'::jsonb)`
      : column === 'health'
        ? `COALESCE(health, '${JSON.stringify(UNKNOWN_HEALTH)}'::jsonb)`
        : column,
    field,
  ]),
);

/**
 * A field's value as a query parameter: JSON text for the JSONB columns (pg would send an array as a
 * PostgreSQL array), no rules as NULL, no preview or split as NULL.
 */
export function columnValue(link: Partial<LinkRecord>, field: keyof LinkRecord): unknown {
  const value = link[field];
  if (field === 'rules') return Array.isArray(value) && value.length > 0 ? JSON.stringify(value) : null;
  if (field === 'tags') return value === undefined ? undefined : JSON.stringify(value);
  if (field === 'preview' || field === 'split' || field === 'health')
    return value === undefined ? undefined : value === null ? null : JSON.stringify(value);
  return value;
}

/** A select list naming each column by its field: `pg` then returns records as they are. */
export function selectList(columns: readonly (readonly [column: string, field: string])[]): string {
  return columns.map(([column, field]) => (column === field ? column : `${column} AS "${field}"`)).join(', ');
}

/** The record as stored: the domain lower-case, the slug as given (decisions §25). */
export function normalised(link: LinkRecord): LinkRecord {
  return { ...link, domain: link.domain.toLowerCase() };
}

/**
 * The UPDATE of `changes` (only the fields given, plus `updated_at`) and its parameters; the link's id
 * is `$1`. Column names come from {@link LINK_COLUMNS}, never from the caller; fields an update may not
 * change are ignored, whatever a caller slips in.
 */
export function toUpdate(id: string, changes: LinkChanges): { text: string; values: unknown[] } {
  const values: unknown[] = [id, changes.updatedAt];
  const sets = ['updated_at = $2'];
  for (const [column, field] of LINK_COLUMNS) {
    if ((changes as Partial<LinkRecord>)[field] === undefined || !isChangeableLinkField(field)) continue;
    const value = columnValue(changes as Partial<LinkRecord>, field);
    values.push(value);
    sets.push(`${column} = $${values.length}`);
  }
  if (changes.tags !== undefined) {
    values.push(tagKeysValue(changes.tags));
    sets.push(`tag_keys = $${values.length}`);
  }
  return { text: `UPDATE links SET ${sets.join(', ')} WHERE id = $1 RETURNING ${LINK_FIELDS}`, values };
}

/** A LIKE pattern matching `q` anywhere, its own `%`, `_` and `\` taken literally; null for no filter. */
export function toLikePattern(q: string | undefined): string | null {
  if (q === undefined || q === '') return null;
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
