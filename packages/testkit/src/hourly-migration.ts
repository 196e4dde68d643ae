import type { Stores } from '@shortener/core';
import { expect } from 'vitest';
import { keyCounts } from './fixtures.js';
import { compactAll } from './visit-log-helpers.js';

/**
 * The rows of a database written before hourly counters (SQLite migration 15, PostgreSQL 10), for a
 * migration test to insert: daily `total` and `bots` counts (key `''`) folded, as `VALUES` tuples of
 * `visit_counters (link_id, day, dimension, key, count)`, and one daily total left in the visit log
 * (`counters` text).
 */
export function legacyCounts(linkId: string): { counters: string; logged: string } {
  return {
    counters: `('${linkId}', '2026-01-10', 'total', '', 7), ('${linkId}', '2026-01-10', 'bots', '', 2),
      ('${linkId}', '2026-01-10', 'country', 'DE', 7), ('${linkId}', '2026-01-11', 'total', '', 3)`,
    logged: '[["2026-01-11","total","",4]]',
  };
}

const byText = <T>(rows: T[]): T[] =>
  [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

/** Expects the migrated {@link legacyCounts} all kept, in the 00:00 UTC hour, before and after folding. */
export async function expectLegacyCountsKept(stores: Stores, linkId: string): Promise<void> {
  const expected = byText([
    { day: '2026-01-10', dimension: 'total', key: '00', count: 7 },
    { day: '2026-01-10', dimension: 'bots', key: '00', count: 2 },
    { day: '2026-01-11', dimension: 'total', key: '00', count: 7 },
  ]);
  const read = async () =>
    byText(await stores.visits.countsByDayOf([linkId], ['total', 'bots'], '2026-01-10', '2026-01-11'));
  expect(await read()).toEqual(expected);
  expect(await stores.visits.totalsByLink([linkId], '2026-01-10T00', '2026-01-11T00')).toEqual([
    { key: linkId, count: 14 },
  ]);
  await compactAll(stores, 100);
  expect(await read()).toEqual(expected);
  expect(await stores.visits.countsByDay(linkId, 'total', '2026-01-10', '2026-01-11')).toEqual(
    keyCounts(['2026-01-10', 7], ['2026-01-11', 7]),
  );
}
