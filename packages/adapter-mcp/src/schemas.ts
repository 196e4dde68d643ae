import type { ServiceConfig } from '@shortener/core';
import {
  AliasCheckSchema,
  CheckAliasInput,
  CreateLinkInput,
  LinkListSchema,
  LinkSchema,
  ListLinksQuery,
  PublicLinkSchema,
  StatsQuery,
  StatsSchema,
  UpdateLinkInput,
} from '@shortener/core';
import { z } from 'zod';
import { withErrorBranch } from './results.js';

/** Days of statistics `get_link_info` includes. */
export const INFO_STATS_DAYS = 30;

function domainText(config: ServiceConfig): string {
  const [first, ...rest] = config.shortDomains.map((d) => d.host);
  const others = rest.length === 0 ? '' : ` Also: ${rest.join(', ')}.`;
  return `Short domain host. Default ${first ?? 'the first short domain'}.${others}`;
}

/**
 * A nullable number declared with a plain type list (decisions §13): generic clients (the MCP Inspector)
 * read `type` to decide how to send a value typed as text, and zod alone says only `anyOf`.
 */
const typeListed = <T extends z.ZodType>(field: T, type: 'integer' | 'number'): T =>
  field.meta({ type: [type, 'null'] }) as T;

/** How the manage tools name a link and prove access to it. */
const linkAccess = {
  id: z.string().max(100).describe('The link id (the id field of the Link from shorten_url or list_links).'),
  edit_token: z
    .string()
    .max(200)
    .optional()
    .describe(
      'The edit_token shorten_url returned for an anonymous link; not needed with the owning API key.',
    ),
};

function manageSchemas() {
  const update = UpdateLinkInput.shape;
  return {
    listInput: z.strictObject({
      q: ListLinksQuery.shape.q,
      limit: ListLinksQuery.shape.limit.describe('Links per page, 1-200, default 50.'),
      cursor: ListLinksQuery.shape.cursor,
    }),
    updateInput: z.strictObject({
      ...linkAccess,
      ...update,
      expires_in_days: typeListed(update.expires_in_days, 'number').describe(
        'Expires this many days from now (0.01-3650); null removes the expiry.',
      ),
      max_clicks: typeListed(update.max_clicks, 'integer').describe(
        'Human clicks until the link expires (at least 1); null removes the cap.',
      ),
    }),
    accessInput: z.strictObject(linkAccess),
    statsInput: z.strictObject({
      ...linkAccess,
      days: StatsQuery.shape.days.describe('Days of statistics, 1-365, default 30.'),
    }),
    listOutput: withErrorBranch(LinkListSchema),
    statsOutput: withErrorBranch(StatsSchema),
    deleteOutput: withErrorBranch(
      z.object({ deleted: z.literal(true), id: z.uuid().describe('The deleted link.') }),
    ),
  };
}

function buildSchemas(config: ServiceConfig) {
  const domain = CreateLinkInput.shape.domain.describe(domainText(config));
  const shortenInput = CreateLinkInput.pick({
    url: true,
    alias: true,
    domain: true,
    title: true,
    expires_in_days: true,
    max_clicks: true,
    password: true,
  }).extend({
    alias: CreateLinkInput.shape.alias.describe(
      'Custom slug: 2-40 characters of a-z, 0-9, - and _ (lower-cased). Random when omitted.',
    ),
    domain,
    title: CreateLinkInput.shape.title.describe('A label for the link, max 200 characters.'),
    expires_in_days: typeListed(CreateLinkInput.shape.expires_in_days, 'number'),
    max_clicks: typeListed(CreateLinkInput.shape.max_clicks, 'integer'),
  });
  const checkInput = CheckAliasInput.extend({
    slug: CheckAliasInput.shape.slug.describe('The alias to check, e.g. summer-sale.'),
    domain: CheckAliasInput.shape.domain.describe(domainText(config)),
  });
  const reference = {
    short_url: z
      .string()
      .max(4096)
      .optional()
      .describe('The short link, e.g. https://s.example/abc123 (a preview URL ending in + works too).'),
    slug: z.string().max(64).optional().describe('Or the slug alone, e.g. abc123, with domain if needed.'),
    domain: z
      .string()
      .optional()
      .describe(`With slug: ${domainText(config)}`),
  };
  const qrInput = z.strictObject({
    ...reference,
    format: z.enum(['png', 'svg']).default('png').describe('png (image content) or svg (SVG text).'),
    size: z
      .number()
      .int()
      .min(64)
      .max(2048)
      .optional()
      .describe('PNG width in pixels, 64-2048, default 512.'),
  });
  const infoOutput = PublicLinkSchema.extend({
    stats: StatsSchema.optional().describe(
      `The last ${INFO_STATS_DAYS} days; only when statistics are public or your API key owns the link.`,
    ),
  });
  const qrOutput = z.object({
    short_url: z.url().describe('The link the QR code opens.'),
    format: z.enum(['png', 'svg']),
    url: z.url().describe('Where this service serves the same image, for embedding.'),
  });
  return {
    shortenInput,
    checkInput,
    infoInput: z.strictObject(reference),
    qrInput,
    linkOutput: withErrorBranch(LinkSchema),
    aliasOutput: withErrorBranch(AliasCheckSchema),
    infoOutput: withErrorBranch(infoOutput),
    qrOutput: withErrorBranch(qrOutput),
    ...manageSchemas(),
  };
}

/** The input and output schemas of the eight tools. */
export type ToolSchemas = ReturnType<typeof buildSchemas>;

const cache = new WeakMap<ServiceConfig, ToolSchemas>();

/**
 * The tools' zod schemas, derived from core's (`CreateLinkInput`, `CheckAliasInput`, `LinkSchema`, ...)
 * so that they cannot drift from the JSON API. Descriptions name the configured short domains, so the
 * schemas are built once per configuration (a server is created per HTTP request).
 */
export function toolSchemas(config: ServiceConfig): ToolSchemas {
  let schemas = cache.get(config);
  if (schemas === undefined) cache.set(config, (schemas = buildSchemas(config)));
  return schemas;
}
