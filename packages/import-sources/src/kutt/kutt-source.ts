/**
 * The `kutt` import source (decisions §17): Kutt's API v2 with an `X-API-KEY`.
 *
 * Reads `GET /api/v2/links?skip=&limit=` (newest first, as Kutt lists them) for `id`, `address`, `domain`,
 * `link` (the short URL; its host is the domain when `domain` is null, Kutt's default domain), `target`,
 * `description`, `expire_in`, `created_at` and `visit_count`, a bare total, and `password` and `banned`
 * (decisions §25): a password-protected link comes across disabled (the password itself Kutt never gives),
 * a banned one is refused. It never reads a link's owner or its statistics (`/links/{id}/stats`), and Kutt's
 * API gives no visit history.
 *
 * Cursor: `{"s":position,"id":id}` of the row; a resumed job asks for the page at that position, finds the
 * row by its id there and goes on after it (after the position when the row is gone).
 */
import type { ImportRow, ImportSource, ImportStep } from '@shortener/core';
import { hasCounts, hasStrings, readCursor } from '../cursor.js';
import { rowDates } from '../dates.js';
import type { FetchLike } from '../http.js';
import { createHttpClient } from '../http.js';
import type { RetryOptions } from '../http.js';
import type { JsonObject } from '../json.js';
import { arrayAt, numberOrNull, objectAt, stringOrNull, textOrNull } from '../json.js';
import { joinShortUrl, splitShortUrl } from '../short-url.js';

/** Where and how to read a Kutt server. */
export interface KuttSourceOptions extends RetryOptions {
  /** The server's base URL (`https://kutt.example`). */
  readonly url: string;
  readonly apiKey: string;
  readonly fetch: FetchLike;
}

/** Kutt answers at most 50 links a page (`parseQuery`). */
const PAGE_SIZE = 50;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type KuttCursor = { s: number; id: string };
const isKuttCursor = (value: unknown): value is KuttCursor =>
  hasCounts(value, 's') && hasStrings(value, 'id');

/** A Kutt link as the port takes it. */
export function kuttRow(link: JsonObject): ImportRow {
  const address = stringOrNull(link.address);
  const shortUrl = stringOrNull(link.link);
  const parts = shortUrl === null ? null : splitShortUrl(shortUrl);
  const domain = stringOrNull(link.domain)?.toLowerCase() ?? parts?.domain ?? null;
  const row: Mutable<ImportRow> = {
    originalShortUrl: shortUrl ?? (address === null ? '' : joinShortUrl(domain, address)),
    domain,
    code: address ?? parts?.code ?? null,
    url: stringOrNull(link.target) ?? '',
    title: textOrNull(link.description),
  };
  Object.assign(row, rowDates(link.created_at, link.expire_in));
  const visits = numberOrNull(link.visit_count);
  if (visits !== null) row.totalClicks = visits;
  if (link.password === true) row.disabled = 'password at the source: set one and enable it';
  if (link.banned === true) row.problem = 'banned at the source';
  else if (row.url === '') row.problem = 'no target';
  return row;
}

/** A Kutt account's links, each with its visit count as a total. */
export function kuttSource(options: KuttSourceOptions): ImportSource {
  const http = createHttpClient('Kutt', options, { 'X-API-KEY': options.apiKey });
  return {
    name: 'kutt',
    async *rows(cursor: string | null): AsyncIterable<ImportStep> {
      const resume = cursor === null ? null : readCursor('Kutt', cursor, isKuttCursor);
      let skip = resume?.s ?? 0;
      for (let first = true; ; first = false) {
        const answer = objectAt(
          await http.getJson(`/api/v2/links?skip=${skip}&limit=${PAGE_SIZE}`),
          'Kutt answer',
        );
        const links = arrayAt(answer.data, 'Kutt data').map((link) => objectAt(link, 'a Kutt link'));
        const total = numberOrNull(answer.total);
        const told = total === null ? {} : { total: { rows: total, estimated: false } };
        let start = 0;
        if (first && resume !== null) {
          // the row was at `s`; links made since push it further down (Kutt lists newest first)
          const found = links.findIndex((link) => link.id === resume.id);
          start = found >= 0 ? found + 1 : 1;
        }
        for (let index = start; index < links.length; index += 1) {
          const link = links[index] as JsonObject;
          yield {
            row: kuttRow(link),
            cursor: JSON.stringify({ s: skip + index, id: String(link.id ?? '') }),
            ...told,
          };
        }
        skip += links.length;
        if (links.length === 0 || (total !== null && skip >= total)) return;
      }
    },
  };
}
