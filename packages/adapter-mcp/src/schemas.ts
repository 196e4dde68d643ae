import type { ServiceConfig } from '@shortener/core';
import {
  AliasCheckSchema,
  CheckAliasInput,
  CreateLinkInput,
  LinkListSchema,
  LinkSchema,
  ListLinksQuery,
  PublicLinkSchema,
  StatsAcrossSchema,
  StatsRangeFields,
  StatsSchema,
  TAG_RULE,
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

/** A number as text: what older clients and models send for a number (`"5"`, `"0.5"`). */
const NUMERIC_TEXT = /^\s*-?\d+(?:\.\d+)?\s*$/;

interface JsonType {
  readonly type?: unknown;
  readonly const?: unknown;
  readonly anyOf?: readonly JsonType[];
}

/** A schema and its `anyOf` branches, nested ones too (a union of literals is nested there). */
const branchesOf = (json: JsonType): JsonType[] => [json, ...(json.anyOf ?? []).flatMap(branchesOf)];

/** `integer` or `number` when `field` takes a number (a choice of whole numbers: integer), else null. */
function numberTypeOf(field: z.ZodType): 'integer' | 'number' | null {
  const branches = branchesOf(z.toJSONSchema(field, { io: 'input', unrepresentable: 'any' }) as JsonType);
  const types = branches.flatMap((branch) => [branch.type].flat());
  if (types.includes('integer')) return 'integer';
  if (!types.includes('number')) return null;
  const numbers = branches.filter((branch) => branch.type === 'number');
  return numbers.every((branch) => Number.isInteger(branch.const)) ? 'integer' : 'number';
}

/**
 * An optional tool input as generic clients and models send it (decisions §13): null is absent, unless
 * the field gives null a meaning (update_link: remove); a number also comes as a string of digits, and
 * is declared with a plain type list (`["integer", "null"]`), since generic clients (the MCP Inspector)
 * read `type` to decide how to send a value typed as text and zod alone says only `anyOf`. Any other
 * string stays invalid, with zod's message. A required input is left as it is.
 */
function forgiving(field: z.ZodType): z.ZodType {
  if (!z.safeParse(field, undefined).success) return field;
  const keepsNull = z.safeParse(field, null).success;
  const type = numberTypeOf(field);
  if (type === null && keepsNull) return field;
  const input = z.preprocess((value) => {
    if (value === null) return keepsNull ? null : undefined;
    return type !== null && typeof value === 'string' && NUMERIC_TEXT.test(value) ? Number(value) : value;
  }, field);
  return type === null ? input : input.meta({ type: [type, 'null'] });
}

/**
 * A tool's input object with every optional input {@link forgiving}. The parsed value's type is the
 * original object's: only what is accepted on the way in changes.
 */
function toolInput<T extends z.ZodObject>(schema: T): T {
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([name, field]) => [name, forgiving(field as z.ZodType)]),
  );
  return z.strictObject(shape) as unknown as T;
}

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

/** The range of statistics: core's `from`, `to` and `tz`, and `days` as a JSON number (no default: core's). */
const statsRange = {
  days: z
    .number()
    .int()
    .min(1)
    .max(365)
    .optional()
    .describe('The last days, 1-365 (default 30); not with from.'),
  ...StatsRangeFields,
};

