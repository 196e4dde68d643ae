import type { LinkCsvColumn } from '@shortener/core';

/** The fields a CSV file's columns can hold (decisions §17 "csv", and §25: every field of our own). */
export type CsvField =
  | 'destination'
  | 'shortUrl'
  | 'code'
  | 'customLink'
  | 'domain'
  | 'title'
  | 'tags'
  | 'created'
  | 'clicks'
  | 'expiresAt'
  | 'startsAt'
  | 'maxClicks'
  | 'publicStats'
  | 'hasPassword'
  | 'status'
  | 'rules'
  | 'forwardQuery'
  | 'redirectStatus'
  | 'crawlable'
  | 'split'
  | 'expiredUrl'
  | 'preview';

/**
 * The headers each field is read from, in order of preference, as decisions §17 lists them. One more than
 * §17 lists: `destination url`, the header of Dub's export (`Destination URL`), which §17 says is read as it
 * is. Bitly's link export is believed to use it as well, and to give a link's custom back-half (`Custom link`)
 * beside its bitlink: the back-half is the code kept. From `expiresAt` on, the columns of our own links
 * CSV (decisions §25), so that an export imported again gives back the same links.
 */
export const CSV_ALIASES: Readonly<Record<CsvField, readonly string[]>> = {
  destination: ['long url', 'url', 'destination', 'destination url', 'original url', 'target'],
  shortUrl: ['short url', 'short link', 'link', 'bitlink'],
  code: ['short code', 'keyword', 'alias', 'slug', 'back-half', 'source'],
  customLink: ['custom link', 'custom back-half', 'custom bitlink'],
  domain: ['domain'],
  title: ['title', 'description'],
  tags: ['tags'],
  created: ['created', 'created at', 'date created', 'timestamp'],
  clicks: ['clicks', 'total clicks', 'hits', 'visits', 'visit count'],
  expiresAt: ['expires at'],
  startsAt: ['starts at'],
  maxClicks: ['max clicks'],
  publicStats: ['public stats'],
  hasPassword: ['has password'],
  status: ['status'],
  rules: ['rules'],
  forwardQuery: ['forward query'],
  redirectStatus: ['redirect status'],
  crawlable: ['crawlable'],
  split: ['split'],
  expiredUrl: ['expired url'],
  preview: ['preview'],
};

/**
 * What the importer reads each column of our own links CSV (core's `LINK_CSV_COLUMNS`) into, or null for
 * what a new link starts afresh (its id and times of change). A new column fails to compile here until
 * it is given its place.
 */
export const LINK_CSV_FIELDS = {
  url: 'destination',
  alias: 'code',
  domain: 'domain',
  title: 'title',
  expires_at: 'expiresAt',
  starts_at: 'startsAt',
  max_clicks: 'maxClicks',
  public_stats: 'publicStats',
  has_password: 'hasPassword',
  status: 'status',
  clicks: 'clicks',
  created_at: 'created',
  short_url: 'shortUrl',
  id: null,
  tags: 'tags',
  rules: 'rules',
  forward_query: 'forwardQuery',
  redirect_status: 'redirectStatus',
  crawlable: 'crawlable',
  split: 'split',
  expired_url: 'expiredUrl',
  preview: 'preview',
  updated_at: null,
  last_click_at: null,
  created_by: null,
  updated_by: null,
  health: null,
} as const satisfies Record<LinkCsvColumn, CsvField | null>;

/** A header as compared: without case, spaces or `_` (`Long URL`, `long_url` and `longUrl` are one). */
export function normaliseHeader(header: string): string {
  return header
    .replace(/^\uFEFF/, '')
    .toLowerCase()
    .replace(/[\s_]+/g, '');
}

/** Each field's column index in a file, for the fields it has. */
export type CsvColumns = Partial<Record<CsvField, number>>;

/**
 * Finds the columns of a header row. Throws a clear error naming the headers found when none holds the
 * destination: such a file is not a link list, and no row of it could be read.
 */
export function findColumns(headers: readonly string[]): CsvColumns & { readonly destination: number } {
  const normalised = headers.map(normaliseHeader);
  const columns: CsvColumns = {};
  for (const [field, aliases] of Object.entries(CSV_ALIASES) as [CsvField, readonly string[]][]) {
    for (const alias of aliases) {
      const index = normalised.indexOf(normaliseHeader(alias));
      if (index >= 0) {
        columns[field] = index;
        break;
      }
    }
  }
  const destination = columns.destination;
  if (destination === undefined) {
    const found = headers.map((header) => JSON.stringify(header.trim())).join(', ');
    throw new Error(
      `CSV: no destination column (one of ${CSV_ALIASES.destination.join(', ')}); the headers found are ${found === '' ? 'none' : found}`,
    );
  }
  return { ...columns, destination };
}
