/**
 * The `bitly` import source (decisions §17): Bitly's API v4 with a Bearer token.
 *
 * Reads `GET /v4/groups` for each group's `guid`; each group's `GET /v4/groups/{guid}/bitlinks?archived=both`,
 * following `pagination.next`, for `id`, `link`, `custom_bitlinks`, `long_url`, `title`, `tags`, `created_at`
 * and `expiration_at`; and, only when the importer asks, `GET /v4/bitlinks/{id}/clicks?unit=day&units=-1` for
 * the daily counts. A bitlink gives one row for its hash and one per custom back-half, all to the same
 * destination; the daily clicks go with the hash's row only, as Bitly counts a custom back-half's clicks on
 * its bitlink. It never reads deep links, campaigns, QR codes, who created a link or any per-click detail.
 * A 429 waits (`Retry-After`, else a backoff) and asks again.
 *
 * Cursor: `{"g":guid,"gi":groupIndex,"q":page,"id":bitlinkId,"i":index,"c":backHalfIndex}`: the page request
 * (path and query) the row came from, the bitlink on it (by id, else by index) and which of its links
 * (0 for the hash, 1... for the custom back-halves).
 */
import type { ImportRow, ImportSource, ImportStep, ImportedDay } from '@shortener/core';
import { hasCounts, hasStrings, readCursor } from '../cursor.js';
import { rowDates } from '../dates.js';
import type { FetchLike, HttpClient, Sleep } from '../http.js';
import { createHttpClient } from '../http.js';
import type { RetryOptions } from '../http.js';
import type { JsonObject } from '../json.js';
import { arrayAt, numberOrNull, objectAt, stringOrNull, strings, textOrNull } from '../json.js';
import { splitShortUrl } from '../short-url.js';

/** Where and how to read a Bitly account. */
export interface BitlySourceOptions extends RetryOptions {
  readonly token: string;
  /** The API's base URL; Bitly's own by default. */
  readonly url?: string;
  readonly fetch: FetchLike;
  /** How a 429 waits: injected so that tests need not wait. */
  readonly sleep?: Sleep;
}

const PAGE_SIZE = 100;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type BitlyCursor = { g: string; gi: number; q: string; id: string; i: number; c: number };
const isBitlyCursor = (value: unknown): value is BitlyCursor =>
  hasStrings(value, 'g', 'q', 'id') && hasCounts(value, 'gi', 'i', 'c') && value.q.startsWith('/v4/groups/');

/** The first page of a group's bitlinks, archived ones included. */
function firstPage(guid: string): string {
  return `/v4/groups/${encodeURIComponent(guid)}/bitlinks?archived=both&size=${PAGE_SIZE}`;
}

/** `pagination.next` as a request on our base: the token goes to the configured host only, never elsewhere. */
function nextPage(pagination: unknown): string | null {
  const next = textOrNull(objectAt(pagination ?? {}, 'Bitly pagination').next);
  if (next === null) return null;
  const url = new URL(next, 'https://api-ssl.bitly.com');
  return url.pathname.startsWith('/v4/groups/') ? `${url.pathname}${url.search}` : null;
}

/** A bitlink's daily clicks, UTC days with at least one click. */
async function daysOf(http: HttpClient, id: string): Promise<ImportedDay[]> {
  const path = `/v4/bitlinks/${id.split('/').map(encodeURIComponent).join('/')}/clicks?unit=day&units=-1`;
  const answer = objectAt(await http.getJson(path), 'Bitly clicks');
  const days: ImportedDay[] = [];
  for (const entry of arrayAt(answer.link_clicks, 'Bitly link_clicks')) {
    const { date, clicks } = objectAt(entry, 'a Bitly click count');
    const day = stringOrNull(date)?.slice(0, 10) ?? '';
    const count = numberOrNull(clicks) ?? 0;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`Bitly: a click count has no readable date`);
    if (count > 0) days.push({ day, clicks: count });
  }
  return days;
}

/** The rows of one bitlink: its hash (with the daily clicks), then each custom back-half. */
function bitlinkRows(http: HttpClient, bitlink: JsonObject): ImportRow[] {
  const id = stringOrNull(bitlink.id) ?? '';
  const common: Mutable<Omit<ImportRow, 'originalShortUrl' | 'domain' | 'code'>> = {
    url: stringOrNull(bitlink.long_url) ?? '',
    title: textOrNull(bitlink.title),
    tags: strings(bitlink.tags),
  };
  Object.assign(common, rowDates(bitlink.created_at, bitlink.expiration_at));
  if (common.url === '') common.problem = 'no long_url';
  const links = [stringOrNull(bitlink.link) ?? id, ...strings(bitlink.custom_bitlinks)];
  return links.map((link, index) => {
    const parts = splitShortUrl(link);
    const row: ImportRow = { ...common, ...parts };
    return index === 0 && id !== '' ? { ...row, days: () => daysOf(http, id) } : row;
  });
}

/** Every group's bitlinks of a Bitly account, with their custom back-halves and daily clicks. */
export function bitlySource(options: BitlySourceOptions): ImportSource {
  const api = { ...options, url: options.url ?? 'https://api-ssl.bitly.com' };
  const http = createHttpClient('Bitly', api, { Authorization: `Bearer ${options.token}` });
  return {
    name: 'bitly',
    async *rows(cursor: string | null): AsyncIterable<ImportStep> {
      const resume = cursor === null ? null : readCursor('Bitly', cursor, isBitlyCursor);
      const answer = objectAt(await http.getJson('/v4/groups'), 'Bitly groups');
      const guids = arrayAt(answer.groups, 'Bitly groups').map((group) =>
        String(objectAt(group, 'a Bitly group').guid),
      );
      const found = resume === null ? -1 : guids.indexOf(resume.g);
      const startGroup = resume === null ? 0 : found >= 0 ? found : resume.gi;
      // a guess: the bitlinks of the groups seen (custom back-halves add rows, later groups are not seen yet)
      const groupTotals = new Map<number, number>();
      let total: { rows: number; estimated: true } | undefined;
      for (let gi = startGroup; gi < guids.length; gi += 1) {
        const guid = guids[gi] as string;
        let page: string | null = resume !== null && guid === resume.g ? resume.q : firstPage(guid);
        while (page !== null) {
          const answer = objectAt(await http.getJson(page), 'Bitly bitlinks');
          const links = arrayAt(answer.links, 'Bitly links').map((link) => objectAt(link, 'a bitlink'));
          const told = numberOrNull(objectAt(answer.pagination ?? {}, 'Bitly pagination').total);
          if (told !== null && !groupTotals.has(gi)) {
            groupTotals.set(gi, told);
            total = { rows: [...groupTotals.values()].reduce((a, b) => a + b, 0), estimated: true };
          }
          const onResumePage = resume !== null && guid === resume.g && page === resume.q;
          const at = onResumePage ? links.findIndex((link) => link.id === resume.id) : -1;
          const startLink = onResumePage ? (at >= 0 ? at : resume.i) : 0;
          for (let i = startLink; i < links.length; i += 1) {
            const link = links[i] as JsonObject;
            const rows = bitlinkRows(http, link);
            const startRow = onResumePage && i === startLink && at >= 0 ? resume.c + 1 : 0;
            for (let c = startRow; c < rows.length; c += 1) {
              const step = { g: guid, gi, q: page, id: String(link.id ?? ''), i, c };
              const row = rows[c] as ImportRow;
              yield { row, cursor: JSON.stringify(step), ...(total === undefined ? {} : { total }) };
            }
          }
          const next = nextPage(answer.pagination);
          page = next === page ? null : next;
        }
      }
    },
  };
}
