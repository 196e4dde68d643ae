import { clicksWithTail } from './migrations/013-visit-log-epochs.js';

/**
 * Tags on SQLite (decisions §15): a JSON array per link. `@tags`, a JSON array of wanted tags or null,
 * keeps the links carrying every one of them.
 */
export const TAGS_FILTER = `(@tags IS NULL OR NOT EXISTS (
    SELECT 1 FROM json_each(@tags) AS wanted
    WHERE wanted.value NOT IN (SELECT value FROM json_each(links.tags))))`;

/** The tags of an account's links, by name, with how many links carry each and their clicks. */
export const TAG_COUNTS = `SELECT tag.value AS name, count(*) AS links, sum(${clicksWithTail('links')}) AS clicks
  FROM links, json_each(links.tags) AS tag
  WHERE links.account_id = ? GROUP BY tag.value ORDER BY tag.value`;

/** The `@tags` parameter of a listing: null for no filter. */
export const tagsParam = (tags: readonly string[] | undefined): string | null =>
  tags === undefined || tags.length === 0 ? null : JSON.stringify(tags);
