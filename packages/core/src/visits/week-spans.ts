import { addDays } from './visitor-hash.js';

/** Days from Monday (0) of a `YYYY-MM-DD`. */
const weekday = (day: string): number => (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;

/**
 * The UTC days `from`..`to` as whole weeks and the days before and after them, for stores that keep each
 * link's visits per week (from Monday) and per day: `[w1, w2, a1, a2, b1, b2]`, the Mondays of the first
 * and last whole week and the two edges' first and last days. A range holding no whole week is all
 * days; an empty span is `'1'`..`'0'`, which no day falls in.
 */
export function weeksAndEdges(from: string, to: string): [string, string, string, string, string, string] {
  const offset = weekday(from);
  const firstMonday = offset === 0 ? from : addDays(from, 7 - offset);
  const lastSunday = weekday(to) === 6 ? to : addDays(to, -(weekday(to) + 1));
  const lastMonday = addDays(lastSunday, -6);
  if (lastMonday < firstMonday) return ['1', '0', from, to, '1', '0'];
  return [firstMonday, lastMonday, from, addDays(firstMonday, -1), addDays(lastMonday, 7), to];
}

/** A span of days `[first, last]`; `['1', '0']` holds none. */
export type DaySpan = readonly [first: string, last: string];

const NO_DAYS: DaySpan = ['1', '0'];

/**
 * The UTC days `from`..`to` for a store that can also subtract: whole weeks (their Mondays), plus days
 * `added`, less days `taken`. An edge of four days or more is read as its whole week less the week's
 * other days, at most three (none at all for a range ending today, as no day after it holds visits):
 * fewer rows per link than its days, and never more.
 */
export function weekSpans(
  from: string,
  to: string,
): { weeks: DaySpan; added: [DaySpan, DaySpan]; taken: [DaySpan, DaySpan] } {
  const [w1, w2, a1, a2, b1, b2] = weeksAndEdges(from, to);
  if (w1 > w2) return { weeks: NO_DAYS, added: [[from, to], NO_DAYS], taken: [NO_DAYS, NO_DAYS] };
  const days = (first: string, last: string) =>
    first > last ? 0 : (Date.parse(last) - Date.parse(first)) / 86_400_000 + 1;
  const wholeStart = days(a1, a2) >= 4;
  const wholeEnd = days(b1, b2) >= 4;
  return {
    weeks: [wholeStart ? addDays(w1, -7) : w1, wholeEnd ? b1 : w2],
    added: [wholeStart ? NO_DAYS : [a1, a2], wholeEnd ? NO_DAYS : [b1, b2]],
    taken: [
      wholeStart ? [addDays(w1, -7), addDays(a1, -1)] : NO_DAYS,
      wholeEnd ? [addDays(b2, 1), addDays(b1, 6)] : NO_DAYS,
    ],
  };
}

/** The Monday (UTC) of the week a `YYYY-MM-DD` falls in. */
export const mondayOf = (day: string): string => addDays(day, -weekday(day));

/**
 * The UTC days `from`..`to` for a store that keeps a link's weeks summed before `horizon` (a Monday, or
 * `''` when none is): the whole weeks of the range it has summed, and the days it reads one by one (the
 * edges, and the weeks from the horizon on).
 */
export function summedWeeks(
  from: string,
  to: string,
  horizon: string,
): { weeks: DaySpan; days: [DaySpan, DaySpan] } {
  const [w1, w2, a1, a2] = weeksAndEdges(from, to);
  const last = horizon === '' || w1 > w2 ? '' : addDays(horizon, -7) < w2 ? addDays(horizon, -7) : w2;
  if (last < w1) return { weeks: NO_DAYS, days: [[from, to], NO_DAYS] };
  return {
    weeks: [w1, last],
    days: [
      [a1, a2],
      [addDays(last, 7), to],
    ],
  };
}
