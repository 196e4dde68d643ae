import { createMemoryStores } from '@shortener/store-memory';
import { storeUnavailable } from '@shortener/core';
import { anInsertedLink } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { COMPACT_CHUNK, compactionRound, LOG_HIGH_WATER, startVisitCompaction } from '../src/compaction.js';
import { createJsonLogger } from '../src/logger.js';

/** Memory stores whose visit log holds `entries` entries of one link. */
async function storesWithLog(entries: number) {
  const stores = createMemoryStores();
  const link = await anInsertedLink(stores.links);
  await appendEntries(stores, link.id, entries);
  return { stores, link };
}

async function appendEntries(stores: ReturnType<typeof createMemoryStores>, linkId: string, entries: number) {
  const link = { id: linkId };
  for (let i = 0; i < entries; i++) {
    await stores.visits.record({
      clicks: [{ linkId: link.id, count: 1, lastClickAt: 1 }],
      counters: [{ linkId: link.id, day: '2026-01-01', dimension: 'total', key: '00', count: 1 }],
      visitors: [],
    });
  }
}

describe('the compaction timer', () => {
  it('folds at an ordinary pace, and leaves a log that grows by thousands of entries between looks', async () => {
    // visits waiting to be written stay at 0 here, as under cold visits flushed within the second
    const { stores, link } = await storesWithLog(1_000);
    const lines: string[] = [];
    const logger = createJsonLogger({ stream: { write: (line) => lines.push(line) } });
    const compaction = startVisitCompaction(stores.visits, logger, () => 0, 5_000);
    try {
      await until(async () => (await stores.visits.logSize()) === 0); // the first look, 2 s in
      await appendEntries(stores, link.id, 5_000);
      await new Promise((resolve) => setTimeout(resolve, 2_500)); // the second look: a burst
      expect(await stores.visits.logSize()).toBe(5_000);
    } finally {
      await compaction.stop();
    }
    expect(lines).toEqual([]);
  }, 10_000);

  it('looks at the visits waiting only while there are any, and holds the fold while they come in a burst', async () => {
    const { stores, link } = await storesWithLog(0);
    const logger = createJsonLogger({ stream: { write: () => undefined } });
    let waiting = 0;
    let looks = 0;
    const looksIn = async (ms: number) => {
      const from = looks;
      await new Promise((resolve) => setTimeout(resolve, ms));
      return looks - from;
    };
    const compaction = startVisitCompaction(stores.visits, logger, () => ((looks += 1), waiting), 5_000);
    try {
      // idle: one look at the start, none between two rounds (it looked ten times a second)
      expect(await looksIn(1_500)).toBeLessThanOrEqual(1);
      waiting = 6_000; // a burst: the next round (2 s in) looks, then every 100 ms
      await appendEntries(stores, link.id, 10);
      expect(await looksIn(1_500)).toBeGreaterThanOrEqual(5);
      expect(await stores.visits.logSize()).toBe(10); // held by the burst
      waiting = 0; // the visits stop: ten quiet looks, then none until the next round
      await new Promise((resolve) => setTimeout(resolve, 1_600));
      expect(await looksIn(600)).toBeLessThanOrEqual(1);
    } finally {
      await compaction.stop();
    }
  }, 10_000);

  it('logs a busy or unreachable database as a warning, since the next round tries again, and anything else as an error', async () => {
    const { stores } = await storesWithLog(10);
    const lines: string[] = [];
    const logger = createJsonLogger({ stream: { write: (line) => lines.push(line) } });
    const failures = [
      Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
      storeUnavailable(
        'The database is busy.',
        Object.assign(new Error('locked'), { code: 'SQLITE_BUSY_SNAPSHOT' }),
      ),
      // PostgreSQL restarting, as its store throws it (issue 60: this was logged at error)
      storeUnavailable(
        'The database does not answer (ECONNREFUSED).',
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      ),
      new Error('no such table: visit_log'),
    ];
    const visits = { ...stores.visits, logSize: () => Promise.reject(failures.shift() ?? new Error('done')) };
    const compaction = startVisitCompaction(visits, logger, () => 0, 5_000);
    try {
      await until(async () => lines.length >= 4, 250);
    } finally {
      await compaction.stop();
    }
    const levels = lines.slice(0, 4).map((line) => (JSON.parse(line) as { level: string }).level);
    expect(levels).toStrictEqual(['warn', 'warn', 'warn', 'error']);
  }, 20_000);
});

async function until(done: () => Promise<boolean>, most = 100): Promise<void> {
  for (let tries = 0; !(await done()); tries++) {
    if (tries > most) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('a compaction round', () => {
  it('folds the whole log while visits come at an ordinary pace', async () => {
    const { stores, link } = await storesWithLog(1_234);
    expect(await compactionRound(stores.visits, () => false)).toBe(1_234);
    expect(await stores.visits.logSize()).toBe(0);
    const total = await stores.visits.countsByDay(link.id, 'total', '2026-01-01', '2026-01-01');
    expect(total).toEqual([{ key: '2026-01-01', count: 1_234 }]);
  });

  it('leaves the log to a burst until it passes the high-water mark, then folds it to half', async () => {
    const { stores } = await storesWithLog(LOG_HIGH_WATER - 1);
    expect(await compactionRound(stores.visits, () => true)).toBe(0);
    const { stores: full } = await storesWithLog(LOG_HIGH_WATER + 100);
    await compactionRound(full.visits, () => true);
    expect(await full.visits.logSize()).toBeLessThanOrEqual(LOG_HIGH_WATER / 2);
    expect(await full.visits.logSize()).toBeGreaterThan(LOG_HIGH_WATER / 2 - COMPACT_CHUNK);
  });

  it('stops between chunks once asked to', async () => {
    const { stores } = await storesWithLog(2_000);
    let chunks = 0;
    const visits = { ...stores.visits, compact: (n: number) => (chunks++, stores.visits.compact(n)) };
    await compactionRound(
      visits,
      () => false,
      () => chunks >= 3,
    );
    expect(await stores.visits.logSize()).toBe(2_000 - 3 * COMPACT_CHUNK);
  });
});
