import { addDays, dayOf, mondayOf, UNKEYED_DIMENSIONS } from '@shortener/core';
import type { CounterIncrement, DayCount, DimensionCount, VisitDimension } from '@shortener/core';
import { aLink, compactAll } from '@shortener/testkit';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createWeekSummer } from '../src/counter-weeks.js';
import { createCounterWriter } from '../src/counter-writes.js';
import { KEYED_ROW } from '../src/migrations/023-counter-weeks.js';
import { openSqliteStores } from '../src/index.js';
import type { SqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();
const closing: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

const today = dayOf(Date.now());
const DAYS = 80;
const dimensions = ['country', 'referrer', 'device', 'browser'] as const;

/** A link's counters of a day: an hourly total, and keyed ones whose keys vary with the day. */
function countersOf(linkId: string, day: string, seed: number): CounterIncrement[] {
  return [
    { linkId, day, dimension: 'total', key: String(seed % 24).padStart(2, '0'), count: seed + 1 },
    ...dimensions.map((dimension, d) => ({
      linkId,
      day,
      dimension,
      key: `k${(seed + d) % 5}`,
      count: d + seed,
    })),
  ];
}

// the keyed sums of a link's days, straight from its daily counters
const FROM_DAYS = `SELECT dimension, key, SUM(count) AS count FROM all_counters c
  WHERE link_id = ? AND day BETWEEN ? AND ? AND ${KEYED_ROW('c')} GROUP BY dimension, key`;

// and the hourly (or any) counters of its days
const DAYS_FROM_DAYS = `SELECT day, dimension, key, count FROM all_counters
  WHERE link_id = ? AND day BETWEEN ? AND ? AND dimension IN (SELECT value FROM json_each(?))`;

const sorted = (counts: readonly (DimensionCount & { day?: string })[]) =>
  counts
    .filter((c) => c.count !== 0)
    .map((c) => `${c.day ?? ''}/${c.dimension}/${c.key}=${c.count}`)
    .sort();

/** Every range below reads what the days hold, whatever is summed. */
async function expectSumsOfDays(stores: SqliteStores, raw: Database, links: readonly string[]) {
  const fromDays = raw.prepare<[string, string, string], DimensionCount>(FROM_DAYS);
  const daysFromDays = raw.prepare<[string, string, string, string], DayCount>(DAYS_FROM_DAYS);
  const ranges = [
    [addDays(today, -DAYS), today],
    [addDays(today, -60), addDays(today, -9)],
    [addDays(today, -45), addDays(today, -44)],
    [addDays(mondayOf(today), -14), addDays(mondayOf(today), -1)],
  ] as const;
  for (const link of links) {
    for (const [from, to] of ranges) {
      const read = await stores.visits.countsByKeyOf([link], from, to);
      expect([link, from, to, sorted(read)]).toEqual([link, from, to, sorted(fromDays.all(link, from, to))]);
      for (const dimensions of [['total', 'bots'], ['total'], ['unique'], ['total', 'country']] as const) {
        const days = await stores.visits.countsByDayOf([link], dimensions, from, to);
        const expected = daysFromDays.all(link, from, to, JSON.stringify(dimensions));
        expect([link, from, to, dimensions, sorted(days)]).toEqual([
          link,
          from,
          to,
          dimensions,
          sorted(expected),
        ]);
      }
    }
  }
}

async function givenLinksWithDays(count: number) {
  const path = nextPath();
  const stores = openSqliteStores(path);
  closing.push(() => stores.close());
  const links = Array.from({ length: count }, () => aLink());
  await stores.links.insertMany(links);
  const ids = links.map((l) => l.id);
  const counters = ids.flatMap((id, l) =>
    Array.from({ length: DAYS + 1 }, (_, i) => i)
      .filter((i) => (i + l) % 3 !== 0)
      .flatMap((i) => countersOf(id, addDays(today, -i), i + l)),
  );
  await stores.visits.record({ clicks: [], counters, visitors: [] });
  await compactAll(stores, 1000);
  const raw = new BetterSqlite3(path);
  closing.push(() => raw.close());
  // nothing summed yet: the compactor's own steps above are undone
  raw.exec(
    `DELETE FROM counter_weeks; UPDATE counter_weeks_summed SET before = '', target = '', cursor = ''`,
  );
  return { stores, raw, ids };
}

const summedState = (raw: Database) =>
  raw.prepare('SELECT before, target, cursor FROM counter_weeks_summed').get() as Record<string, string>;

/**
 * A late write: a counter added into a day, or a new one, as the compactor's writes do (a day packed in
 * `counter_days` unpacked first, migration 034).
 */
function lateWrites(raw: Database) {
  const writer = createCounterWriter(raw);
  return {
    run: (linkId: string, day: string, dimension: VisitDimension, key: string, count: number) =>
      writer.add({ linkId, day, dimension, key, count }),
  };
}

describe('keyed counters summed per week (migration 023)', () => {
  it('spells out the keyed dimensions as core names them', () => {
    expect(KEYED_ROW('c')).toBe(UNKEYED_DIMENSIONS.map((d) => `c.dimension <> '${d}'`).join(' AND '));
  });

  it('reads what the days hold before, during and after a pass, through late writes into summed and unsummed weeks', async () => {
    const { stores, raw, ids } = await givenLinksWithDays(5);
    await expectSumsOfDays(stores, raw, ids);
    const step = createWeekSummer(raw);
    const late = lateWrites(raw);
    // one link a step (no time to spare), each followed by writes into old days of every link
    for (let s = 0; s < ids.length; s++) {
      expect(step(0, today)).toBe(1);
      expect(summedState(raw)).toMatchObject({ before: '', target: mondayOf(today) });
      for (const [l, id] of ids.entries()) {
        late.run(id, addDays(today, -20 - s - l), 'country', 'k1', 7); // held key or new
        late.run(id, addDays(today, -40 - s), 'referrer', `late${s}`, 3); // a new key
        // an hourly total (no week, a packed day): a new hour, then the same hour again
        for (const count of [2, 5]) late.run(id, addDays(today, -41 - s), 'total', '05', count);
      }
      await expectSumsOfDays(stores, raw, ids);
    }
    // the pass ends once no link is left, then nothing is to do until next week
    expect(step(0, today)).toBe(0);
    expect(summedState(raw)).toEqual({ before: mondayOf(today), target: mondayOf(today), cursor: '' });
    expect(step(0, today)).toBe(0);
    expect(raw.prepare('SELECT COUNT(*) FROM counter_weeks').pluck().get()).toBeGreaterThan(0);
    expect(raw.prepare('SELECT MAX(day) FROM counter_hours').pluck().get()).toBe(
      addDays(mondayOf(today), -1),
    );
    // no week of this week's days or later is summed
    expect(raw.prepare('SELECT MAX(week) FROM counter_weeks').pluck().get()).toBe(
      addDays(mondayOf(today), -7),
    );

    for (const [l, id] of ids.entries()) late.run(id, addDays(today, -30 - l), 'device', 'k2', 11);
    await expectSumsOfDays(stores, raw, ids);
    // a late fold through the log, as an import's or a restore's visits come
    const [first, second] = ids as [string, string];
    await stores.visits.record({
      clicks: [],
      counters: countersOf(first, addDays(today, -50), 3),
      visitors: [],
    });
    await compactAll(stores, 1000);
    await expectSumsOfDays(stores, raw, ids);

    // pruning mid-week takes its days out of the week, and drops the weeks it empties
    await stores.visits.pruneCounters(addDays(today, -33));
    await expectSumsOfDays(stores, raw, ids);
    const oldest = raw.prepare('SELECT MIN(week) FROM counter_weeks').pluck().get() as string;
    expect(oldest >= mondayOf(addDays(today, -33))).toBe(true);

    // a deleted link takes its weeks along
    await stores.links.delete(second);
    for (const table of ['counter_weeks', 'counter_hours', 'counter_days'])
      expect(raw.prepare(`SELECT COUNT(*) FROM ${table} WHERE link_id = ?`).pluck().get(second)).toBe(0);
    await expectSumsOfDays(
      stores,
      raw,
      ids.filter((id) => id !== second),
    );
  });

  it('is summed beside the folds of the background worker, as on the server', async () => {
    const path = nextPath();
    const stores = openSqliteStores(path, { backgroundCompaction: true });
    closing.push(() => stores.close());
    const link = aLink();
    await stores.links.insertMany([link]);
    const counters = [20, 40, 60].flatMap((ago) => countersOf(link.id, addDays(today, -ago), ago));
    await stores.visits.record({ clicks: [], counters, visitors: [] });
    const raw = new BetterSqlite3(path);
    closing.push(() => raw.close());
    // a compaction that finds the log empty sums a step (each at most 10 ms: a few on a slow machine)
    for (let i = 0; i < 50 && summedState(raw).before !== mondayOf(today); i++)
      await stores.visits.compact(100);
    expect(summedState(raw)).toEqual({ before: mondayOf(today), target: mondayOf(today), cursor: '' });
    for (const table of ['counter_weeks', 'counter_hours'])
      expect(
        raw.prepare(`SELECT COUNT(*) FROM ${table} WHERE link_id = ?`).pluck().get(link.id),
      ).toBeGreaterThan(0);
    await expectSumsOfDays(stores, raw, [link.id]);
  });

  it('stays equal to the days under a hundred late flushes at once while the worker folds them into summed weeks', async () => {
    const path = nextPath();
    const stores = openSqliteStores(path, { backgroundCompaction: true });
    closing.push(() => stores.close());
    const links = Array.from({ length: 20 }, () => aLink());
    await stores.links.insertMany(links);
    const ids = links.map((l) => l.id);
    const past = (id: string, l: number) =>
      [20, 40, 60].flatMap((ago) => countersOf(id, addDays(today, -ago), ago + l));
    await stores.visits.record({ clicks: [], counters: ids.flatMap(past), visitors: [] });
    const raw = new BetterSqlite3(path);
    closing.push(() => raw.close());
    // every week that is over summed; then a hundred flushes into old days of every link, beside
    // compactions on the worker's connection that fold them into summed weeks, all at once
    for (let i = 0; i < 100 && summedState(raw).before !== mondayOf(today); i++)
      await stores.visits.compact(100);
    expect(summedState(raw).before).toBe(mondayOf(today));
    const flushes = Array.from({ length: 100 }, (_, f) =>
      stores.visits.record({
        clicks: [],
        counters: ids.flatMap((id, l) => countersOf(id, addDays(today, -10 - ((f + l) % 70)), f)),
        visitors: [],
      }),
    );
    const folds = Array.from({ length: 30 }, () => stores.visits.compact(50));
    await Promise.all([...flushes, ...folds]);
    await compactAll(stores, 1000);
    for (let i = 0; i < 100 && summedState(raw).before !== mondayOf(today); i++)
      await stores.visits.compact(100);
    expect(summedState(raw).before).toBe(mondayOf(today));
    await expectSumsOfDays(stores, raw, ids);
  });

  it('sums a new week once it is over, and the weeks a pass summed stay', async () => {
    const { stores, raw, ids } = await givenLinksWithDays(3);
    const step = createWeekSummer(raw);
    const lastWeek = addDays(today, -7);
    while (step(10, lastWeek) > 0);
    expect(summedState(raw).before).toBe(mondayOf(lastWeek));
    await expectSumsOfDays(stores, raw, ids);
    expect(step(10, today)).toBe(ids.length);
    expect(summedState(raw).before).toBe(mondayOf(today));
    await expectSumsOfDays(stores, raw, ids);
  });
});
