import { aLink } from '@shortener/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteStores } from '../src/index.js';
import type { SqliteStores } from '../src/index.js';

let stores: SqliteStores;

beforeEach(() => {
  stores = openSqliteStores(':memory:');
});

afterEach(async () => {
  await stores.close();
});

const DAY = '2026-01-01';

describe('the SQLite visit store', () => {
  it('drops the increments of missing links and applies the rest of the batch', async () => {
    const link = aLink();
    await stores.links.insert(link);
    await stores.visits.record({
      clicks: [
        { linkId: 'gone', count: 3, lastClickAt: 10 },
        { linkId: link.id, count: 2, lastClickAt: 10 },
      ],
      counters: [
        { linkId: 'gone', day: DAY, dimension: 'total', key: '', count: 3 },
        { linkId: link.id, day: DAY, dimension: 'total', key: '', count: 2 },
      ],
      visitors: [
        { linkId: 'gone', day: DAY, hash: 'h' },
        { linkId: link.id, day: DAY, hash: 'h' },
      ],
    });
    expect(await stores.links.findById(link.id)).toMatchObject({ clicks: 2, lastClickAt: 10 });
    expect(await stores.visits.countsByKey(link.id, DAY, DAY)).toEqual([
      { dimension: 'total', key: '', count: 2 },
      { dimension: 'unique', key: '', count: 1 },
    ]);
    expect(await stores.visits.countsByKey('gone', DAY, DAY)).toEqual([]);
  });

  it('never moves lastClickAt backwards', async () => {
    const link = aLink({ lastClickAt: 500 });
    await stores.links.insert(link);
    await stores.visits.record({
      clicks: [{ linkId: link.id, count: 1, lastClickAt: 100 }],
      counters: [],
      visitors: [],
    });
    expect(await stores.links.findById(link.id)).toMatchObject({ clicks: 1, lastClickAt: 500 });
  });

  it('keeps the first salt of a day', async () => {
    expect(await stores.visits.salt(DAY, 'first')).toBe('first');
    expect(await stores.visits.salt(DAY, 'second')).toBe('first');
  });
});
