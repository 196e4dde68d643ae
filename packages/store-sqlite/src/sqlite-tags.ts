import type { Database } from 'better-sqlite3';
import { tagKey } from '@shortener/core';
import { clicksOf } from './migrations/033-link-clicks.js';

/**
 * Gives the connection `tag_key(tag)`, core's `tagKey` (NFKC, trimmed, spaces collapsed, lower-cased):
 * SQLite's own `lower()` knows ASCII only. Tags are kept as spelled and compared by key (decisions §25).
 */
export function defineTagKey(db: Database): void {
  db.function('tag_key', { deterministic: true }, (tag: unknown) =>
    typeof tag === 'string' ? tagKey(tag) : null,
  );
}

/**
 * Tags on SQLite (decisions §15): a JSON array per link, as spelled. `@tags`, a JSON array of wanted
 * keys or null, keeps the links carrying a tag of every one of them.
 */
export const TAGS_FILTER = `(@tags IS NULL OR NOT EXISTS (
    SELECT 1 FROM json_each(@tags) AS wanted
    WHERE wanted.value NOT IN (SELECT tag_key(value) FROM json_each(links.tags))))`;

/** The tags of an account's links, one per key (its least spelling), with their links and clicks, by key. */
export const TAG_COUNTS = `SELECT min(tag.value) AS name, count(*) AS links, sum(${clicksOf('links')}) AS clicks
  FROM links, json_each(links.tags) AS tag
  WHERE links.account_id = ? GROUP BY tag_key(tag.value) ORDER BY tag_key(tag.value)`;

/** The `@tags` parameter of a listing: null for no filter. */
export const tagsParam = (tags: readonly string[] | undefined): string | null =>
  tags === undefined || tags.length === 0 ? null : JSON.stringify(tags);
