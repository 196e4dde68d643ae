import type { Stores, VisitBatch } from '@shortener/core';
import { aLink } from './fixtures.js';

/** The day the visit-log helpers record on. */
export const LOG_DAY = '2026-01-01';

/** Compacts in chunks of `chunk` until `compact` folds nothing; returns how many entries were folded. */
export async function compactAll(stores: Stores, chunk: number): Promise<number> {
  let folded = 0;
  for (let n = await stores.visits.compact(chunk); n > 0; n = await stores.visits.compact(chunk)) folded += n;
  return folded;
}

/**
 * `links` new links, then `flushes` flushes visiting each once on {@link LOG_DAY}: a total, a referrer
 * per flush, a country of three, and a visitor of four. The log then holds `links × flushes` entries.
 */
export async function givenVisitLog(stores: Stores, links: number, flushes: number): Promise<string[]> {
  const made = Array.from({ length: links }, () => aLink());
  await stores.links.insertMany(made);
  const ids = made.map((link) => link.id);
  for (let f = 0; f < flushes; f++) {
    const batch: VisitBatch = {
      clicks: ids.map((linkId) => ({ linkId, count: 1, lastClickAt: 1 })),
      counters: ids.flatMap((linkId) => [
        { linkId, day: LOG_DAY, dimension: 'total' as const, key: '00', count: 1 },
        { linkId, day: LOG_DAY, dimension: 'country' as const, key: `C${f % 3}`, count: 1 },
        { linkId, day: LOG_DAY, dimension: 'referrer' as const, key: `r${f}.example`, count: 1 },
      ]),
      visitors: ids.map((linkId) => ({ linkId, day: LOG_DAY, hash: `h${f % 4}` })),
    };
    await stores.visits.record(batch);
  }
  return ids;
}

/** Per link: clicks, the statistics total, unique visitors and counted keys on {@link LOG_DAY}, as read now. */
export function visitFigures(stores: Stores, ids: readonly string[]) {
  return Promise.all(
    ids.map(async (id) => ({
      clicks: (await stores.links.findById(id))?.clicks,
      total: (await stores.visits.countsByDay(id, 'total', LOG_DAY, LOG_DAY))[0]?.count,
      unique: (await stores.visits.countsByDay(id, 'unique', LOG_DAY, LOG_DAY))[0]?.count,
      keys: (await stores.visits.countsByKey(id, LOG_DAY, LOG_DAY)).length,
    })),
  );
}
