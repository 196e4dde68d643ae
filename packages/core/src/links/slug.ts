import { domainError } from '../errors.js';
import type { RandomSource } from '../ports.js';
import { err, ok } from '../result.js';
import type { Result } from '../result.js';

/** A valid slug once normalised: 2-40 characters of a-z, 0-9, `-` and `_` (decisions §5). */
export const SLUG_PATTERN = /^[a-z0-9_-]{2,40}$/;

/** Paths the service itself uses, which no link may take (decisions §5); the operator can add more. */
export const RESERVED_SLUGS: readonly string[] = [
  'api',
  'mcp',
  'openapi.json',
  'llms.txt',
  'healthz',
  'static',
  'assets',
  'admin',
  'login',
  'logout',
  'account',
  'settings',
  'docs',
  'robots.txt',
  'favicon.ico',
  'sitemap.xml',
  'well-known',
  // decisions §24: the form a share sheet or a bookmarklet opens
  'new',
];

/** The length of a random slug until collisions make it longer. */
export const RANDOM_SLUG_LENGTH = 6;

const MAX_SLUG_LENGTH = 40;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** The largest multiple of the alphabet size that fits in a byte (7 × 36); bytes at or above are redrawn. */
const UNBIASED_LIMIT = 252;

/** Brings a new alias (or a reserved name) to the stored form: trimmed and lower-cased. */
export function normalizeSlug(raw: string): string {
  return raw.trim().toLowerCase();
}

/**
 * A slug as looked up (a path, a reference): trimmed, its case kept. Stores find it exactly first,
 * then without case (decisions §25), so new links, always lower-case, answer any case.
 */
export function lookupSlug(raw: string): string {
  return raw.trim();
}

/** An imported short code (decisions §25): 1-64 characters of A-Z, a-z, 0-9, `-` and `_`. */
export const CODE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Validates a custom alias and returns it normalised. A reserved name (built-in or in `extraReserved`,
 * compared normalised) fails with `slug_reserved` even when it would not match the pattern either
 * (`openapi.json`), so the caller learns the more useful reason; anything else off the pattern fails
 * with `slug_invalid`. Both errors carry the field `alias`.
 */
export function validateAlias(raw: string, extraReserved: readonly string[]): Result<string> {
  const slug = normalizeSlug(raw);
  if (RESERVED_SLUGS.includes(slug) || extraReserved.some((name) => normalizeSlug(name) === slug)) {
    return err(domainError('slug_reserved', undefined, 'alias'));
  }
  if (!SLUG_PATTERN.test(slug)) return err(domainError('slug_invalid', undefined, 'alias'));
  return ok(slug);
}

/**
 * Validates a short code brought from elsewhere (an import, an export read back): kept in its exact
 * case and length (decisions §25: YOURLS, Shlink and Bitly tell `2v` from `2V`), refused when it is off
 * {@link CODE_PATTERN} (`slug_invalid`) or a reserved name in any case (`slug_reserved`).
 */
export function validateCode(raw: string, extraReserved: readonly string[]): Result<string> {
  const code = raw.trim();
  const lower = code.toLowerCase();
  if (RESERVED_SLUGS.includes(lower) || extraReserved.some((name) => normalizeSlug(name) === lower)) {
    return err(domainError('slug_reserved', undefined, 'alias'));
  }
  if (!CODE_PATTERN.test(code)) return err(domainError('slug_invalid', undefined, 'alias'));
  return ok(code);
}

/**
 * Draws a random slug of `length` characters from a-z0-9, each equally likely: bytes of 252 and above
 * are discarded (rejection sampling) so that `byte % 36` has no modulo bias.
 *
 * @throws RangeError when `length` is not an integer from 1 to 40, or `random` returns no bytes.
 */
export function randomSlug(random: RandomSource, length = RANDOM_SLUG_LENGTH): string {
  if (!Number.isInteger(length) || length < 1 || length > MAX_SLUG_LENGTH) {
    throw new RangeError(`slug length must be an integer from 1 to ${MAX_SLUG_LENGTH}, got ${length}`);
  }
  let slug = '';
  while (slug.length < length) {
    // A few spare bytes make a second draw rare (each byte is rejected with probability 4/256).
    const bytes = random.bytes(length - slug.length + 2);
    if (bytes.length === 0) throw new RangeError('the random source returned no bytes');
    for (const byte of bytes) {
      if (byte < UNBIASED_LIMIT && slug.length < length) slug += ALPHABET.charAt(byte % ALPHABET.length);
    }
  }
  return slug;
}

/**
 * The random slug length for a creation attempt, counted from 0: {@link RANDOM_SLUG_LENGTH} for the first
 * three attempts, then one character more per attempt ("longer on repeated collision"), at most 40.
 */
export function slugLengthForAttempt(attempt: number): number {
  const extra = Math.max(0, Math.floor(attempt) - 2);
  return Math.min(MAX_SLUG_LENGTH, RANDOM_SLUG_LENGTH + extra);
}
