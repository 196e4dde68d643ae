import type { Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { keyCounts } from './fixtures.js';
import { givenLink } from './fresh-stores.js';

/** The salt and pruning part of the VisitStore contract. */
export function describeSaltsAndPruning(stores: () => Stores): void {
  describe('salts', () => {
    it('keeps the first candidate of a day as its salt', async () => {
      expect(await stores().visits.salt('2026-01-01', 'first')).toBe('first');
      expect(await stores().visits.salt('2026-01-01', 'second')).toBe('first');
      expect(await stores().visits.salt('2026-01-02', 'third')).toBe('third');
      expect(await stores().visits.salt('2026-01-02', 'fourth')).toBe('third');
    });

    it('prunes only the salts of earlier days', async () => {
      await stores().visits.salt('2025-12-31', 'old');
      await stores().visits.salt('2026-01-01', 'kept');
      await stores().visits.salt('2026-01-02', 'newer');
      await stores().visits.pruneSalts('2026-01-01');
      expect(await stores().visits.salt('2025-12-31', 'replacement')).toBe('replacement');
      expect(await stores().visits.salt('2026-01-01', 'other')).toBe('kept');
      expect(await stores().visits.salt('2026-01-02', 'other')).toBe('newer');
    });
  });

  describe('pruneVisitors', () => {
    it('forgets the hashes of earlier days but keeps their unique counts', async () => {
      const { id } = await givenLink(stores());
      const sighting = (day: string) => ({
        clicks: [],
        counters: [],
        visitors: [{ linkId: id, day, hash: 'h1' }],
      });
      await stores().visits.record(sighting('2026-01-01'));
      await stores().visits.record(sighting('2026-01-02'));
      await stores().visits.pruneVisitors('2026-01-02');
      expect(await stores().visits.countsByDay(id, 'unique', '2026-01-01', '2026-01-02')).toEqual(
        keyCounts(['2026-01-01', 1], ['2026-01-02', 1]),
      );
      await stores().visits.record(sighting('2026-01-01'));
      await stores().visits.record(sighting('2026-01-02'));
      expect(await stores().visits.countsByDay(id, 'unique', '2026-01-01', '2026-01-02')).toEqual(
        keyCounts(['2026-01-01', 2], ['2026-01-02', 1]),
      );
    });
  });
}
