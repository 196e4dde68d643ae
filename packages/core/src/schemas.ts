import { z } from 'zod';
import { HEALTH_STATES } from './links/health.js';
import { PreviewField } from './links/preview.js';
import { RulesField } from './links/rules.js';
import { SplitField } from './links/split.js';
import { TagFilterField, TagsField } from './links/tags.js';

/**
 * The zod schemas of every input and output of the interface. Edges parse raw input with them once;
 * the same schemas generate `/openapi.json` and the MCP tool schemas. State-dependent rules (taken,
 * expired, reserved, URL safety) are use-case logic and produce their own error codes.
 */

const UTM_FIELDS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

/** The UTM parameters merged into the destination at creation. */
export type UtmField = (typeof UTM_FIELDS)[number];

const utmShape = Object.fromEntries(
  UTM_FIELDS.map((name) => [
    name,
    z.string().max(200).nullish().describe(`Sets \`${name}\` on the destination.`),
  ]),
) as Record<UtmField, z.ZodOptional<z.ZodNullable<z.ZodString>>>;

const dateTime = z.iso.datetime({ offset: true });

/** `starts_at` (decisions §25): before it the link answers as an unknown slug does. */
const StartsAtField = dateTime.describe(
  'Before this ISO 8601 date-time (with offset) the link answers as an unknown slug does; before any ' +
    'expires_at. null or absent: at once.',
);

/** The statuses a redirect may answer with (decisions §15). */
export const REDIRECT_STATUSES = [301, 302, 307, 308] as const;

/** `redirect_status`: 302 by default (or the server's `REDIRECT_STATUS`); 301/308 are permanent. */
export const RedirectStatusField = z
  .union(REDIRECT_STATUSES.map((status) => z.literal(status)))
  .describe(
    'Redirect status: 302 (default, or the server default REDIRECT_STATUS), 307, 301 or 308. A permanent ' +
      'status (301/308) is refused on a link with rules, a split, a cap, an expiry or a password.',
  );

/** The fields of decisions §15, shared by create and bulk (`nullish`: absent or null is the default). */
const organiseShape = {
  tags: TagsField.nullish(),
  rules: RulesField.nullish(),
  forward_query: z
    .boolean()
    .nullish()
    .describe("Add the visitor's query parameters to the destination (the destination's own win)."),
  redirect_status: RedirectStatusField.nullish(),
  crawlable: z.boolean().nullish().describe('Let search engines index the short URL (default false).'),
  expired_url: z
    .string()
    .max(4096)
    .nullish()
    .describe('Once expired or at its click cap, the link sends visitors here (302) instead of a 410 page.'),
  preview: PreviewField.nullish(),
  split: SplitField.nullish(),
};

/** The destination as given: checked by the URL rules (missing scheme means https). */
export const TargetUrlField = z
  .string()
  .min(1)
  .meta({ maxLength: 4096, examples: ['https://example.com/a/long/path'] })
  .describe('Destination http(s) URL; a missing scheme means https://.');

/**
 * A requested alias: normalised (trimmed, lower-cased) and checked by the slug rules, which answer
 * `slug_invalid`; the pattern is documentation (it admits what normalisation accepts), not a parse rule.
 */
export const AliasField = z
  .string()
  .meta({ pattern: String.raw`^\s*[A-Za-z0-9_-]{2,40}\s*$`, examples: ['summer-sale'] })
  .describe('Custom slug: 2-40 characters of a-z, 0-9, - and _ (lower-cased).');

/** One of the short domains' hosts. */
export const DomainField = z.string().describe('Short domain host; defaults to the first short domain.');

/** Body of `POST /api/v1/links` (interface §2.2). */
export const CreateLinkInput = z
  .strictObject({
    url: TargetUrlField,
    alias: AliasField.nullish(),
    domain: DomainField.nullish(),
    title: z.string().max(200).nullish(),
    expires_in_days: z.number().min(0.01).max(3650).nullish().describe('Expires this many days from now.'),
    expires_at: dateTime.nullish().describe('Expiry as an ISO 8601 date-time with offset.'),
    starts_at: StartsAtField.nullish(),
    max_clicks: z.number().int().min(1).nullish().describe('The link expires after this many human clicks.'),
    password: z.string().min(4).max(64).nullish().describe('Visitors must enter it before the redirect.'),
    public_stats: z.boolean().nullish().describe('Anyone may read the statistics (default true).'),
    ...organiseShape,
    ...utmShape,
  })
  .meta({ id: 'CreateLink' });
export type CreateLinkInput = z.infer<typeof CreateLinkInput>;

