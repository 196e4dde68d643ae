import { z } from 'zod';
import type { Caller, CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';

/** The most tags one link carries (decisions §15). */
export const MAX_TAGS = 10;

/** A tag once lower-cased: 1-32 characters of a-z, 0-9, `-` and `_`. */
const TAG = /^[a-z0-9_-]{1,32}$/;

/** Whether `text`, lower-cased, is a tag. */
export const isTag = (text: string): boolean => TAG.test(text.toLowerCase());

/** The tags as stored: lower-cased, each once, in the order first given. */
export function normalizeTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((tag) => tag.toLowerCase()))];
}

/**
 * The `tags` field of create, bulk, update and import. Input is lower-cased; anything else than 0-10
 * tags of 1-32 characters of a-z, 0-9, `-` and `_` is refused (`parseInput` answers `validation_error`
 * on `tags`).
 */
export const TagsField = z
  .array(
    z
      .string()
      .refine(isTag, 'A tag is 1-32 characters of a-z, 0-9, - and _.')
      .meta({ pattern: '^[A-Za-z0-9_-]{1,32}$', examples: ['summer'] }),
  )
  .max(MAX_TAGS)
  .transform(normalizeTags)
  .describe('0-10 tags, each 1-32 characters of a-z, 0-9, - and _ (lower-cased).');

/** The input fields whose schema failures are `validation_error` rather than `invalid_request`. */
export const VALIDATION_ERROR_FIELDS: ReadonlySet<string> = new Set(['tags']);

/** The `tag` filter of a listing: one value or several (links carrying all of them). */
export const TagFilterField = z
  .union([z.string().max(32), z.array(z.string().max(32)).max(MAX_TAGS)])
  .transform((value) =>
    normalizeTags(typeof value === 'string' ? [value] : value).filter((tag) => tag !== ''),
  )
  .describe('Only links carrying this tag; repeat it for links carrying all of them.');

/** One tag of the caller's links, with how many links carry it and their clicks. */
export interface TagCount {
  readonly name: string;
  readonly links: number;
  readonly clicks: number;
}

/** `GET /api/v1/tags`: the tags of the caller's links with their link and click counts (decisions §15). */
export async function listTags(
  deps: Pick<CoreDeps, 'links' | 'settleVisits'>,
  caller: Caller,
): Promise<Result<TagCount[]>> {
  if (caller.accountId === null) return err(domainError('unauthorized', 'An API key is required.'));
  await deps.settleVisits?.(); // the clicks include every visit served
  return ok(await deps.links.tagCounts(caller.accountId));
}
