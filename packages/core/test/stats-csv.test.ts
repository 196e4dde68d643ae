import { describe, expect, it } from 'vitest';
import { csvCells, restoreCell, STATS_CSV_COLUMNS, statsCsvRows } from '../src/index.js';
import type { StatsAcrossView } from '../src/index.js';

const stats: StatsAcrossView = {
  total: 3,
  unique: 2,
  bots: 1,
  imported: 7,
  days: 2,
  from: '2026-01-01',
  to: '2026-01-02',
  tz: 'Europe/Vienna',
  dimensions_tz: 'UTC',
  by_day: [
    { key: '2026-01-01', count: 1 },
    { key: '2026-01-02', count: 2 },
  ],
  countries: [{ key: 'AT', count: 3 }],
  referrers: [
    { key: '-evil.example', count: 2 },
    { key: 'a,"b".example', count: 1 },
  ],
  devices: [],
  browsers: [],
  rules: [],
  variants: [{ key: '1', count: 2 }],
  links: [{ id: 'l1', short_url: 'https://s.example/a', clicks: 3 }],
};

describe('statistics as CSV cells', () => {
  it('are total, unique, bots and imported, then every list under its name, by_day and links included', () => {
    expect(csvCells(STATS_CSV_COLUMNS, statsCsvRows(stats))).toEqual([
      ['dimension', 'key', 'count'],
      ['total', '', '3'],
      ['unique', '', '2'],
      ['bots', '', '1'],
      ['imported', '', '7'],
      ['by_day', '2026-01-01', '1'],
      ['by_day', '2026-01-02', '2'],
      ['countries', 'AT', '3'],
      ['referrers', "'-evil.example", '2'],
      ['referrers', 'a,"b".example', '1'],
      ['variants', '1', '2'],
      ['links', 'https://s.example/a', '3'],
    ]);
  });

  it('neutralise every formula start, and restore it', () => {
    for (const text of ['=1+1', '+1', '-1', '@A1', '\tx', '\rx', "'=x"]) {
      const [, [cell]] = csvCells(['v'], [{ v: text }]) as [string[], string[]];
      expect(cell?.startsWith("'")).toBe(true);
      expect(restoreCell(cell ?? '')).toBe(text);
    }
    expect(csvCells(['v', 'w'], [{ v: null, w: true }])[1]).toEqual(['', 'true']);
  });
});