function manageSchemas() {
  const update = UpdateLinkInput.shape;
  // `limit` and `days` are numbers here, not the query schemas' coerced text: coercion takes null for 0
  // and any word for NaN, and a tool's numbers arrive as JSON
  return {
    listInput: toolInput(
      z.strictObject({
        q: ListLinksQuery.shape.q,
        limit: z.number().int().min(1).max(200).optional().describe('Links per page, 1-200, default 50.'),
        cursor: ListLinksQuery.shape.cursor,
        health: ListLinksQuery.shape.health,
        tags: z
          .array(z.string().max(100))
          .max(10)
          .optional()
          .describe(
            'Only links carrying every one of these tags (compared without case: `café menu` finds `Café Menu`).',
          ),
      }),
    ),
    updateInput: toolInput(
      z.strictObject({
        ...linkAccess,
        ...update,
        expires_in_days: update.expires_in_days.describe(
          'Expires this many days from now (0.01-3650); null removes the expiry.',
        ),
        max_clicks: update.max_clicks.describe(
          'Human clicks until the link expires (at least 1); null removes the cap.',
        ),
      }),
    ),
    accessInput: toolInput(z.strictObject(linkAccess)),
    statsInput: toolInput(z.strictObject({ ...linkAccess, ...statsRange })),
    tagStatsInput: toolInput(
      z.strictObject({
        tag: z
          .string()
          .max(100)
          .describe(`A tag of your links (${TAG_RULE}), compared after NFKC, trimming and lower-casing.`),
        ...statsRange,
      }),
    ),
    listOutput: withErrorBranch(LinkListSchema),
    statsOutput: withErrorBranch(StatsSchema),
    tagStatsOutput: withErrorBranch(StatsAcrossSchema),
    deleteOutput: withErrorBranch(
      z.object({ deleted: z.literal(true), id: z.uuid().describe('The deleted link.') }),
    ),
  };
}

/** `shorten_url`'s input: the fields of CreateLinkInput an agent uses, described for it. */
function shortenInput(config: ServiceConfig) {
  return CreateLinkInput.pick({
    url: true,
    alias: true,
    domain: true,
    title: true,
    expires_in_days: true,
    starts_at: true,
    max_clicks: true,
    password: true,
    tags: true,
    rules: true,
    forward_query: true,
    redirect_status: true,
    crawlable: true,
    expired_url: true,
    preview: true,
    split: true,
  }).extend({
    alias: CreateLinkInput.shape.alias.describe(
      'Custom slug: 2-40 characters of a-z, 0-9, - and _ (lower-cased). Random when omitted.',
    ),
    domain: CreateLinkInput.shape.domain.describe(domainText(config)),
    title: CreateLinkInput.shape.title.describe('A label for the link, max 200 characters.'),
  });
}

/** How the lookup tools name a link: its short URL, or its slug (and domain). */
function referenceFields(config: ServiceConfig) {
  return {
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
}

/** `qr_code`'s input and output. */
function qrSchemas(config: ServiceConfig) {
  const input = z.strictObject({
    ...referenceFields(config),
    format: z.enum(['png', 'svg']).default('png').describe('png (image content) or svg (SVG text).'),
    size: z
      .number()
      .int()
      .min(64)
      .max(2048)
      .optional()
      .describe('PNG width in pixels, 64-2048, default 512.'),
  });
  const output = z.object({
    short_url: z.url().describe('The link the QR code opens.'),
    format: z.enum(['png', 'svg']),
    url: z.url().describe('Where this service serves the same image, for embedding.'),
  });
  return { qrInput: toolInput(input), qrOutput: withErrorBranch(output) };
}

function buildSchemas(config: ServiceConfig) {
  const checkInput = CheckAliasInput.extend({
    slug: CheckAliasInput.shape.slug.describe('The alias to check, e.g. summer-sale.'),
    domain: CheckAliasInput.shape.domain.describe(domainText(config)),
  });
  const infoOutput = PublicLinkSchema.extend({
    stats: StatsSchema.optional().describe(
      `The last ${INFO_STATS_DAYS} days; only when statistics are public or your API key owns the link.`,
    ),
  });
  return {
    shortenInput: toolInput(shortenInput(config)),
    checkInput: toolInput(checkInput),
    infoInput: toolInput(z.strictObject(referenceFields(config))),
    linkOutput: withErrorBranch(LinkSchema),
    aliasOutput: withErrorBranch(AliasCheckSchema),
    infoOutput: withErrorBranch(infoOutput),
    ...qrSchemas(config),
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
