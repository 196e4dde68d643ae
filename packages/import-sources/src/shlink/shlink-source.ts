/**
 * The `shlink` import source (decisions §17): Shlink's REST API v3 with an `X-Api-Key`.
 *
 * Reads `GET /rest/v3/short-urls` (oldest first) for `shortCode`, `shortUrl`, `domain`, `longUrl`, `title`,
 * `tags`, `dateCreated`, `meta.validSince` (our `starts_at`), `meta.validUntil`, `meta.maxVisits`, `crawlable` and
 * `forwardQuery`; each short URL's
 * `GET .../redirect-rules` (see `shlinkRules`), when it has any; and, only when the importer asks, its
 * `GET .../visits` for `date`, `referer`, `userAgent` and `visitLocation.countryCode`. It never reads the rest
 * of a visit's location (city, coordinates), any address or the visit summary.
 *
 * Cursor: `{"p":page,"i":index,"k":shortUrl}` of the row; a resumed job finds the row by its short URL on that
 * page (by its index when it is gone) and goes on after it.
 */
import type { ImportRow, ImportSource, ImportStep, ImportedVisit } from '@shortener/core';
import { hasCounts, hasStrings, readCursor } from '../cursor.js';
import { optionalInstant, rowDates } from '../dates.js';
import type { FetchLike } from '../http.js';
import { createHttpClient } from '../http.js';
import type { RetryOptions } from '../http.js';
import type { HttpClient } from '../http.js';
import type { JsonObject } from '../json.js';
import { arrayAt, numberOrNull, objectAt, stringOrNull, strings, textOrNull } from '../json.js';
import { splitShortUrl } from '../short-url.js';
import { shlinkRules } from './shlink-rules.js';

/** Where and how to read a Shlink server. */
export interface ShlinkSourceOptions extends RetryOptions {
  /** The server's base URL (`https://s.example`). */
  readonly url: string;
  readonly apiKey: string;
  readonly fetch: FetchLike;
}

const LINKS_PER_PAGE = 50;
const VISITS_PER_PAGE = 500;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type ShlinkCursor = { p: number; i: number; k: string };
const isShlinkCursor = (value: unknown): value is ShlinkCursor =>
  hasCounts(value, 'p', 'i') && hasStrings(value, 'k') && (value as ShlinkCursor).p >= 1;

/** One page of a Shlink list (`{ shortUrls | visits: { data, pagination } }`). */
function pageOf(
  answer: unknown,
  key: 'shortUrls' | 'visits',
): { data: readonly unknown[]; pagesCount: number; totalItems: number | null } {
  const list = objectAt(objectAt(answer, 'Shlink answer')[key], `Shlink ${key}`);
  const pagination = objectAt(list.pagination, `Shlink ${key}.pagination`);
  return {
    data: arrayAt(list.data, `Shlink ${key}.data`),
    pagesCount: numberOrNull(pagination.pagesCount) ?? 0,
    totalItems: numberOrNull(pagination.totalItems),
  };
}

/** `/rest/v3/short-urls/{shortCode}/{what}`, with `domain` for a short URL not on the default domain. */
function shortUrlPath(item: JsonObject, what: string, query: Record<string, string> = {}): string {
  const code = String(item.shortCode).split('/').map(encodeURIComponent).join('/');
  const params = new URLSearchParams(query);
  const domain = stringOrNull(item.domain);
  if (domain !== null) params.set('domain', domain);
  return `/rest/v3/short-urls/${code}/${what}?${params.toString()}`;
}

/** A visit as the port takes it: Shlink's empty referrer and user agent are none; no address is read. */
function toVisit(value: unknown): ImportedVisit {
  const visit = objectAt(value, 'a Shlink visit');
  const at = optionalInstant(visit.date);
  if (typeof at !== 'number') throw new Error(`Shlink: a visit has no readable date (${String(visit.date)})`);
  const location = visit.visitLocation === null ? null : objectAt(visit.visitLocation ?? {}, 'visitLocation');
  const country = stringOrNull(location?.countryCode);
  return {
    at,
    referrer: textOrNull(visit.referer),
    userAgent: textOrNull(visit.userAgent),
    country: country !== null && /^[A-Za-z]{2}$/.test(country) ? country : null,
  };
}

async function* visitsOf(http: HttpClient, item: JsonObject): AsyncIterable<ImportedVisit> {
  for (let page = 1; ; page += 1) {
    const query = { page: String(page), itemsPerPage: String(VISITS_PER_PAGE) };
    const { data, pagesCount } = pageOf(await http.getJson(shortUrlPath(item, 'visits', query)), 'visits');
    for (const visit of data) yield toVisit(visit);
    if (page >= pagesCount || data.length === 0) return;
  }
}

/** A short URL as the port takes it; a date Shlink wrote unreadably is left out and noted. */
async function toRow(http: HttpClient, item: JsonObject): Promise<ImportRow> {
  const shortUrl = stringOrNull(item.shortUrl) ?? String(item.shortCode);
  const parts = splitShortUrl(shortUrl);
  const meta = objectAt(item.meta ?? {}, 'Shlink meta');
  const row: Mutable<ImportRow> = {
    originalShortUrl: shortUrl,
    domain: stringOrNull(item.domain)?.toLowerCase() ?? parts.domain,
    code: stringOrNull(item.shortCode),
    url: stringOrNull(item.longUrl) ?? '',
    title: textOrNull(item.title),
    tags: strings(item.tags),
    maxClicks: numberOrNull(meta.maxVisits),
    visits: () => visitsOf(http, item),
  };
  if (typeof item.crawlable === 'boolean') row.crawlable = item.crawlable;
  if (typeof item.forwardQuery === 'boolean') row.forwardQuery = item.forwardQuery;
  Object.assign(row, rowDates(item.dateCreated, meta.validUntil, meta.validSince));
  if (row.url === '') row.problem = 'no long URL';
  // hasRedirectRules came with Shlink 4; an older server does not say, so ask it
  if (item.hasRedirectRules !== false)
    row.rules = shlinkRules(await http.getJson(shortUrlPath(item, 'redirect-rules')));
  return row;
}

/** A Shlink server's short URLs with their rules and, lazily, their visits. */
export function shlinkSource(options: ShlinkSourceOptions): ImportSource {
  const http = createHttpClient('Shlink', options, { 'X-Api-Key': options.apiKey });
  return {
    name: 'shlink',
    async *rows(cursor: string | null): AsyncIterable<ImportStep> {
      const resume = cursor === null ? null : readCursor('Shlink', cursor, isShlinkCursor);
      for (let page = resume?.p ?? 1; ; page += 1) {
        const query = new URLSearchParams({
          page: String(page),
          itemsPerPage: String(LINKS_PER_PAGE),
          orderBy: 'dateCreated-ASC',
        });
        const { data, pagesCount, totalItems } = pageOf(
          await http.getJson(`/rest/v3/short-urls?${query.toString()}`),
          'shortUrls',
        );
        const items = data.map((item) => objectAt(item, 'a Shlink short URL'));
        let start = 0;
        if (resume !== null && page === resume.p) {
          const found = items.findIndex((item) => item.shortUrl === resume.k);
          start = (found >= 0 ? found : resume.i) + 1;
        }
        for (let index = start; index < items.length; index += 1) {
          const item = items[index] as JsonObject;
          const row = await toRow(http, item);
          const cursor = JSON.stringify({ p: page, i: index, k: row.originalShortUrl });
          yield totalItems === null
            ? { row, cursor }
            : { row, cursor, total: { rows: totalItems, estimated: false } };
        }
        if (page >= pagesCount || items.length === 0) return;
      }
    },
  };
}
