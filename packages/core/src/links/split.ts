import { z } from 'zod';
import type { Result } from '../result.js';
import { ok } from '../result.js';
import type { UtmParams } from '../urls/utm.js';
import type { UrlPolicy } from '../urls/validate-url.js';
import { MAX_URL_LENGTH } from '../urls/validate-url.js';
import { checkDestination } from './rules.js';

/** The fewest and the most entries a split holds, and the sum of their weights (decisions §19). */
export const SPLIT_MIN_ENTRIES = 2;
export const SPLIT_MAX_ENTRIES = 5;
export const SPLIT_TOTAL_WEIGHT = 100;

/** One destination of a split test: its share of the visitors is `weight` out of 100. */
export interface SplitEntry {
  readonly url: string;
  readonly weight: number;
}

/** One entry as given. */
export const SplitEntryInput = z
  .strictObject({
    url: z.string().min(1).meta({ maxLength: MAX_URL_LENGTH }).describe('A destination, checked like url.'),
    weight: z.number().int().min(1).max(SPLIT_TOTAL_WEIGHT).describe('Its share of the visitors, 1-100.'),
  })
  .meta({ id: 'SplitEntryInput' });
export type SplitEntryInput = z.infer<typeof SplitEntryInput>;

/** The `split` field of create, bulk, update and import. */
export const SplitField = z
  .array(SplitEntryInput)
  .min(SPLIT_MIN_ENTRIES)
  .max(SPLIT_MAX_ENTRIES)
  .refine((entries) => entries.reduce((sum, e) => sum + e.weight, 0) === SPLIT_TOTAL_WEIGHT, {
    message: `The weights must sum to ${SPLIT_TOTAL_WEIGHT}.`,
  })
  .describe(
    `A split test: ${SPLIT_MIN_ENTRIES}-${SPLIT_MAX_ENTRIES} destinations with integer weights summing to ` +
      `${SPLIT_TOTAL_WEIGHT}. Visitors no rule matches are sent to one, chosen by their daily visitor hash ` +
      '(no cookie, nothing stored: the same one all day). Refused with a permanent redirect status.',
  );

/** One entry as the Link object shows it. */
export const SplitEntrySchema = z
  .object({ url: z.url(), weight: z.number().int() })
  .meta({ id: 'SplitEntry' });

/** The split as the Link object shows it. */
export const SplitViewSchema = z.array(SplitEntrySchema).nullable().describe('The split test, or null.');

/** The split as stored: each URL checked as a rule's is (field `split.N.url`); none given is null. */
export function checkSplit(
  entries: readonly SplitEntryInput[] | null | undefined,
  policy: UrlPolicy,
  utm: UtmParams,
): Result<SplitEntry[] | null> {
  if (entries === undefined || entries === null) return ok(null);
  const checked: SplitEntry[] = [];
  for (const [index, entry] of entries.entries()) {
    const url = checkDestination(entry.url, policy, utm, `split.${index}.url`);
    if (!url.ok) return url;
    checked.push({ url: url.value, weight: entry.weight });
  }
  return ok(checked);
}

/**
 * The entry a visitor goes to: the first 32 bits of their visitor hash (hex) as a point in [0, 100),
 * and the entry whose share of the weights holds it. Pure: the same hash picks the same entry.
 */
export function pickVariant(split: readonly SplitEntry[], visitorHash: string): number {
  const point = (Number.parseInt(visitorHash.slice(0, 8), 16) / 0x1_0000_0000) * SPLIT_TOTAL_WEIGHT;
  let reached = 0;
  for (let i = 0; i < split.length; i++) {
    reached += split[i]!.weight;
    if (point < reached) return i;
  }
  return split.length - 1;
}
