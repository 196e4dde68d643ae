import { REDIRECT_STATUSES } from '../schemas.js';
import type { RedirectStatus } from './link.js';
import { RULE_DEVICES, RULE_OSES, MAX_RULES } from './rules.js';
import { isPermanent } from './routing.js';
import { MAX_TAGS } from './tags.js';

// The words help texts, form docs, tool descriptions and llms.txt print for core's lists and limits,
// built from the constants so none of them retypes one.

/** `a, b or c`. */
export function orList(items: readonly (string | number)[]): string {
  const words = items.map(String);
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** The redirect statuses, the default (302) first, then the other temporary ones, then the permanent. */
export const STATUSES_IN_ORDER: readonly RedirectStatus[] = [...REDIRECT_STATUSES].sort(
  (a, b) => Number(a !== 302) - Number(b !== 302) || Number(isPermanent(a)) - Number(isPermanent(b)) || a - b,
);

/** `302, 307, 301 or 308`. */
export const REDIRECT_STATUS_WORDS = orList(STATUSES_IN_ORDER);

/** `301 or 308`: the statuses refused on a link with rules, a cap, an expiry or a password. */
export const PERMANENT_STATUS_WORDS = orList(STATUSES_IN_ORDER.filter(isPermanent));

/** `mobile|tablet|desktop` and `ios|android|windows|macos|linux`: a rule's device and OS values. */
export const RULE_DEVICE_WORDS = RULE_DEVICES.join('|');
export const RULE_OS_WORDS = RULE_OSES.join('|');

/** `at most 20 rules` and `at most 10 tags`. */
export const RULES_LIMIT_WORDS = `at most ${MAX_RULES} rules`;
export const TAGS_LIMIT_WORDS = `at most ${MAX_TAGS} tags`;
