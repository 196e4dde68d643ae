import { z } from 'zod';
import { accountFor } from '../accounts/permissions.js';
import type { Caller, CoreDeps } from '../deps.js';
import type { Result } from '../result.js';
import { ok } from '../result.js';

/** The most tags one link carries (decisions §15). */
export const MAX_TAGS = 10;

/**
 * A tag's key: NFKC, trimmed, inner spaces collapsed to one, lower-cased (decisions §25). Two tags with
 * one key are one tag: `Café Menu` and `café  menu` are filtered, counted and kept once as the same.
 */
export const tagKey = (tag: string): string =>
  tag.normalize('NFKC').trim().replace(/\s+/gu, ' ').toLowerCase();

/** A tag's key: 1-32 letters and digits of any script (and their marks), spaces, `-`, `_` and `.`. */
const TAG_KEY = /^[\p{L}\p{M}\p{N} ._-]{1,32}$/u;

/** What a tag is, as error messages and help texts say it. */
export const TAG_RULE = 'A tag is 1-32 letters or digits of any script, spaces, -, _ and .';

/** Whether `text` is a tag (its key is one: decisions §25). */
export const isTag = (text: string): boolean => TAG_KEY.test(tagKey(text));

/**
 * The tags as stored: as the source spells them (trimmed, inner spaces collapsed), each key once, in
 * the order first given, the first spelling of a key kept.
 */
export function normalizeTags(tags: readonly string[]): string[] {
  const kept = new Map<string, string>();
  for (const tag of tags) {
    const key = tagKey(tag);
    if (!kept.has(key)) kept.set(key, tag.trim().replace(/\s+/gu, ' '));
  }
  return [...kept.values()];
}

/** The keys of a link's tags, each once: what filters and counts compare. */
export const tagKeysOf = (tags: readonly string[]): string[] => [...new Set(tags.map(tagKey))];

/**
 * The `tags` field of create, bulk, update and import: 0-10 tags, each kept as spelled and compared by
 * its key ({@link tagKey}); anything else is refused (`parseInput` answers `validation_error` on `tags`).
 */
export const TagsField = z
  .array(
    z
      .string()
      .max(100)
      .refine(isTag, TAG_RULE)
      .meta({ examples: ['summer', 'Café Menu', '東京'] }),
  )
  .max(MAX_TAGS)
  .transform(normalizeTags)
  .describe(
    '0-10 tags, each 1-32 letters or digits of any script, spaces, -, _ and . (kept as spelled; compared after NFKC, trimming, collapsing spaces and lower-casing).',
  );

/** The input fields whose schema failures are `validation_error` rather than `invalid_request`. */
export const VALIDATION_ERROR_FIELDS: ReadonlySet<string> = new Set(['tags']);

/** The `tag` filter of a listing: one value or several (links carrying all of them), as keys. */
export const TagFilterField = z
  .union([z.string().max(100), z.array(z.string().max(100)).max(MAX_TAGS)])
  .transform((value) => tagKeysOf(typeof value === 'string' ? [value] : value).filter((tag) => tag !== ''))
  .describe(
    'Only links carrying this tag (compared as tags are: `café menu` finds `Café Menu`); repeat it for links carrying all of them.',
  );

/** One tag of the caller's links (one spelling of its key), with how many links carry it and their clicks. */
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
  const account = accountFor(caller, 'links.read');
  if (!account.ok) return account;
  await deps.settleVisits?.(); // the clicks include every visit served
  return ok(await deps.links.tagCounts(account.value));
}
