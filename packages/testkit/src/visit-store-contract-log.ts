import { MAX_KEYS_PER_DAY, OTHER_KEY } from '@shortener/core';
import type { CounterIncrement, DimensionCount, Stores, VisitBatch, VisitDimension } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { FIXTURE_TIME, dimensionCounts } from './fixtures.js';
import { givenLink } from './fresh-stores.js';
import { compactAll as compactInChunks } from './visit-log-helpers.js';

const DAY = '2026-01-01';

const counter = (linkId: string, dimension: VisitDimension, key = '', count = 1): CounterIncrement => ({
  linkId,
  day: DAY,
  dimension,
  key,
  count,
});

/** A flush of `visits` human visits of the link from one visitor, as the recorder writes it. */
function aFlush(linkId: string, visits: number, hash: string, country = 'DE'): VisitBatch {
  return {
    clicks: [{ linkId, count: visits, lastClickAt: FIXTURE_TIME }],
    counters: [counter(linkId, 'total', '00', visits), counter(linkId, 'country', country, visits)],
    visitors: [{ linkId, day: DAY, hash }],
  };
}

/** Everything a statistics read sees of the link on {@link DAY}, in a stable order. */
async function statsOf(stores: Stores, linkId: string) {
  const byKey = await stores.visits.countsByKey(linkId, DAY, DAY);
  return {
    byKey: [...byKey].sort(byDimensionAndKey),
    total: await stores.visits.countsByDay(linkId, 'total', DAY, DAY),
    unique: await stores.visits.countsByDay(linkId, 'unique', DAY, DAY),
    clicks: (await stores.links.findById(linkId))?.clicks,
  };
}

const byDimensionAndKey = (a: DimensionCount, b: DimensionCount) =>
  a.dimension.localeCompare(b.dimension) || a.key.localeCompare(b.key);

/** Compacts in small chunks until the log is empty; returns how many entries were folded. */
const compactAll = (stores: Stores): Promise<number> => compactInChunks(stores, 2);

/** The visit log and its compaction (issue 29): reads see the tail, folding changes no figure. */
export function describeVisitLog(stores: () => Stores): void {
  describe('visit log and compaction', () => {
    it('reads a flush before it is folded, and the same figures after', async () => {
      const { id } = await givenLink(stores());
      await stores().visits.record(aFlush(id, 3, 'h1'));
      await stores().visits.record(aFlush(id, 2, 'h2', 'FR'));
      await stores().visits.record(aFlush(id, 1, 'h1'));
      const before = await statsOf(stores(), id);
      expect(before).toEqual({
        byKey: dimensionCounts(
          ['country', 'DE', 4],
          ['country', 'FR', 2],
          ['total', '00', 6],
          ['unique', '', 2],
        ),
        total: [{ key: DAY, count: 6 }],
        unique: [{ key: DAY, count: 2 }],
        clicks: 6,
      });
      expect(await stores().visits.logSize()).toBe(3);
      expect(await compactAll(stores())).toBeGreaterThan(0);
      expect(await statsOf(stores(), id)).toEqual(before);
      expect(await stores().visits.compact(100)).toBe(0);
      expect(await stores().visits.logSize()).toBe(0);
    });

    it('reads the same figures while a compaction runs', async () => {
      const { id } = await givenLink(stores());
      for (let i = 0; i < 20; i++) await stores().visits.record(aFlush(id, 1, `h${i % 5}`));
      const expected = await statsOf(stores(), id);
      const reads = Promise.all(Array.from({ length: 10 }, () => statsOf(stores(), id)));
      const [seen] = await Promise.all([reads, compactAll(stores())]);
      for (const read of seen) expect(read).toEqual(expected);
      expect(await statsOf(stores(), id)).toEqual(expected);
    });

    it('counts a visitor once whether it was folded before, is in the tail, or comes again', async () => {
      const { id } = await givenLink(stores());
      await stores().visits.record(aFlush(id, 1, 'h1'));
      await compactAll(stores());
      await stores().visits.record(aFlush(id, 1, 'h1'));
      await stores().visits.record(aFlush(id, 1, 'h2'));
      await stores().visits.record(aFlush(id, 1, 'h2'));
      expect(await stores().visits.countsByDay(id, 'unique', DAY, DAY)).toEqual([{ key: DAY, count: 2 }]);
      await compactAll(stores());
      expect(await stores().visits.countsByDay(id, 'unique', DAY, DAY)).toEqual([{ key: DAY, count: 2 }]);
    });

    it(`keeps ${MAX_KEYS_PER_DAY} keys a day when the tail is folded, and reads them so before`, async () => {
      const { id } = await givenLink(stores());
      const keys = Array.from({ length: MAX_KEYS_PER_DAY + 5 }, (_, i) => `r${i}.example`);
      const flush = (part: string[]): VisitBatch => ({
        clicks: [],
        counters: part.map((key) => counter(id, 'referrer', key)),
        visitors: [],
      });
      await stores().visits.record(flush(keys.slice(0, 60)));
      await compactAll(stores());
      await stores().visits.record(flush(keys.slice(60)));
      await stores().visits.record(flush(['r0.example', 'r99.example', 'r104.example']));
      const before = await statsOf(stores(), id);
      const referrers = before.byKey.filter((c) => c.dimension === 'referrer');
      expect(referrers).toHaveLength(MAX_KEYS_PER_DAY + 1);
      expect(referrers).toContainEqual({ dimension: 'referrer', key: OTHER_KEY, count: 6 });
      expect(referrers).toContainEqual({ dimension: 'referrer', key: 'r99.example', count: 2 });
      await compactAll(stores());
      expect(await statsOf(stores(), id)).toEqual(before);
    });

    it('keeps clicks equal to the statistics total, before and after folding', async () => {
      const links = [await givenLink(stores()), await givenLink(stores())];
      for (let i = 0; i < 12; i++) await stores().visits.record(aFlush(links[i % 2]!.id, i + 1, `h${i}`));
      for (const folded of [false, true]) {
        if (folded) await compactAll(stores());
        for (const { id } of links) {
          const { total, clicks } = await statsOf(stores(), id);
          expect(total[0]?.count).toBe(clicks);
        }
      }
    });

    it('drops the tail of a deleted link', async () => {
      const { id } = await givenLink(stores());
      await stores().visits.record(aFlush(id, 2, 'h1'));
      await stores().links.delete(id);
      expect(await stores().visits.countsByKey(id, DAY, DAY)).toEqual([]);
      await compactAll(stores());
      expect(await stores().visits.countsByKey(id, DAY, DAY)).toEqual([]);
    });
  });
}
