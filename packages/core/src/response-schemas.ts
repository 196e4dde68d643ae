import { z } from 'zod';
import { PreviewViewSchema } from './links/preview.js';
import { SplitViewSchema } from './links/split.js';
import { ERROR_CODES } from './errors.js';
import { RuleViewSchema } from './links/rules.js';
import { HEALTH_REASONS, HEALTH_STATES } from './links/health.js';

/** Output schemas: documentation for `/openapi.json` and the MCP output schemas. */

const statusEnum = z.enum(['active', 'expired', 'disabled']);

/** What the checks of a link's destinations found (decisions §23). */
export const LinkHealthSchema = z
  .object({
    state: z
      .enum(HEALTH_STATES)
      .describe(
        '`unknown` (never checked), `ok` (2xx), `redirected` (ended 2xx elsewhere: `final_url`), `broken` (failed HEALTH_FAILURES checks in a row).',
      ),
    status: z.number().int().nullable().describe('The HTTP status the last check ended on, or null.'),
    reason: z
      .enum(HEALTH_REASONS)
      .nullable()
      .describe(
        'Why the last check failed, or null when it passed (a link may be `ok` with a failure counted).',
      ),
    final_url: z
      .url()
      .nullable()
      .describe('Where the last check ended when the destination redirected elsewhere.'),
    checked_at: z.iso.datetime().nullable(),
    since: z.iso.datetime().nullable().describe('Since when the link is in its state.'),
  })
  .meta({ id: 'LinkHealth' });
export type LinkHealthView = z.infer<typeof LinkHealthSchema>;

/** The Link response object (interface §2.1). */
export const LinkSchema = z
  .object({
    id: z.uuid(),
    domain: z.string(),
    slug: z.string(),
    short_url: z.url(),
    url: z.url(),
    title: z.string().nullable(),
    status: statusEnum,
    clicks: z.number().int(),
    has_password: z.boolean(),
    public_stats: z.boolean(),
    expires_at: z.iso.datetime().nullable(),
    starts_at: z.iso
      .datetime()
      .nullable()
      .describe(
        'Before this time the link answers as an unknown slug does (its status stays active), or null.',
      ),
    max_clicks: z.number().int().nullable(),
    created_at: z.iso.datetime(),
    updated_at: z.iso.datetime(),
    last_click_at: z.iso.datetime().nullable(),
    created_by: z
      .string()
      .nullable()
      .describe('Who made it: a person’s name, or `key:<prefix>` for an API key; null when unknown.'),
    updated_by: z.string().nullable().describe('Who changed it last, as `created_by`; null until changed.'),
    preview_url: z.url(),
    qr_svg_url: z.url(),
    qr_png_url: z.url(),
    stats_url: z.url(),
    tags: z.array(z.string()).describe('Lower-case tags, in the order given.'),
    rules: z
      .array(RuleViewSchema)
      .describe('Redirect rules, in order; the first that holds picks the destination.'),
    forward_query: z.boolean(),
    redirect_status: z.union([z.literal(301), z.literal(302), z.literal(307), z.literal(308)]),
    crawlable: z.boolean(),
    expired_url: z.url().nullable().describe('Where an expired or used-up link sends visitors, or null.'),
    preview: PreviewViewSchema,
    split: SplitViewSchema,
    health: LinkHealthSchema,
    edit_token: z.string().optional().describe('Only for anonymous links, returned once on creation.'),
  })
  .meta({ id: 'Link' });
export type LinkView = z.infer<typeof LinkSchema>;

const keyCounts = z.array(z.object({ key: z.string(), count: z.number().int() }));

