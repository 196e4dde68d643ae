import { z } from 'zod';
import { isCountryCode } from './countries.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { UtmParams } from '../urls/utm.js';
import { UTM_KEYS, mergeUtm } from '../urls/utm.js';
import type { UrlPolicy } from '../urls/validate-url.js';
import { MAX_URL_LENGTH, validateTargetUrl } from '../urls/validate-url.js';

/** The most rules one link holds (decisions §15). */
export const MAX_RULES = 20;

/** The device classes a rule can ask for. */
export const RULE_DEVICES = ['mobile', 'tablet', 'desktop'] as const;
export type RuleDevice = (typeof RULE_DEVICES)[number];

/** The operating systems a rule can ask for. */
export const RULE_OSES = ['ios', 'android', 'windows', 'macos', 'linux'] as const;
export type RuleOs = (typeof RULE_OSES)[number];

/** The conditions of a rule, as stored: lists (any value matches), times in epoch milliseconds. */
export interface RuleConditions {
  readonly device?: readonly RuleDevice[];
  readonly os?: readonly RuleOs[];
  /** ISO 3166-1 alpha-2 codes, upper-case. */
  readonly country?: readonly string[];
  /**
   * Languages as `language` or `language-REGION` (`de`, `en-US`; decisions §25): a bare language matches
   * any visitor reading it, one with a region only visitors asking for that region.
   */
  readonly language?: readonly string[];
  /** Query parameters the visitor's request must carry with exactly these values. */
  readonly query?: Readonly<Record<string, string>>;
  readonly after?: number;
  readonly before?: number;
}

/** One redirect rule: when every condition holds, the visitor goes to `url` (checked, UTM merged). */
export interface RedirectRule {
  readonly when: RuleConditions;
  readonly url: string;
}

/** A rule's language: a primary subtag, maybe with a region (`en`, `en-US`, `es-419`; `_` taken for `-`). */
const LANGUAGE_RANGE = /^[A-Za-z]{2,8}(?:[-_](?:[A-Za-z]{2}|\d{3}))?$/;

/** Whether `text` is a language a rule can ask for: `en`, `en-US`, `en_US`, `es-419`. */
export const isRuleLanguage = (text: string): boolean => LANGUAGE_RANGE.test(text);

/** A rule's language as stored: the language lower-case, the region upper-case (`en-US`). */
export function ruleLanguageOf(range: string): string {
  const [language = '', region] = range.split(/[-_]/);
  return region === undefined ? language.toLowerCase() : `${language.toLowerCase()}-${region.toUpperCase()}`;
}

const oneOrMany = <T extends z.ZodType>(item: T) => z.union([item, z.array(item).min(1).max(50)]);
const instant = z.iso.datetime({ offset: true });

/** The `when` of a rule as given. */
export const RuleWhenInput = z
  .strictObject({
    device: oneOrMany(z.enum(RULE_DEVICES)).optional(),
    os: oneOrMany(z.enum(RULE_OSES)).optional(),
    country: oneOrMany(
      z
        .string()
        .regex(/^[A-Za-z]{2}$/)
        .refine(isCountryCode, 'Not an assigned ISO 3166-1 alpha-2 country code.'),
    )
      .optional()
      .describe('ISO 3166-1 alpha-2 country codes (assigned ones, and XK).'),
    language: oneOrMany(z.string().regex(LANGUAGE_RANGE))
      .optional()
      .describe(
        'Languages (`de`) or languages of a region (`en-US`), matched against Accept-Language entries with q > 0: `en` matches any English, `en-US` only that region.',
      ),
    query: z
      .record(z.string().min(1).max(100), z.string().max(500))
      .optional()
      .describe('Query parameters that must have exactly these values.'),
    after: instant.optional().describe('The rule holds from this time on.'),
    before: instant.optional().describe('The rule holds until this time.'),
  })
  .describe('Conditions that must all hold; each list matches when any of its values does.');
export type RuleWhenInput = z.infer<typeof RuleWhenInput>;

/** One rule as given. */
export const RuleInput = z
  .strictObject({
    when: RuleWhenInput,
    url: z.string().min(1).meta({ maxLength: MAX_URL_LENGTH }).describe('Destination when `when` holds.'),
  })
  .meta({ id: 'RedirectRuleInput' });
export type RuleInput = z.infer<typeof RuleInput>;

