import { describe, expect, it } from 'vitest';
import { itGives } from './table.js';
import type { ErrorCode } from '../src/errors.js';
import {
  RESERVED_SLUGS,
  SLUG_PATTERN,
  normalizeSlug,
  randomSlug,
  slugLengthForAttempt,
  validateAlias,
} from '../src/links/slug.js';
import type { RandomSource } from '../src/ports.js';

/** A random source that hands out the given bytes in order, then zeros. */
function scripted(bytes: readonly number[]): RandomSource & { requested: number[] } {
  let position = 0;
  const requested: number[] = [];
  return {
    requested,
    bytes(size) {
      requested.push(size);
      const out = new Uint8Array(size);
      for (let i = 0; i < size; i++) out[i] = bytes[position++] ?? 0;
      return out;
    },
  };
}

describe('normalizeSlug', () => {
  itGives('turns %j into %j', normalizeSlug, [
    ['  My-Link ', 'my-link'],
    ['ABC', 'abc'],
    ['already_ok', 'already_ok'],
  ]);
});

describe('validateAlias', () => {
  it.each([
    ['ab', 'ab'],
    [' My_Alias-2 ', 'my_alias-2'],
    ['a'.repeat(40), 'a'.repeat(40)],
    ['apis', 'apis'],
    ['docs2', 'docs2'],
  ])('accepts %j as %j', (raw, slug) => {
    expect(validateAlias(raw, [])).toEqual({ ok: true, value: slug });
  });

  it.each<[string, ErrorCode]>([
    ['', 'slug_invalid'],
    ['a', 'slug_invalid'],
    ['a'.repeat(41), 'slug_invalid'],
    ['has space', 'slug_invalid'],
    ['dot.ted', 'slug_invalid'],
    ['slash/slug', 'slug_invalid'],
    ['ümlaut', 'slug_invalid'],
    ['plus+', 'slug_invalid'],
    ['api', 'slug_reserved'],
    [' API ', 'slug_reserved'],
    ['openapi.json', 'slug_reserved'],
    ['robots.txt', 'slug_reserved'],
    ['well-known', 'slug_reserved'],
  ])('rejects %j with %s', (raw, code) => {
    const result = validateAlias(raw, []);
    expect(result.ok ? 'ok' : result.error.code).toBe(code);
  });

  it.each(RESERVED_SLUGS)('reserves %s', (slug) => {
    const result = validateAlias(slug, []);
    expect(result.ok ? 'ok' : result.error.code).toBe('slug_reserved');
  });

  it.each([
    ['pricing', ['pricing']],
    ['Pricing', [' PRICING ']],
    ['x', ['x']],
  ])('reserves %j from the operator list %j', (raw, extra) => {
    const result = validateAlias(raw, extra);
    expect(result.ok ? 'ok' : result.error.code).toBe('slug_reserved');
  });

  it('reserves only the names on the operator list, not every alias once the list has one', () => {
    expect(validateAlias('my-link', ['pricing', 'jobs'])).toEqual({ ok: true, value: 'my-link' });
  });

  it('puts errors on the field alias', () => {
    for (const raw of ['!', 'api']) {
      const result = validateAlias(raw, []);
      expect(result.ok ? null : result.error.field).toBe('alias');
    }
  });
});

describe('randomSlug', () => {
  it('draws six characters of a-z0-9 by default', () => {
    const slug = randomSlug(scripted([0, 25, 26, 35, 36, 251]));
    expect(slug).toBe('az09a9');
    expect(slug).toMatch(SLUG_PATTERN);
  });

  it('skips bytes of 252 and above so no character is favoured', () => {
    const random = scripted([252, 255, 1, 253, 2, 254, 3]);
    expect(randomSlug(random, 3)).toBe('bcd');
    expect(random.requested.length).toBeGreaterThan(1);
  });

  it('draws the requested length, from 1 to 40', () => {
    expect(randomSlug(scripted([]), 9)).toBe('aaaaaaaaa');
    expect(randomSlug(scripted([]), 1)).toBe('a');
    expect(randomSlug(scripted([]), 40)).toBe('a'.repeat(40));
  });

  it('asks for the bytes of the missing characters and two spare ones at a time', () => {
    const random = scripted([1, 252, 253, 254, 255, 2, 3]);
    expect(randomSlug(random, 3)).toBe('bcd');
    expect(random.requested).toEqual([5, 4]);
  });

  it('maps the 252 accepted byte values onto each of the 36 characters exactly 7 times', () => {
    const counts = new Map<string, number>();
    for (let byte = 0; byte < 252; byte++) {
      const char = randomSlug(scripted([byte]), 1);
      counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(counts.size).toBe(36);
    expect(new Set(counts.values())).toEqual(new Set([7]));
  });

  it.each([0, -1, 41, 2.5])('refuses the length %s', (length) => {
    expect(() => randomSlug(scripted([]), length)).toThrow(RangeError);
  });

  it('refuses a random source that returns no bytes', () => {
    expect(() => randomSlug({ bytes: () => new Uint8Array(0) })).toThrow(RangeError);
  });
});

describe('slugLengthForAttempt', () => {
  itGives('gives attempt %i a length of %i', slugLengthForAttempt, [
    [0, 6],
    [1, 6],
    [2, 6],
    [3, 7],
    [4, 8],
    [10, 14],
    [1000, 40],
    [-1, 6],
  ]);
});
