import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { aLink } from '@shortener/testkit';
import { openSqliteStores } from '@shortener/store-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { compactionRound } from '../src/compaction.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A visit batch of one click on each of `linkIds`, as a flush writes it (one log entry a link). */
const batchOf = (linkIds: readonly string[]) => ({
  clicks: linkIds.map((linkId) => ({ linkId, count: 1, lastClickAt: 1 })),
  counters: linkIds.map((linkId) => ({
    linkId,
    day: '2026-01-01',
    dimension: 'total' as const,
    key: '00',
    count: 1,
  })),
  visitors: [],
});

describe('a compaction round beside other writers (SQLite, the server worker)', () => {
  it('lets 100 concurrent creations and flushes through, loses no click, and never stalls the event loop long', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'compaction-writers-'));
    dirs.push(dir);
    // as `serve` opens it: the fold and the checkpoints in the worker, the writes on the main connection
    const stores = openSqliteStores(join(dir, 'db.sqlite'), {
      backgroundCheckpoints: true,
      backgroundCompaction: true,
    });
    try {
      const links = Array.from({ length: 6_000 }, () => aLink({ accountId: null }));
      for (const r of await stores.links.insertMany(links)) expect(r.ok).toBe(true);
      const ids = links.map((l) => l.id);
      // a log of 6,000 entries: 24 chunks or more, each a transaction holding the write lock
      for (let i = 0; i < ids.length; i += 500) await stores.visits.record(batchOf(ids.slice(i, i + 500)));

      let gap = 0;
      let last = performance.now();
      const watch = setInterval(() => {
        const now = performance.now();
        gap = Math.max(gap, now - last);
        last = now;
      }, 2);
      const round = compactionRound(stores.visits, () => false);
      // while it folds: 100 creations and 20 flushes at once, each waiting for the lock its own way
      const created = Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          new Promise((r) => setTimeout(r, i % 40)).then(() =>
            stores.links.insert(aLink({ accountId: null })),
          ),
        ),
      );
      const flushed = Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          new Promise((r) => setTimeout(r, i * 3)).then(() =>
            stores.visits.record(batchOf(ids.slice(i * 10, i * 10 + 10))),
          ),
        ),
      );
      const [results] = await Promise.all([created, flushed, round]);
      clearInterval(watch);
      expect(results.every((r) => r.ok)).toBe(true);
      while ((await stores.visits.compact(1_000)) > 0);
      expect(await stores.visits.logSize()).toBe(0);
      // every click folded once: 6,000 from the log, 200 from the flushes made during the round
      let clicks = 0;
      for (const id of ids) clicks += (await stores.links.findById(id))!.clicks;
      expect(clicks).toBe(6_200);
      // a creation waits for the lock in SQLite's busy handler, which sleeps this thread: a chunk's
      // length at most (about 6 ms of 250 entries), not the round's
      expect(gap).toBeLessThan(50); // 5-15 ms here; one transaction for the whole log: 83
    } finally {
      await stores.close();
    }
  });
});
