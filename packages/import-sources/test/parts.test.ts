import { describe, expect, it } from 'vitest';
import { parseInstant } from '../src/dates.js';
import { splitShortUrl } from '../src/short-url.js';

describe('parseInstant', () => {
  it.each([
    ['2024-01-05T10:00:00Z', '2024-01-05T10:00:00.000Z'],
    ['2024-01-05T10:00:00+01:00', '2024-01-05T09:00:00.000Z'],
    ['2024-01-05T10:00:00+0000', '2024-01-05T10:00:00.000Z'],
    ['2024-01-05T10:00:00.123456-05', '2024-01-05T15:00:00.123Z'],
    ['2024-01-05 10:00:00', '2024-01-05T10:00:00.000Z'],
    ['2024-01-05 10:00 UTC', '2024-01-05T10:00:00.000Z'],
    ['2024-01-05', '2024-01-05T00:00:00.000Z'],
  ])('reads %s', (text, iso) => {
    expect(parseInstant(text)).toBe(Date.parse(iso));
  });

  it.each(['yesterday', '03/04/2024', '2024-02-30', '2024-13-01', '2024-01-05T25:00:00Z', ''])(
    'refuses %j',
    (text) => {
      expect(parseInstant(text)).toBeNull();
    },
  );
});

describe('splitShortUrl', () => {
  it.each([
    ['https://Old.Example/abc', { domain: 'old.example', code: 'abc' }],
    ['bit.ly/3xYz', { domain: 'bit.ly', code: '3xYz' }],
    ['https://s.test/multi/seg%20ment/', { domain: 's.test', code: 'multi/seg ment' }],
    ['https://s.test/', { domain: 's.test', code: null }],
    ['/abc/', { domain: null, code: 'abc' }],
    ['abc', { domain: null, code: 'abc' }],
  ])('takes %s apart', (value, parts) => {
    expect(splitShortUrl(value)).toEqual({ originalShortUrl: value, ...parts });
  });
});
