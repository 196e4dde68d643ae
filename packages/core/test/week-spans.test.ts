import { describe, expect, it } from 'vitest';
import { addDays, weekSpans, weeksAndEdges } from '../src/index.js';
import type { DaySpan } from '../src/index.js';

// 2026-01-05 is a Monday
describe('weeksAndEdges', () => {
  it.each([
    [
      '2026-01-05',
      '2026-01-11',
      ['2026-01-05', '2026-01-05', '2026-01-05', '2026-01-04', '2026-01-12', '2026-01-11'],
    ],
    [
      '2026-01-01',
      '2026-01-31',
      ['2026-01-05', '2026-01-19', '2026-01-01', '2026-01-04', '2026-01-26', '2026-01-31'],
    ],
    [
      '2026-01-04',
      '2026-01-12',
      ['2026-01-05', '2026-01-05', '2026-01-04', '2026-01-04', '2026-01-12', '2026-01-12'],
    ],
    ['2026-01-06', '2026-01-10', ['1', '0', '2026-01-06', '2026-01-10', '1', '0']],
    ['2026-01-12', '2026-01-12', ['1', '0', '2026-01-12', '2026-01-12', '1', '0']],
  ])('splits %s..%s into whole weeks and the days at either edge', (from, to, expected) => {
    expect(weeksAndEdges(from, to)).toEqual(expected);
  });
});

describe('weekSpans', () => {
  // a count on each day of nine weeks (Monday 2026-01-05 on), and each week's sum by its Monday
  const days = Array.from({ length: 63 }, (_, i) => addDays('2026-01-05', i));
  const count = (day: string) => days.indexOf(day) + 1;
  const weeks = new Map<string, number>();
  for (const [i, day] of days.entries()) {
    const monday = days[i - (i % 7)]!;
    weeks.set(monday, (weeks.get(monday) ?? 0) + count(day));
  }
  const ofDays = ([first, last]: DaySpan) => days.filter((d) => d >= first && d <= last);

  it('sums every range of days as its weeks plus and less days, at most three days an edge beside a week', () => {
    for (const from of days.slice(7, 28)) {
      for (const to of days.slice(28, 56).filter((d) => d >= from)) {
        const { weeks: span, added, taken } = weekSpans(from, to);
        const weekly = [...weeks].filter(([monday]) => monday >= span[0] && monday <= span[1]);
        const sum =
          weekly.reduce((s, [, n]) => s + n, 0) +
          added.flatMap(ofDays).reduce((s, d) => s + count(d), 0) -
          taken.flatMap(ofDays).reduce((s, d) => s + count(d), 0);
        expect([from, to, sum]).toEqual([from, to, ofDays([from, to]).reduce((s, d) => s + count(d), 0)]);
        if (span[0] <= span[1])
          for (const edge of [...added, ...taken]) expect(ofDays(edge).length).toBeLessThanOrEqual(3);
      }
    }
  });

  it('reads a range holding no whole week as its days', () => {
    expect(weekSpans('2026-01-06', '2026-01-10')).toEqual({
      weeks: ['1', '0'],
      added: [
        ['2026-01-06', '2026-01-10'],
        ['1', '0'],
      ],
      taken: [
        ['1', '0'],
        ['1', '0'],
      ],
    });
  });
});
