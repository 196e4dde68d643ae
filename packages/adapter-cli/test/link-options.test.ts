import { describe, expect, it } from 'vitest';
import { createInputOf, updateInputOf } from '../src/commands/link-options.js';

describe('--starts-at (decisions §25)', () => {
  it('is taken by shorten and links update, and --no-starts-at removes the start', () => {
    const at = '2031-02-03T04:05:06Z';
    expect(createInputOf('https://example.com/', { startsAt: at }).starts_at).toBe(at);
    expect(updateInputOf({ startsAt: at }).starts_at).toBe(at);
    expect(updateInputOf({ startsAt: false })).toEqual({ starts_at: null });
  });

  it('refuses a start that is no ISO 8601 date-time, naming the flag’s field', () => {
    expect(() => createInputOf('https://example.com/', { startsAt: 'tomorrow' })).toThrow(/starts_at/);
  });
});
