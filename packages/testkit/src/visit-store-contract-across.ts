import type { CounterIncrement, DayCount, Stores, VisitDimension } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { dimensionCounts } from './fixtures.js';
import { givenLink } from './fresh-stores.js';
import { compactAll } from './visit-log-helpers.js';

/** A counter increment. */
export const counter = (
  linkId: string,
  day: string,
  dimension: VisitDimension,
  key: string,
  count: number,
): CounterIncrement => ({ linkId, day, dimension, key, count });

/** Rows in a fixed order (by their JSON text), for comparing reads that have none. */
export const byText = <T>(rows: T[]): T[] =>
  [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

/**
 * Three new links (two read, one not), and the counters `of` them recorded, folded into the stored
 * counters first when `folded`.
 */
async function givenCounts(
  stores: Stores,
  folded: boolean,
  of: (a: string, b: string, other: string) => CounterIncrement[],
): Promise<[string, string]> {
  const [a, b, other] = [await givenLink(stores), await givenLink(stores), await givenLink(stores)];
  await stores.visits.record({ clicks: [], counters: of(a.id, b.id, other.id), visitors: [] });
  if (folded) await compactAll(stores, 1000);
  return [a.id, b.id];
}

/**
 * The reads of statistics across links (a tag's, an account's, decisions §18): hourly `total` and `bots`
 * counters summed per day and hour, keyed counters summed per key, each link's total over UTC hours, in
 * one read whatever the number of links, the unfolded tail counted as the folded counters are.
 */
export function describeReadsAcrossLinks(stores: () => Stores): void {
  for (const folded of [false, true]) {
    describe(`reads across links (${folded ? 'folded' : 'in the visit log'})`, () => {
      it('sums hourly totals and bots per day and hour over the links given, and nothing else', async () => {
        const [a, b] = await givenCounts(stores(), folded, (a, b, other) => [
          counter(a, '2026-01-10', 'total', '23', 2),
          counter(b, '2026-01-10', 'total', '23', 3),
          counter(b, '2026-01-10', 'total', '00', 1),
          counter(a, '2026-01-10', 'bots', '05', 4),
          counter(a, '2026-01-11', 'total', '00', 5),
          counter(a, '2026-01-12', 'total', '00', 6),
          counter(other, '2026-01-10', 'total', '23', 100),
          counter(a, '2026-01-10', 'country', 'DE', 2),
        ]);
        const read = await stores().visits.countsByDayOf(
          [a, b],
          ['total', 'bots'],
          '2026-01-10',
          '2026-01-11',
        );
        expect(byText(read)).toEqual(
          byText<DayCount>([
            { day: '2026-01-10', dimension: 'total', key: '23', count: 5 },
            { day: '2026-01-10', dimension: 'total', key: '00', count: 1 },
            { day: '2026-01-10', dimension: 'bots', key: '05', count: 4 },
            { day: '2026-01-11', dimension: 'total', key: '00', count: 5 },
          ]),
        );
        expect(await stores().visits.countsByDayOf([], ['total'], '2026-01-10', '2026-01-11')).toEqual([]);
      });

      it('sums keyed counters per dimension and key over the links and days given', async () => {
        const [a, b] = await givenCounts(stores(), folded, (a, b, other) => [
          counter(a, '2026-01-10', 'country', 'DE', 2),
          counter(b, '2026-01-11', 'country', 'DE', 3),
          counter(b, '2026-01-11', 'referrer', 'a,"b".example', 1),
          counter(a, '2026-01-12', 'country', 'DE', 50),
          counter(other, '2026-01-10', 'country', 'DE', 100),
          // read by day, not here
          counter(a, '2026-01-10', 'total', '12', 7),
          counter(b, '2026-01-11', 'bots', '03', 1),
          counter(a, '2026-01-10', 'unique', '', 2),
        ]);
        const read = await stores().visits.countsByKeyOf([a, b], '2026-01-10', '2026-01-11');
        expect(byText(read)).toEqual(
          byText(dimensionCounts(['country', 'DE', 5], ['referrer', 'a,"b".example', 1])),
        );
      });

      it("gives each link's total over the UTC hours given, both ends included", async () => {
        const [a, b] = await givenCounts(stores(), folded, (a, b, other) => [
          counter(a, '2026-01-09', 'total', '22', 1000), // before the first hour
          counter(a, '2026-01-09', 'total', '23', 1),
          counter(a, '2026-01-10', 'total', '12', 2),
          counter(b, '2026-01-10', 'total', '22', 7),
          counter(b, '2026-01-10', 'total', '23', 1000), // after the last hour
          counter(b, '2026-01-10', 'bots', '12', 1000),
          counter(other, '2026-01-10', 'total', '12', 1000),
        ]);
        const read = await stores().visits.totalsByLink([a, b], '2026-01-09T23', '2026-01-10T22');
        expect(byText(read)).toEqual(
          byText([
            { key: a, count: 3 },
            { key: b, count: 7 },
          ]),
        );
      });
    });
  }
}
