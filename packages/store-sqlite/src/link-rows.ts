import type { LinkChanges, LinkRecord, RedirectRule, RedirectStatus } from '@shortener/core';
import { clicksWithTail, lastClickWithTail } from './migrations/013-visit-log-epochs.js';

/** A row of the `links` table as better-sqlite3 returns it. */
export interface LinkRow {
  readonly id: string;
  readonly domain: string;
  readonly slug: string;
  readonly url: string;
  readonly title: string | null;
  readonly password_hash: string | null;
  readonly public_stats: number;
  readonly expires_at: number | null;
  readonly max_clicks: number | null;
  readonly clicks: number;
  readonly last_click_at: number | null;
  readonly disabled: number;
  readonly account_id: string | null;
  readonly edit_token_hash: string | null;
  readonly created_at: number;
  readonly updated_at: number;
  /** JSON array of strings. */
  readonly tags: string;
  /** JSON array of rules, or null for none. */
  readonly rules: string | null;
  readonly forward_query: number;
  readonly redirect_status: number | null;
  readonly crawlable: number;
}

// prettier-ignore
/** The columns of `links`, in order. */
export const LINK_COLUMNS = [
  'id', 'domain', 'slug', 'url', 'title', 'password_hash', 'public_stats', 'expires_at', 'max_clicks',
  'clicks', 'last_click_at', 'disabled', 'account_id', 'edit_token_hash', 'created_at', 'updated_at',
  'tags', 'rules', 'forward_query', 'redirect_status', 'crawlable',
] as const satisfies readonly (keyof LinkRow)[];

/**
 * A {@link LinkRow} as read: the columns of `links`, `clicks` and `last_click_at` with the visit log's
 * unfolded tail (migration 012), for a SELECT or a RETURNING clause.
 */
export const LINK_READ = LINK_COLUMNS.map((column) => {
  if (column === 'clicks') return `${clicksWithTail('links')} AS clicks`;
  if (column === 'last_click_at') return `${lastClickWithTail('links')} AS last_click_at`;
  return `links.${column}`;
}).join(', ');

/**
 * {@link LINK_READ} for the redirect: the unfolded tail is added to a capped link only, whose `clicks`
 * decide (a CASE evaluates its branch alone); an uncapped link costs no look-up in the log. At
 * 1M links with a 50,000-entry log: 15.3 -> 12.9 µs a look-up.
 */
export const LINK_READ_FOR_REDIRECT = LINK_COLUMNS.map((column) => {
  if (column === 'clicks')
    return `CASE WHEN links.max_clicks IS NULL THEN links.clicks ELSE ${clicksWithTail('links')} END AS clicks`;
  if (column === 'last_click_at')
    return `CASE WHEN links.max_clicks IS NULL THEN links.last_click_at ELSE ${lastClickWithTail('links')} END AS last_click_at`;
  return `links.${column}`;
}).join(', ');

/** Turns a row into a record. */
export function toLinkRecord(row: LinkRow): LinkRecord {
  return {
    id: row.id,
    domain: row.domain,
    slug: row.slug,
    url: row.url,
    title: row.title,
    passwordHash: row.password_hash,
    publicStats: row.public_stats === 1,
    expiresAt: row.expires_at,
    maxClicks: row.max_clicks,
    clicks: row.clicks,
    lastClickAt: row.last_click_at,
    disabled: row.disabled === 1,
    accountId: row.account_id,
    editTokenHash: row.edit_token_hash,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    tags: JSON.parse(row.tags) as string[],
    rules: row.rules === null ? [] : (JSON.parse(row.rules) as RedirectRule[]),
    forwardQuery: row.forward_query === 1,
    redirectStatus: row.redirect_status as RedirectStatus | null,
    crawlable: row.crawlable === 1,
  };
}

/** Turns a record into a row (the insert parameters); domain and slug are stored lower-case. */
export function toLinkRow(link: LinkRecord): LinkRow {
  return {
    id: link.id,
    domain: link.domain.toLowerCase(),
    slug: link.slug.toLowerCase(),
    url: link.url,
    title: link.title,
    password_hash: link.passwordHash,
    public_stats: link.publicStats ? 1 : 0,
    expires_at: link.expiresAt,
    max_clicks: link.maxClicks,
    clicks: link.clicks,
    last_click_at: link.lastClickAt,
    disabled: link.disabled ? 1 : 0,
    account_id: link.accountId,
    edit_token_hash: link.editTokenHash,
    created_at: link.createdAt,
    updated_at: link.updatedAt,
    tags: JSON.stringify(link.tags),
    rules: rulesColumn(link.rules),
    forward_query: link.forwardQuery ? 1 : 0,
    redirect_status: link.redirectStatus,
    crawlable: link.crawlable ? 1 : 0,
  };
}

/** The `rules` column: JSON, or null when there are none. */
const rulesColumn = (rules: readonly RedirectRule[]): string | null =>
  rules.length === 0 ? null : JSON.stringify(rules);

/** The columns `update` may write, by the record field that feeds them. */
export const CHANGEABLE_COLUMNS = {
  url: 'url',
  title: 'title',
  passwordHash: 'password_hash',
  publicStats: 'public_stats',
  expiresAt: 'expires_at',
  maxClicks: 'max_clicks',
  disabled: 'disabled',
  accountId: 'account_id',
  editTokenHash: 'edit_token_hash',
  tags: 'tags',
  rules: 'rules',
  forwardQuery: 'forward_query',
  redirectStatus: 'redirect_status',
  crawlable: 'crawlable',
} as const satisfies Record<Exclude<keyof LinkChanges, 'updatedAt'>, keyof LinkRow>;

/** Turns changes into the update statement's parameters: absent fields keep their column. */
export function toChangeParams(id: string, changes: LinkChanges): Record<string, string | number | null> {
  const params: Record<string, string | number | null> = { id, updated_at: changes.updatedAt };
  for (const [field, column] of Object.entries(CHANGEABLE_COLUMNS)) {
    const value: unknown = changes[field as keyof typeof CHANGEABLE_COLUMNS];
    params[`set_${column}`] = value === undefined ? 0 : 1;
    params[column] = field === 'tags' || field === 'rules' ? jsonValue(field, value) : toSqlValue(value);
  }
  return params;
}

function jsonValue(field: 'tags' | 'rules', value: unknown): string | null {
  if (!Array.isArray(value)) return field === 'tags' ? '[]' : null;
  return field === 'tags' ? JSON.stringify(value) : rulesColumn(value as RedirectRule[]);
}

function toSqlValue(value: unknown): string | number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string' || typeof value === 'number') return value;
  return null;
}
