import { FIXTURE_TIME, anInsertedLink } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { openSqliteDatabase, openSqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const dbPath = useTempDbPaths();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the flush and a write lock held by another connection', () => {
  it('waits for the lock without stopping the event loop, then writes', async () => {
    const path = dbPath();
    const stores = openSqliteStores(path);
    const link = await anInsertedLink(stores.links);
    const other = openSqliteDatabase(path);
    other.exec('BEGIN IMMEDIATE'); // as the checkpoint worker or another process does
    const flushed = stores.visits.record({
      clicks: [{ linkId: link.id, count: 3, lastClickAt: FIXTURE_TIME }],
      counters: [{ linkId: link.id, day: '2026-01-01', dimension: 'total', key: '', count: 3 }],
      visitors: [],
    });
    let ticks = 0;
    for (let i = 0; i < 5; i++) {
      await sleep(5);
      ticks++;
    }
    expect(ticks).toBe(5); // timers ran while the flush waited
    other.exec('COMMIT');
    await flushed;
    expect((await stores.links.findById(link.id))?.clicks).toBe(3);
    other.close();
    await stores.close();
  });

  it('gives up with the busy error, as the store unavailable, once the lock stays taken for 5 s', async () => {
    const path = dbPath();
    const stores = openSqliteStores(path);
    const other = openSqliteDatabase(path);
    other.exec('BEGIN IMMEDIATE');
    const started = Date.now();
    await expect(stores.visits.record({ clicks: [], counters: [], visitors: [] })).rejects.toMatchObject({
      storeUnavailable: true,
      message: expect.stringMatching(/\(SQLITE_BUSY/),
      cause: { code: expect.stringMatching(/^SQLITE_BUSY/) },
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
    other.exec('ROLLBACK');
    other.close();
    await stores.close();
  }, 15_000);
});
