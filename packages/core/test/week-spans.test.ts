import { describe, expect, it } from 'vitest';
import { addDays, mondayOf, summedWeeks, weekSpans, weeksAndEdges } from '../src/index.js';
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

// a count on each day of nine weeks (Monday 2026-01-05 on), and each week's sum by its Monday
const days = Array.from({ length: 63 }, (_, i) => addDays('2026-01-05', i));
const count = (day: string) => days.indexOf(day) + 1;
const weeks = new Map<string, number>();
for (const [i, day] of days.entries()) {
  const monday = days[i - (i % 7)]!;
  weeks.set(monday, (weeks.get(monday) ?? 0) + count(day));
}
const ofDays = ([first, last]: DaySpan) => days.filter((d) => d >= first && d <= last);
const sumOf = (spans: readonly DaySpan[]) => spans.flatMap(ofDays).reduce((s, d) => s + count(d), 0);
const weeksOf = (span: DaySpan) =>
  [...weeks].filter(([monday]) => monday >= span[0] && monday <= span[1]).reduce((s, [, n]) => s + n, 0);

describe('weekSpans', () => {
  it('sums every range of days as its weeks plus and less days, at most three days an edge beside a week', () => {
    for (const from of days.slice(7, 28)) {
      for (const to of days.slice(28, 56).filter((d) => d >= from)) {
        const { weeks: span, added, taken } = weekSpans(from, to);
        const sum = weeksOf(span) + sumOf(added) - sumOf(taken);
        expect([from, to, sum]).toEqual([from, to, sumOf([[from, to]])]);
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

describe('summedWeeks', () => {
  it('names the Monday of a day', () => {
    expect(['2026-01-05', '2026-01-08', '2026-01-11', '2026-01-12'].map(mondayOf)).toEqual([
      '2026-01-05',
      '2026-01-05',
      '2026-01-05',
      '2026-01-12',
    ]);
  });

  it('sums every range as the weeks summed before the horizon plus the other days, each day once', () => {
    for (const horizon of ['', ...days.filter((d) => mondayOf(d) === d), '2026-03-16']) {
      for (const from of days.slice(0, 28)) {
        for (const to of days.slice(20, 63).filter((d) => d >= from)) {
          const { weeks: span, days: read } = summedWeeks(from, to, horizon);
          const sum = weeksOf(span) + sumOf(read);
          expect([horizon, from, to, sum]).toEqual([horizon, from, to, sumOf([[from, to]])]);
          // no week at or after the horizon is read summed, none before it day by day
          if (span[0] <= span[1]) expect(addDays(span[1], 7) <= horizon).toBe(true);
          const daily = read.flatMap(ofDays);
          expect(
            daily.filter((d) => d < horizon && mondayOf(d) >= from && addDays(mondayOf(d), 6) <= to),
          ).toEqual([]);
        }
      }
    }
  });

  it('reads every day while nothing is summed, or the range holds no whole week', () => {
    const allDays = {
      weeks: ['1', '0'],
      days: [
        ['2026-01-06', '2026-01-30'],
        ['1', '0'],
      ],
    };
    expect(summedWeeks('2026-01-06', '2026-01-30', '')).toEqual(allDays);
    expect(summedWeeks('2026-01-06', '2026-01-30', '2026-01-12')).toEqual(allDays);
    expect(summedWeeks('2026-01-06', '2026-01-10', '2026-03-02').weeks).toEqual(['1', '0']);
  });
});