/** The `rules` field of create, bulk, update and import: at most 20, in order. */
export const RulesField = z
  .array(RuleInput)
  .max(MAX_RULES)
  .describe('Redirect rules, in order: the first whose conditions all hold picks the destination.');

/** A rule as the Link object shows it: lists, ISO times. */
export const RuleViewSchema = z
  .object({
    when: z.object({
      device: z.array(z.enum(RULE_DEVICES)).optional(),
      os: z.array(z.enum(RULE_OSES)).optional(),
      country: z.array(z.string()).optional(),
      language: z.array(z.string()).optional(),
      query: z.record(z.string(), z.string()).optional(),
      after: z.iso.datetime().optional(),
      before: z.iso.datetime().optional(),
    }),
    url: z.url(),
  })
  .meta({ id: 'RedirectRule' });
export type RuleView = z.infer<typeof RuleViewSchema>;

const listOf = <T>(value: T | readonly T[]): T[] => (Array.isArray(value) ? [...value] : [value as T]);

/** The stored conditions of a rule as given. */
function conditionsOf(when: RuleWhenInput): RuleConditions {
  const conditions: { -readonly [K in keyof RuleConditions]: RuleConditions[K] } = {};
  if (when.device !== undefined) conditions.device = [...new Set(listOf(when.device))];
  if (when.os !== undefined) conditions.os = [...new Set(listOf(when.os))];
  if (when.country !== undefined) conditions.country = listOf(when.country).map((c) => c.toUpperCase());
  if (when.language !== undefined)
    conditions.language = [...new Set(listOf(when.language).map(ruleLanguageOf))];
  if (when.query !== undefined) conditions.query = { ...when.query };
  if (when.after !== undefined) conditions.after = Date.parse(when.after);
  if (when.before !== undefined) conditions.before = Date.parse(when.before);
  return conditions;
}

/** Whether a rule's conditions hold anything (an empty list or query is no condition). */
function hasCondition(when: RuleConditions): boolean {
  return Object.values(when).some((value) =>
    typeof value === 'number'
      ? true
      : Array.isArray(value)
        ? value.length > 0
        : Object.keys(value ?? {}).length > 0,
  );
}

/**
 * The rules as stored: each URL through every check a link's URL passes (field `rules.N.url`), with
 * the link's UTM parameters merged in; a rule without a condition is refused (`rules.N.when`): it would
 * match everyone and hide the rules after it.
 */
export function checkRules(
  rules: readonly RuleInput[],
  policy: UrlPolicy,
  utm: UtmParams,
): Result<RedirectRule[]> {
  const checked: RedirectRule[] = [];
  for (const [index, rule] of rules.entries()) {
    const when = conditionsOf(rule.when);
    if (!hasCondition(when)) {
      const message = `Rule ${index + 1} has no condition: it would match everyone and hide the rules after it.`;
      return err(domainError('invalid_request', message, `rules.${index}.when`));
    }
    const url = checkDestination(rule.url, policy, utm, `rules.${index}.url`);
    if (!url.ok) return url;
    checked.push({ when, url: url.value });
  }
  return ok(checked);
}

/**
 * A further destination of a link (a rule's, a split entry's): through every check a link's URL passes,
 * with the link's UTM parameters merged in; a failure names `field`.
 */
export function checkDestination(
  raw: string,
  policy: UrlPolicy,
  utm: UtmParams,
  field: string,
): Result<string> {
  const url = validateTargetUrl(raw, policy);
  if (!url.ok) return err({ ...url.error, field });
  const merged = Object.keys(utm).length === 0 ? url.value : mergeUtm(url.value, utm);
  if (merged.length > MAX_URL_LENGTH) return err(domainError('invalid_url', undefined, field));
  return ok(merged);
}

/** The UTM parameters a stored destination carries: those merged in at creation. */
export function utmOf(url: string): UtmParams {
  const utm: { -readonly [K in keyof UtmParams]: string } = {};
  const params = new URL(url).searchParams;
  for (const key of UTM_KEYS) {
    const value = params.get(key);
    if (value !== null && value !== '') utm[key] = value;
  }
  return utm;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A stored rule as the Link object shows it. */
export function toRuleView(rule: RedirectRule): RuleView {
  const { after, before, ...lists } = rule.when;
  return {
    when: {
      ...(lists as Omit<RuleView['when'], 'after' | 'before'>),
      ...(after === undefined ? {} : { after: iso(after) }),
      ...(before === undefined ? {} : { before: iso(before) }),
    },
    url: rule.url,
  };
}
