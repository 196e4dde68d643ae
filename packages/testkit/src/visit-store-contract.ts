import type { CounterIncrement, DimensionCount, Stores, VisitDimension } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { FIXTURE_TIME, dimensionCounts, keyCounts } from './fixtures.js';
import { givenLink, useFreshStores } from './fresh-stores.js';
import { describeAccountReads } from './visit-store-contract-account.js';
import { describeReadsAcrossLinks } from './visit-store-contract-across.js';
import { describeCounterLimits } from './visit-store-contract-limits.js';
import { describeVisitLog } from './visit-store-contract-log.js';
import { describeSaltsAndPruning } from './visit-store-contract-salts.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-ffffffffffff';

/** A counter increment of `count` for the link on `day`. */
function aCounter(
  linkId: string,
  day: string,
  dimension: VisitDimension,
  count: number,
  key = dimension === 'total' || dimension === 'bots' ? '00' : '', // total and bots: the UTC hour
): CounterIncrement {
  return { linkId, day, dimension, key, count };
}

/**
 * Registers the VisitStore contract: every VisitStore must pass it. Each test gets stores from `open`
 * and closes them afterwards; the visit store shares its links with the link store. `accountSums`: the
 * store keeps sums per account (`VisitStore.ofAccount`), and its reads are held to the contract too.
 */
export function describeVisitStoreContract(
  name: string,
  open: () => Promise<Stores>,
  { accountSums = false }: { accountSums?: boolean } = {},
): void {
  describe(`${name}: VisitStore contract`, () => {
    const stores = useFreshStores(open);
    describeClicksAndCounters(stores);
    describeVisitors(stores);
    describeDeletedLinks(stores);
    describeSaltsAndPruning(stores);
    describeCounterLimits(stores);
    describeVisitLog(stores);
    describeReadsAcrossLinks(stores);
    if (accountSums) describeAccountReads(stores);
  });
}

function describeClicksAndCounters(stores: () => Stores): void {
  describe('clicks and counters', () => {
    it("adds batched clicks to the links and never moves a link's last click back", async () => {
      const link = await givenLink(stores(), { clicks: 1, lastClickAt: FIXTURE_TIME });
      const other = await givenLink(stores());
      const at = (ms: number) => FIXTURE_TIME + ms;
      await stores().visits.record({
        clicks: [
          { linkId: link.id, count: 3, lastClickAt: at(10) },
          { linkId: other.id, count: 1, lastClickAt: at(4) },
        ],
        counters: [],
        visitors: [],
      });
      await stores().visits.record({
        clicks: [{ linkId: link.id, count: 2, lastClickAt: at(5) }],
        counters: [],
        visitors: [],
      });
      expect(await stores().links.findById(link.id)).toStrictEqual({
        ...link,
        clicks: 6,
        lastClickAt: at(10),
      });
      expect(await stores().links.findById(other.id)).toStrictEqual({
        ...other,
        clicks: 1,
        lastClickAt: at(4),
      });
    });

    it('sums counters across several flushes', async () => {
      const { id } = await givenLink(stores());
      for (const count of [2, 3, 4]) {
        await stores().visits.record({
          clicks: [],
          counters: [aCounter(id, '2026-01-01', 'total', count)],
          visitors: [],
        });
      }
      expect(await stores().visits.countsByDay(id, 'total', '2026-01-01', '2026-01-01')).toEqual(
        keyCounts(['2026-01-01', 9]),
      );
    });

    it('lists per-day sums of one dimension, ascending, within the inclusive range', async () => {
      const { id } = await givenLink(stores());
      const counters = [
        aCounter(id, '2026-01-04', 'country', 1, 'DE'),
        aCounter(id, '2026-01-02', 'country', 2, 'DE'),
        aCounter(id, '2026-01-02', 'country', 5, 'FR'),
        aCounter(id, '2026-01-01', 'country', 7, 'DE'),
        aCounter(id, '2026-01-05', 'country', 1, 'DE'),
        aCounter(id, '2026-01-03', 'total', 9),
      ];
      await stores().visits.record({ clicks: [], counters, visitors: [] });
      expect(await stores().visits.countsByDay(id, 'country', '2026-01-02', '2026-01-04')).toEqual(
        keyCounts(['2026-01-02', 7], ['2026-01-04', 1]),
      );
    });

    it('sums counters per dimension and key over the range', async () => {
      const { id } = await givenLink(stores());
      const other = await givenLink(stores());
      const counters = [
        aCounter(id, '2026-01-01', 'total', 3),
        aCounter(id, '2026-01-02', 'total', 4),
        aCounter(id, '2026-01-01', 'referrer', 2, 'news.example'),
        aCounter(id, '2026-01-02', 'referrer', 1, 'news.example'),
        aCounter(id, '2026-01-02', 'referrer', 1, 'direct'),
        aCounter(id, '2026-01-02', 'bots', 5),
        aCounter(id, '2026-01-03', 'total', 100),
        aCounter(other.id, '2026-01-01', 'total', 50),
      ];
      await stores().visits.record({ clicks: [], counters, visitors: [] });
      const counts = await stores().visits.countsByKey(id, '2026-01-01', '2026-01-02');
      expect(sorted(counts)).toEqual(
        dimensionCounts(
          ['bots', '00', 5],
          ['referrer', 'direct', 1],
          ['referrer', 'news.example', 3],
          ['total', '00', 7],
        ),
      );
    });
  });
}