/** The statistics object (interface §2.4). */
export const StatsSchema = z
  .object({
    total: z.number().int(),
    unique: z.number().int(),
    bots: z.number().int(),
    imported: z
      .number()
      .int()
      .describe(
        "Clicks an import brought as a bare total (decisions §17): part of the links' `clicks`, on no day, so outside every range's `total`.",
      ),
    days: z.number().int().describe('How many days `from`..`to` spans.'),
    from: z.string().describe('The first day (YYYY-MM-DD) in `tz`.'),
    to: z.string().describe('The last day (YYYY-MM-DD) in `tz`.'),
    tz: z.string().describe('The time zone whose days `by_day`, `total` and `bots` count in.'),
    dimensions_tz: z
      .literal('UTC')
      .describe('The other lists sum the UTC days `from`..`to`; `unique`, the last 30 UTC days.'),
    by_day: keyCounts.describe('Every day `from`..`to` in `tz`, oldest first, zeros included.'),
    countries: keyCounts,
    referrers: keyCounts,
    devices: keyCounts,
    browsers: keyCounts,
    rules: keyCounts.describe('Which rule answered: `0`, `1`, … or `default` (links with rules only).'),
    variants: keyCounts.describe(
      'Which entry of the split test answered: `0`, `1`, … (links with a split only; rules come first).',
    ),
  })
  .meta({ id: 'Stats' });
export type StatsView = z.infer<typeof StatsSchema>;

/** The statistics of several links (a tag's, an account's), with the top 20 links by clicks in the range. */
export const StatsAcrossSchema = StatsSchema.extend({
  links: z
    .array(z.object({ id: z.string(), short_url: z.string(), clicks: z.number().int() }))
    .describe(
      'The 20 links with the most clicks over the range by UTC day (as the other dimensions, `dimensions_tz`), most first.',
    ),
}).meta({ id: 'StatsAcross' });
export type StatsAcrossView = z.infer<typeof StatsAcrossSchema>;

/** The alias check result (interface §2.5). */
export const AliasCheckSchema = z
  .object({
    slug: z.string(),
    domain: z.string(),
    status: z.enum(['free', 'taken', 'reserved', 'invalid']),
    alternative: z.string().nullable().describe('The other domain where the alias is free.'),
  })
  .meta({ id: 'AliasCheck' });
export type AliasCheckView = z.infer<typeof AliasCheckSchema>;

/** The `error` member of the error object: the code, a message in the request's language, the field at fault. */
export const ErrorDetailSchema = z
  .object({
    code: z.enum(ERROR_CODES).describe('Stable machine-readable code; act on it, never on the message.'),
    message: z.string().describe('What went wrong, in the language of `lang` or `Accept-Language`.'),
    field: z.string().optional().describe('The input field at fault, when there is one.'),
  })
  .meta({ id: 'ErrorDetail' });

/** The error object (interface §2.6, decisions §6). */
export const ErrorSchema = z.object({ error: ErrorDetailSchema }).meta({ id: 'Error' });

/** The public `/{slug}.json` object. */
export const PublicLinkSchema = z
  .object({
    short_url: z.url(),
    url: z.url().optional().describe('Omitted when the link is password protected.'),
    status: statusEnum,
    created_at: z.iso.datetime(),
    clicks: z.number().int().optional().describe('Only when statistics are public.'),
  })
  .meta({ id: 'PublicLink' });
export type PublicLinkView = z.infer<typeof PublicLinkSchema>;

/** One item of a bulk response. */
export const BulkResultSchema = z
  .object({
    results: z.array(
      z.union([
        z.object({ index: z.number().int(), input: z.string(), ok: z.literal(true), link: LinkSchema }),
        z.object({
          index: z.number().int(),
          input: z.string(),
          ok: z.literal(false),
          error: ErrorDetailSchema,
        }),
      ]),
    ),
  })
  .meta({ id: 'BulkResponse' });

/** `GET /api/v1/links` response. */
export const LinkListSchema = z
  .object({ links: z.array(LinkSchema), next_cursor: z.string().nullable() })
  .meta({ id: 'LinkList' });

/** `GET /api/v1/tags` response. */
export const TagListSchema = z
  .object({
    tags: z.array(
      z.object({
        name: z.string(),
        links: z.number().int().describe("How many of the caller's links carry it."),
        clicks: z.number().int().describe('The clicks of those links.'),
      }),
    ),
  })
  .meta({ id: 'TagList' });

/** `POST /api/v1/links/claim` response. */
export const ClaimResultSchema = z.object({ claimed: z.number().int() }).meta({ id: 'ClaimResult' });
