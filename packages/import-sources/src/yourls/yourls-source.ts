/**
 * The `yourls` import source (decisions §17): the YOURLS database itself, read with mysql2.
 *
 * Reads `<prefix>url` for `keyword`, `url`, `title`, `timestamp` and `clicks`, and `<prefix>log` for
 * `click_time`, `referrer` (`direct` is none), `user_agent` and `country_code`, counted per `shorturl` and read
 * per link only when the importer asks for its visits. Every statement names its columns: the stored addresses
 * (`ip` of a link, `ip_address` of a click) are never selected, nor anything of `<prefix>options`.
 *
 * A link's history is its visits. When `clicks` is more than the log holds (YOURLS logs no click while its
 * logging is off, and a plugin may have purged the log), the difference is given as `totalClicks`, so that
 * the imported link keeps its count; a link whose log holds as many or more gives its visits only.
 *
 * Times: YOURLS writes UTC wall times without a zone (its PHP zone is UTC), so they are read as UTC.
 *
 * Cursor: the row's `keyword` (keyset pagination in the column's binary order).
 */
import { decodeHtmlEntities } from '@shortener/core';
import type { ImportRow, ImportSource, ImportStep, ImportedVisit } from '@shortener/core';
import type { RowDataPacket } from 'mysql2/promise';
import { parseInstant } from '../dates.js';
import { joinShortUrl } from '../short-url.js';
import type { Query } from './yourls-database.js';
import { connectionOptions, createSharedPool } from './yourls-database.js';

/** Which YOURLS database to read. */
export interface YourlsSourceOptions {
  /** `mysql://user:pass@host:port/name`. */
  readonly database: string;
  /** The tables' prefix, `yourls_` by default. */
  readonly prefix?: string;
  /** The host of the YOURLS links (`sho.rt`), or none: the rows then carry the bare keyword. */
  readonly domain?: string | null;
}

const LINKS_PER_PAGE = 500;
const VISITS_PER_PAGE = 2000;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The statements, their columns listed: none of them may ever name `*`, `ip` or `ip_address`. */
export function yourlsStatements(prefix: string) {
  if (!/^[A-Za-z0-9_]*$/.test(prefix))
    throw new Error('YOURLS: the table prefix may hold letters, digits and _ only');
  const url = `\`${prefix}url\``;
  const log = `\`${prefix}log\``;
  return {
    links: `SELECT \`keyword\`, \`url\`, \`title\`, \`timestamp\`, \`clicks\` FROM ${url} WHERE \`keyword\` > ? ORDER BY \`keyword\` LIMIT ?`,
    count: `SELECT COUNT(\`keyword\`) AS \`links\` FROM ${url}`,
    logCounts: (keywords: number) =>
      `SELECT shorturl, COUNT(click_id) AS logged FROM ${log} WHERE shorturl IN (${Array(keywords).fill('?').join(', ')}) GROUP BY shorturl`,
    visits: `SELECT click_id, click_time, referrer, user_agent, country_code FROM ${log} WHERE shorturl = ? AND click_id > ? ORDER BY click_id LIMIT ?`,
  };
}

/** A YOURLS time (`2024-01-05 10:00:00`, UTC) in epoch milliseconds; null for none or YOURLS's zero date. */
function yourlsTime(value: unknown): number | null {
  return typeof value === 'string' && !value.startsWith('0000') ? parseInstant(value) : null;
}

/** A click of the log as the port takes it: `direct` is no referrer, an empty country is none. */
function toVisit(click: RowDataPacket): ImportedVisit | null {
  const at = yourlsTime(click.click_time);
  if (at === null) return null;
  const referrer = String(click.referrer ?? '');
  const userAgent = String(click.user_agent ?? '');
  const country = String(click.country_code ?? '');
  return {
    at,
    referrer: referrer === '' || referrer === 'direct' ? null : referrer,
    userAgent: userAgent === '' ? null : userAgent,
    country: /^[A-Za-z]{2}$/.test(country) ? country : null,
  };
}

/** A YOURLS database's links, with their click logs read when asked for. */
export function yourlsSource(options: YourlsSourceOptions): ImportSource {
  const db = createSharedPool(connectionOptions(options.database));
  const sql = yourlsStatements(options.prefix ?? 'yourls_');
  const domain = options.domain?.trim().toLowerCase() || null;

  async function* visitsOf(keyword: string): AsyncIterable<ImportedVisit> {
    const query = db.open();
    try {
      for (let after = 0; ;) {
        const clicks = await query(sql.visits, [keyword, after, VISITS_PER_PAGE]);
        for (const click of clicks) {
          const visit = toVisit(click);
          if (visit !== null) yield visit;
        }
        if (clicks.length < VISITS_PER_PAGE) return;
        after = Number(clicks[clicks.length - 1]?.click_id);
      }
    } finally {
      await db.close();
    }
  }

  function toRow(link: RowDataPacket, logged: number): ImportRow {
    const keyword = String(link.keyword);
    const row: Mutable<ImportRow> = {
      originalShortUrl: joinShortUrl(domain, keyword),
      domain,
      code: keyword,
      url: String(link.url ?? ''),
      // YOURLS keeps titles HTML-escaped (`&amp;`): decoded once (decisions §25)
      title:
        typeof link.title === 'string' && link.title.trim() !== '' ? decodeHtmlEntities(link.title) : null,
      createdAt: yourlsTime(link.timestamp),
    };
    if (logged > 0) row.visits = () => visitsOf(keyword);
    const unlogged = Number(link.clicks ?? 0) - logged;
    if (unlogged > 0) row.totalClicks = unlogged;
    if (row.url === '') row.problem = 'no url';
    return row;
  }

  async function page(query: Query, after: string): Promise<ImportRow[]> {
    const links = await query(sql.links, [after, LINKS_PER_PAGE]);
    if (links.length === 0) return [];
    const keywords = links.map((link) => String(link.keyword));
    const counts = await query(sql.logCounts(keywords.length), keywords);
    const logged = new Map(counts.map((count) => [String(count.shorturl), Number(count.logged)]));
    return links.map((link) => toRow(link, logged.get(String(link.keyword)) ?? 0));
  }

  return {
    name: 'yourls',
    async *rows(cursor: string | null): AsyncIterable<ImportStep> {
      const query = db.open();
      try {
        const [counted] = await query(sql.count, []);
        const total = { rows: Number(counted?.links ?? 0), estimated: false };
        for (let after = cursor ?? ''; ;) {
          const rows = await page(query, after);
          for (const row of rows) yield { row, cursor: row.code ?? '', total };
          if (rows.length < LINKS_PER_PAGE) return;
          after = rows[rows.length - 1]?.code ?? '';
        }
      } finally {
        await db.close();
      }
    },
  };
}