function describeVisitors(stores: () => Stores): void {
  describe('visitors', () => {
    it('counts a visitor hash once per link and day, within and across batches', async () => {
      const { id } = await givenLink(stores());
      const day = '2026-01-01';
      await stores().visits.record({
        clicks: [],
        counters: [],
        visitors: [
          { linkId: id, day, hash: 'h1' },
          { linkId: id, day, hash: 'h1' },
          { linkId: id, day, hash: 'h2' },
        ],
      });
      await stores().visits.record({ clicks: [], counters: [], visitors: [{ linkId: id, day, hash: 'h1' }] });
      expect(await stores().visits.countsByDay(id, 'unique', day, day)).toEqual([{ key: day, count: 2 }]);
    });

    it('counts the same hash again on another day and on another link', async () => {
      const { id } = await givenLink(stores());
      const other = await givenLink(stores());
      const visitors = [
        { linkId: id, day: '2026-01-01', hash: 'h1' },
        { linkId: id, day: '2026-01-02', hash: 'h1' },
        { linkId: other.id, day: '2026-01-01', hash: 'h1' },
      ];
      await stores().visits.record({ clicks: [], counters: [], visitors });
      expect(await stores().visits.countsByDay(id, 'unique', '2026-01-01', '2026-01-02')).toEqual(
        keyCounts(['2026-01-01', 1], ['2026-01-02', 1]),
      );
      expect(await stores().visits.countsByKey(other.id, '2026-01-01', '2026-01-01')).toEqual(
        dimensionCounts(['unique', '', 1]),
      );
    });
  });
}

function describeDeletedLinks(stores: () => Stores): void {
  describe('unknown and deleted links', () => {
    it('drops increments for unknown links and applies the rest of the batch', async () => {
      const link = await givenLink(stores());
      const day = '2026-01-01';
      await stores().visits.record({
        clicks: [
          { linkId: UNKNOWN_ID, count: 1, lastClickAt: FIXTURE_TIME },
          { linkId: link.id, count: 1, lastClickAt: FIXTURE_TIME },
        ],
        counters: [aCounter(UNKNOWN_ID, day, 'total', 1), aCounter(link.id, day, 'total', 1)],
        visitors: [
          { linkId: UNKNOWN_ID, day, hash: 'h1' },
          { linkId: link.id, day, hash: 'h1' },
        ],
      });
      expect((await stores().links.findById(link.id))?.clicks).toBe(1);
      expect(await stores().visits.countsByKey(UNKNOWN_ID, day, day)).toEqual([]);
      expect(sorted(await stores().visits.countsByKey(link.id, day, day))).toEqual(
        dimensionCounts(['total', '00', 1], ['unique', '', 1]),
      );
    });

    it('removes the counters of a deleted link and drops later increments for it', async () => {
      const { id } = await givenLink(stores());
      const day = '2026-01-01';
      const batch = {
        clicks: [{ linkId: id, count: 1, lastClickAt: FIXTURE_TIME }],
        counters: [aCounter(id, day, 'total', 1), aCounter(id, day, 'country', 1, 'DE')],
        visitors: [{ linkId: id, day, hash: 'h1' }],
      };
      await stores().visits.record(batch);
      await stores().links.delete(id);
      expect(await stores().visits.countsByKey(id, day, day)).toEqual([]);
      await stores().visits.record(batch);
      expect(await stores().visits.countsByKey(id, day, day)).toEqual([]);
      expect(await stores().visits.countsByDay(id, 'total', day, day)).toEqual([]);
    });
  });
}

/** Counts by key in a fixed order, since the port leaves the order open. */
function sorted(counts: readonly DimensionCount[]): DimensionCount[] {
  const order = (c: DimensionCount): string => `${c.dimension}\u0000${c.key}`;
  return [...counts].sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0));
}
