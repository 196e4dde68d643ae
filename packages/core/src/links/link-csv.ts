import type { LinkView } from '../response-schemas.js';
import type { ExportedLinkExtras } from './link-export.js';
import type { LinkFieldsNamed, UnlistedLinkFields } from './link.js';

/**
 * The column of each field of the Link object in a links CSV (decisions §25: every field), or null for
 * what a CSV leaves out: URLs made from the short URL, and an edit token. A new field of the Link
 * object fails to compile here until it is given a column; columns come in this order.
 */
const COLUMN_OF = {
  url: 'url',
  slug: 'alias',
  domain: 'domain',
  title: 'title',
  expires_at: 'expires_at',
  starts_at: 'starts_at',
  max_clicks: 'max_clicks',
  public_stats: 'public_stats',
  has_password: 'has_password',
  status: 'status',
  clicks: 'clicks',
  created_at: 'created_at',
  short_url: 'short_url',
  id: 'id',
  tags: 'tags',
  rules: 'rules',
  forward_query: 'forward_query',
  redirect_status: 'redirect_status',
  crawlable: 'crawlable',
  split: 'split',
  expired_url: 'expired_url',
  preview: 'preview',
  updated_at: 'updated_at',
  last_click_at: 'last_click_at',
  created_by: 'created_by',
  updated_by: 'updated_by',
  health: 'health',
  preview_url: null,
  qr_svg_url: null,
  qr_png_url: null,
  stats_url: null,
  edit_token: null,
} as const satisfies Record<keyof LinkView, string | null>;

/** A column of the links CSV. */
export type LinkCsvColumn = NonNullable<(typeof COLUMN_OF)[keyof typeof COLUMN_OF]>;

/**
 * The columns of a link list as CSV (`GET /api/v1/links?format=csv`, `export --format csv`): every
 * field of the Link object, the slug under `alias` (which a CSV made by hand is likelier to say).
 */
export const LINK_CSV_COLUMNS: readonly LinkCsvColumn[] = Object.values(COLUMN_OF).filter(
  (column): column is LinkCsvColumn => column !== null,
);

/** The fields a local `export` adds to the Link object, each a column of its CSV too. */
const EXTRA_COLUMNS = {
  imported_clicks: true,
  disabled: true,
  account: true,
  account_id: true,
  password_hash: true,
  edit_token_hash: true,
  health_failures: true,
} as const satisfies Record<keyof ExportedLinkExtras, true>;

// every field of a link has a column of the export's CSV (the links CSV or the export's extras): a new
// field fails to compile here, named, until it is given one
({}) satisfies Record<
  UnlistedLinkFields<LinkFieldsNamed<keyof typeof COLUMN_OF | keyof typeof EXTRA_COLUMNS>>,
  never
>;

/** The columns of a local `export --format csv`: also what a lossless import needs (`ExportedLink`). */
export const EXPORTED_LINK_CSV_COLUMNS: readonly string[] = [
  ...LINK_CSV_COLUMNS,
  ...Object.keys(EXTRA_COLUMNS),
];

/** The columns of a links CSV whose cells are JSON (empty for none). */
export const LINK_CSV_JSON_COLUMNS = [
  'rules',
  'split',
  'preview',
  'health',
] as const satisfies readonly LinkCsvColumn[];

/** How the tags of a link share one cell (decisions §25). */
export const CSV_TAG_SEPARATOR = ',';

/**
 * The tags of a link in one cell, joined by `,`; a lone tag with a space gets a trailing `,`, so that it
 * is not read as the space-separated tags of an export made before decisions §25 (`spring sale,`).
 */
export const tagsCell = (tags: readonly string[]): string =>
  tags.join(CSV_TAG_SEPARATOR) + (tags.length === 1 && tags[0]!.includes(' ') ? CSV_TAG_SEPARATOR : '');

/** A list or object as a JSON cell: empty for none (null, or no rules). */
const jsonCell = (value: unknown): string =>
  value === null || value === undefined || (Array.isArray(value) && value.length === 0)
    ? ''
    : JSON.stringify(value);

/**
 * A Link object (or an exported link) as a CSV row for {@link LINK_CSV_COLUMNS}: its slug under
 * `alias`, tags joined by `,` ({@link tagsCell}), rules, a split, a preview and the health as JSON (empty
 * when none).
 */
export function linkCsvRow(link: LinkView | (LinkView & ExportedLinkExtras)): Record<string, unknown> {
  const row: Record<string, unknown> = { ...link, alias: link.slug, tags: tagsCell(link.tags) };
  for (const column of LINK_CSV_JSON_COLUMNS) row[column] = jsonCell(link[column]);
  return row;
}
