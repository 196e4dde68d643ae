import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { VisitBatch } from '@shortener/core';
import { FIXTURE_TIME, aLink, anInsertedLink } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { CHECKPOINTS_SOURCE, checkpointConfigOf, startBackgroundCheckpoints } from '../src/checkpointer.js';
import { openSqliteDatabase, openSqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const dbPath = useTempDbPaths();
const sizeOf = (path: string) => statSync(path).size;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('background WAL checkpoints', () => {
  it('copies committed pages into the database file from a worker, not the committing connection', async () => {
    const path = dbPath();
    const db = openSqliteDatabase(path);
    const checkpointer = startBackgroundCheckpoints(db, { intervalMs: 50 });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const before = sizeOf(path);
    db.exec('CREATE TABLE filler (x TEXT)');
    const fill = db.prepare('INSERT INTO filler VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 2000; i += 1) fill.run('x'.repeat(500));
    })();
    await sleep(400);
    expect(sizeOf(path)).toBeGreaterThan(before + 500_000);
    await checkpointer.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    db.close();
  });

  it('looks at the WAL seldom while nobody commits, and often again from the first commit', async () => {
    const path = dbPath();
    const db = openSqliteDatabase(path);
    db.exec('CREATE TABLE filler (x TEXT)');
    // the loop as a worker runs it, with a require whose statSync counts the looks at the WAL's size
    let looks = 0;
    const real = createRequire(import.meta.url);
    const counting = (id: string): unknown =>
      id === 'node:fs' ? { statSync: (file: string) => ((looks += 1), statSync(file)) } : real(id);
    const start = new Function('require', `${CHECKPOINTS_SOURCE}; return startCheckpoints;`)(counting) as (
      config: unknown,
    ) => () => void;
    const config = {
      ...checkpointConfigOf(db),
      intervalMs: 50,
      pollMs: 10,
      idlePollMs: 200,
      idleAfterMs: 150,
    };
    const stop = start(config);
    const looksIn = async (ms: number) => {
      const from = looks;
      await sleep(ms);
      return looks - from;
    };
    try {
      await sleep(300); // past idleAfterMs without a commit
      expect(await looksIn(1000)).toBeLessThanOrEqual(7); // every 200 ms, not every 10
      const before = sizeOf(path);
      const fill = db.prepare('INSERT INTO filler VALUES (?)');
      db.transaction(() => {
        for (let i = 0; i < 2000; i += 1) fill.run('x'.repeat(500));
      })();
      // the next slow look (within 200 ms) sees the commit: looks every 10 ms for 150 ms after it
      expect(await looksIn(400)).toBeGreaterThanOrEqual(8);
      // and the commit after the quiet spell was checkpointed into the database file
      expect(sizeOf(path)).toBeGreaterThan(before + 500_000);
    } finally {
      stop();
      db.close();
    }
  });

  it('keeps the WAL under 40 MiB while creations, capped clicks and visit flushes never pause', async () => {
    const stores = openSqliteStores(dbPath(), { backgroundCheckpoints: true });
    const hot = aLink({ slug: 'hot', maxClicks: 1_000_000_000 });
    await stores.links.insert(hot);
    const end = Date.now() + 5000;
    let largest = 0;
    let round = 0;
    // About the mixed load (its WAL grew by 46 MB/s): 10 capped clicks, 5 creations and a visit
    // flush every 2 ms or so.
    while (Date.now() < end) {
      round += 1;
      const creations = Array.from({ length: 5 }, (_, i) =>
        stores.links.insert(aLink({ slug: `s${round}-${i}` })),
      );
      for (let i = 0; i < 10; i += 1) await stores.links.tryConsumeClick(hot.id, FIXTURE_TIME + round);
      await stores.visits.record(aVisitFlush(hot.id, round));
      await Promise.all(creations);
      largest = Math.max(largest, stores.walBytes());
      await sleep(2); // a server answers requests in between
    }
    expect(round).toBeGreaterThan(500);
    // The default limit (16 MiB) plus what this load writes while a checkpoint runs; passive
    // checkpoints alone left over 100 MB here, growing by about 20 MB a second.
    expect(largest).toBeLessThan(40 * 1024 * 1024);
    expect((await stores.links.findById(hot.id))?.clicks).toBe(round * 13);
    await stores.close();
  }, 20_000);

  it('trims the WAL after a restart when the visit worker resets it, as the server runs', async () => {
    const limit = 1024 * 1024;
    const stores = openSqliteStores(dbPath(), {
      backgroundCheckpoints: true,
      backgroundWrites: true,
      checkpoints: { walLimitBytes: limit, pollMs: 20 },
    });
    const links = Array.from({ length: 2000 }, (_, i) => aLink({ slug: `w${i}` }));
    await stores.links.insertMany(links);
    // one flush of the worker's connection far past the limit, then the checkpointer restarts the log
    const day = '2025-01-01';
    const key = (i: number) => `${'r'.repeat(200)}${i}.example`;
    await stores.visits.record({
      clicks: [],
      counters: links.flatMap((link, i) =>
        [0, 1, 2, 3].map((n) => ({
          linkId: link.id,
          day,
          dimension: 'referrer' as const,
          key: key(i * 4 + n),
          count: 1,
        })),
      ),
      visitors: [],
    });
    expect(stores.walBytes()).toBeGreaterThan(2 * limit);
    await sleep(500);
    // the next commit of that connection starts the log again, and trims the file to the limit
    await stores.visits.record(aVisitFlush(links[0]!.id, 1));
    expect(stores.walBytes()).toBeLessThanOrEqual(limit);
    await stores.close();
  });

  it("checkpoints from the visit worker's thread when one runs, not a thread of its own", async () => {
    const threads = () => readdirSync('/proc/self/task').length;
    const path = dbPath();
    const before = threads();
    const stores = openSqliteStores(path, {
      backgroundCheckpoints: true,
      backgroundCompaction: true,
      checkpoints: { intervalMs: 50, pollMs: 20 },
    });
    const reader = openSqliteDatabase(path);
    try {
      expect(reader.pragma('journal_mode', { simple: true })).toBe('wal');
      const links = Array.from({ length: 500 }, (_, i) => aLink({ slug: `t${i}` }));
      await stores.links.insertMany(links);
      for (let round = 1; round <= 20; round++)
        await stores.visits.record(aVisitFlush(links[round]!.id, round));
      const fileBefore = sizeOf(path);
      await sleep(400); // a PASSIVE checkpoint copied the commits into the file
      expect(sizeOf(path)).toBeGreaterThan(fileBefore);
      expect(threads() - before).toBe(1); // the visit worker's
      expect(await stores.visits.compact(100)).toBe(20);
    } finally {
      reader.close();
      await stores.close();
    }
  });

  it('runs with the stores of the server and stops when they close', async () => {
    const stores = openSqliteStores(dbPath(), { backgroundCheckpoints: true });
    const link = await anInsertedLink(stores.links);
    expect(await stores.links.findById(link.id)).toEqual(link);
    await stores.close();
  });
});

/** What one visit flush of a busy link writes: its clicks and a few counters. */
function aVisitFlush(linkId: string, round: number): VisitBatch {
  const day = '2025-01-01';
  return {
    clicks: [{ linkId, count: 3, lastClickAt: FIXTURE_TIME + round }],
    counters: [
      { linkId, day, dimension: 'total', key: '00', count: 3 },
      { linkId, day, dimension: 'referrer', key: `r${round % 50}.example`, count: 3 },
    ],
    visitors: [{ linkId, day, hash: `h${round}` }],
  };
}
