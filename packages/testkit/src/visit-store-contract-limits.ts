import { MAX_KEYS_PER_DAY, OTHER_KEY } from '@shortener/core';
import type { CounterIncrement, Stores, VisitDimension } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { dimensionCounts, keyCounts } from './fixtures.js';
import { givenLink } from './fresh-stores.js';

const counter = (linkId: string, day: string, dimension: VisitDimension, key: string, count = 1) =>
  ({ linkId, day, dimension, key, count }) satisfies CounterIncrement;

/** The bounded part of the VisitStore contract: keys per link, day and dimension, and pruning. */
export function describeCounterLimits(stores: () => Stores): void {
  describe('counter limits', () => {
    it(`keeps ${MAX_KEYS_PER_DAY} keys per link, day and dimension and counts the rest under other`, async () => {
      const { id } = await givenLink(stores());
      const day = '2026-01-01';
      const referrers = Array.from({ length: MAX_KEYS_PER_DAY + 5 }, (_, i) => `r${i}.example`);
      await stores().visits.record({
        clicks: [],
        counters: referrers.slice(0, 60).map((key) => counter(id, day, 'referrer', key)),
        visitors: [],
      });
      await stores().visits.record({
        clicks: [],
        counters: [
          ...referrers.slice(60).map((key) => counter(id, day, 'referrer', key)),
          counter(id, day, 'referrer', 'r0.example', 2), // a key held already keeps counting
          counter(id, '2026-01-02', 'referrer', 'new.example'), // another day has its own limit
          counter(id, day, 'country', 'FR'), // and another dimension
        ],
        visitors: [],
      });
      const counts = await stores().visits.countsByKey(id, day, '2026-01-02');
      const referrerCounts = counts.filter((c) => c.dimension === 'referrer');
      expect(referrerCounts).toHaveLength(MAX_KEYS_PER_DAY + 2);
      expect(referrerCounts).toContainEqual({ dimension: 'referrer', key: OTHER_KEY, count: 5 });
      expect(referrerCounts).toContainEqual({ dimension: 'referrer', key: 'r0.example', count: 3 });
      expect(referrerCounts).toContainEqual({ dimension: 'referrer', key: 'new.example', count: 1 });
      expect(counts).toContainEqual({ dimension: 'country', key: 'FR', count: 1 });
      expect(referrerCounts.reduce((sum, c) => sum + c.count, 0)).toBe(MAX_KEYS_PER_DAY + 5 + 2 + 1);
    });

    it('applies the key limit within one batch for a link-day new to the store', async () => {
      const { id } = await givenLink(stores());
      const day = '2026-01-01';
      const referrers = Array.from({ length: MAX_KEYS_PER_DAY + 5 }, (_, i) => `r${i}.example`);
      await stores().visits.record({
        clicks: [],
        counters: [
          counter(id, day, 'total', '00', MAX_KEYS_PER_DAY + 7),
          ...referrers.map((key) => counter(id, day, 'referrer', key)),
          counter(id, day, 'referrer', 'r0.example', 2), // a key of this batch counts once
          counter(id, day, 'referrer', OTHER_KEY, 4),
        ],
        visitors: [],
      });
      const counts = await stores().visits.countsByKey(id, day, day);
      const referrerCounts = counts.filter((c) => c.dimension === 'referrer');
      expect(referrerCounts).toHaveLength(MAX_KEYS_PER_DAY + 1);
      expect(referrerCounts).toContainEqual({ dimension: 'referrer', key: OTHER_KEY, count: 5 + 4 });
      expect(referrerCounts).toContainEqual({ dimension: 'referrer', key: 'r0.example', count: 3 });
      expect(counts).toContainEqual({ dimension: 'total', key: '00', count: MAX_KEYS_PER_DAY + 7 });
    });

    it('prunes the counters of earlier days and keeps the rest', async () => {
      const { id } = await givenLink(stores());
      await stores().visits.record({
        clicks: [],
        counters: ['2026-01-01', '2026-01-02'].flatMap((day) => [
          counter(id, day, 'total', '00'),
          counter(id, day, 'referrer', 'a.example'),
        ]),
        visitors: [],
      });
      await stores().visits.pruneCounters('2026-01-02');
      expect(await stores().visits.countsByKey(id, '2026-01-01', '2026-01-02')).toHaveLength(2);
      expect(await stores().visits.countsByKey(id, '2026-01-01', '2026-01-02')).toEqual(
        expect.arrayContaining(dimensionCounts(['referrer', 'a.example', 1], ['total', '00', 1])),
      );
      expect(await stores().visits.countsByDay(id, 'total', '2026-01-01', '2026-01-02')).toEqual(
        keyCounts(['2026-01-02', 1]),
      );
    });
  });
}