/** Body of `PATCH /api/v1/links/{id}` (interface §2.3). `null` removes a setting. */
export const UpdateLinkInput = z
  .strictObject({
    url: TargetUrlField.optional(),
    title: z.string().max(200).nullable().optional(),
    expires_in_days: z.number().min(0.01).max(3650).nullable().optional(),
    expires_at: dateTime.nullable().optional(),
    starts_at: StartsAtField.nullable().optional(),
    max_clicks: z.number().int().min(1).nullable().optional(),
    password: z
      .union([z.literal(''), z.string().min(4).max(64)])
      .nullable()
      .optional()
      .describe('Empty string or null removes the password.'),
    public_stats: z.boolean().optional(),
    tags: TagsField.nullable().optional().describe('Replaces the list; null or [] removes every tag.'),
    rules: RulesField.nullable().optional().describe('Replaces the rules; null or [] removes them.'),
    forward_query: z.boolean().optional(),
    redirect_status: RedirectStatusField.nullable().optional().describe('null: the server default.'),
    crawlable: z.boolean().optional(),
    expired_url: z.string().max(4096).nullable().optional().describe('null or empty: none.'),
    preview: PreviewField.nullable().optional().describe('Replaces the preview; null removes it.'),
    split: SplitField.nullable().optional().describe('Replaces the split test; null removes it.'),
  })
  .meta({ id: 'UpdateLink' });
export type UpdateLinkInput = z.infer<typeof UpdateLinkInput>;

/** Body of `POST /api/v1/bulk`. */
export const BulkInput = z
  .strictObject({
    urls: z
      .union([z.array(z.string()).min(1), z.string().min(1)], {
        error: 'expected a list of URLs as text, or one text with a URL per line',
      })
      .describe(
        'An array of URLs, or one string with one URL per line (blank lines ignored); at least one URL.',
      ),
    domain: DomainField.nullish(),
    expires_in_days: z.number().min(0.01).max(3650).nullish(),
    starts_at: StartsAtField.nullish(),
    ...organiseShape,
  })
  .meta({ id: 'BulkRequest' });
export type BulkInput = z.infer<typeof BulkInput>;

/** Query of `GET /api/v1/check`. */
export const CheckAliasInput = z
  .strictObject({ slug: z.string().describe('The alias to check.'), domain: DomainField.optional() })
  .meta({ id: 'CheckAliasQuery' });
export type CheckAliasInput = z.infer<typeof CheckAliasInput>;

/** Body of `POST /api/v1/links/claim`. */
export const ClaimInput = z
  .strictObject({ edit_tokens: z.array(z.string()).describe('Edit tokens of anonymous links (max 1000).') })
  .meta({ id: 'ClaimRequest' });
export type ClaimInput = z.infer<typeof ClaimInput>;

/** The `format` of an API answer that can also be CSV: `Accept: text/csv` asks the same. */
export const FormatField = z
  .enum(['json', 'csv'])
  .optional()
  .describe('`csv` answers `text/csv` (as does `Accept: text/csv`); default JSON.');

/** Query of `GET /api/v1/links`. */
export const ListLinksQuery = z
  .strictObject({
    format: FormatField,
    limit: z.coerce.number().int().min(1).max(200).default(50),
    cursor: z.string().max(200).optional().describe('`next_cursor` of the previous page.'),
    q: z.string().max(200).optional().describe('Matches slug, title or url, case-insensitively.'),
    tag: TagFilterField.optional(),
    health: z
      .enum(HEALTH_STATES)
      .optional()
      .describe('Only links in this health state (decisions §23): `broken` lists the links that broke.'),
  })
  .meta({ id: 'ListLinksQuery' });
export type ListLinksQuery = z.infer<typeof ListLinksQuery>;

const color = z
  .string()
  .regex(/^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/)
  .describe('#rgb, #rrggbb or #rrggbbaa, with or without #.');

/** Query of `/{slug}.png`. */
export const QrPngQuery = z
  .strictObject({
    size: z.coerce.number().int().min(64).max(2048).default(512),
    fg: color.optional(),
    bg: color.optional(),
    margin: z.coerce
      .number()
      .int()
      .min(0)
      .max(8)
      .default(2)
      .describe('Quiet zone in modules; 2 keeps a 64 px code readable.'),
  })
  .meta({ id: 'QrPngQuery' });
export type QrPngQuery = z.infer<typeof QrPngQuery>;

/** Query of `/{slug}.svg`. */
export const QrSvgQuery = z
  .strictObject({ fg: color.optional(), bg: color.optional() })
  .meta({ id: 'QrSvgQuery' });
export type QrSvgQuery = z.infer<typeof QrSvgQuery>;

/** The UTM field names, in order. */
export const UTM_FIELD_NAMES: readonly UtmField[] = UTM_FIELDS;
