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
