import { describe, expect, it } from 'vitest';
import { decodeLogCounters, encodeLogCounters } from '../src/index.js';
import type { CounterIncrement } from '../src/index.js';

const counters: CounterIncrement[] = [
  { linkId: 'l1', day: '2026-11-26', dimension: 'total', key: '07', count: 3 },
  {
    linkId: 'l1',
    day: '2026-11-26',
    dimension: 'referrer',
    key: 'say "hi"\\ \u2028 \u00e9.example',
    count: 2,
  },
  { linkId: 'l1', day: '2026-11-27', dimension: 'country', key: 'DE', count: 1 },
  { linkId: 'l1', day: '2026-11-27', dimension: 'unique', key: '', count: 12 },
];

describe("a visit-log entry's counters", () => {
  it('are the compact JSON of [day, dimension, key, count] arrays, whatever the key holds', () => {
    const text = encodeLogCounters(counters);
    expect(text).toBe(JSON.stringify(counters.map((c) => [c.day, c.dimension, c.key, c.count])));
    expect(decodeLogCounters('l1', text)).toEqual(counters);
  });

  it('are an empty array for no counters', () => {
    expect(encodeLogCounters([])).toBe('[]');
    expect(decodeLogCounters('l1', '[]')).toEqual([]);
  });
});

describe('a visit-log entry written before hourly counters', () => {
  it("reads its total and bots (key '') in the hour 00, other keys as written", () => {
    const text = JSON.stringify([
      ['2026-11-26', 'total', '', 4],
      ['2026-11-26', 'bots', '', 1],
      ['2026-11-26', 'unique', '', 2],
    ]);
    expect(decodeLogCounters('l1', text).map((c) => [c.dimension, c.key, c.count])).toEqual([
      ['total', '00', 4],
      ['bots', '00', 1],
      ['unique', '', 2],
    ]);
  });
});
