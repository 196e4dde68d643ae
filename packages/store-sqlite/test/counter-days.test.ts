// A link-day's counters packed in one row (migrations 034 and 036, issue 58): the compactor writes a day
// new to the store as one `counter_days` row, writes it again with the new counts when the day is folded
// again, and unpacks it into `visit_counters` once it holds more than `PACKED_LIMIT` counters. Whatever
// the path (packed, packed again, unpacked, claimed, deleted, pruned, summed into weeks), what the
// triggers keep (account sums, weeks, packed hours) equals what the counters hold, a link-day is never
// in both tables, and the reads count every counter once.
import { addDays, dayOf, MAX_KEYS_PER_DAY, mondayOf } from '@shortener/core';
import type { CounterIncrement, VisitDimension } from '@shortener/core';
import { anAccount, aLink, compactAll } from '@shortener/testkit';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { PACKED_LIMIT } from '../src/counter-writes.js';
import { sumCounterWeeks } from '../src/counter-weeks.js';
import { openSqliteStores } from '../src/index.js';
import type { SqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();
const closing: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

const today = dayOf(Date.now());

/** A visit's counters on a day: its hour, a visitor, and keyed ones. */
const visitOf = (linkId: string, day: string, n: number): CounterIncrement[] =>
  (
    [
      ['total', String(n % 24).padStart(2, '0')],
      ['unique', ''],
      ['country', `C${n % 3}`],
      ['referrer', `r${n % 2}`],
      ['device', 'desktop'],
      ['browser', `b${n % 4}`],
    ] as [VisitDimension, string][]
  ).map(([dimension, key]) => ({ linkId, day, dimension, key, count: 1 + (n % 5) }));

const rows = (raw: Database, sql: string, ...params: unknown[]) =>
  (raw.prepare(sql).all(...params) as Record<string, unknown>[])
    .map((row) => Object.values(row).join('/'))
    .sort();

/** What the triggers keep equals what the counters hold; no link-day is in both tables. */
function expectKeptSumsHold(raw: Database): void {
  const owned = `FROM all_counters c JOIN links l ON l.id = c.link_id WHERE l.account_id IS NOT NULL`;
  expect(
    rows(raw, 'SELECT account_id, day, dimension, key, count FROM account_counters WHERE count <> 0'),
  ).toEqual(
    rows(raw, `SELECT l.account_id, c.day, c.dimension, c.key, SUM(c.count) ${owned} GROUP BY 1, 2, 3, 4`),
  );
  expect(rows(raw, 'SELECT account_id, day, link_id, count FROM account_link_days WHERE count <> 0')).toEqual(
    rows(
      raw,
      `SELECT l.account_id, c.day, c.link_id, SUM(c.count) ${owned} AND c.dimension = 'total' GROUP BY 1, 2, 3`,
    ),
  );
  const summed = raw.prepare('SELECT before FROM counter_weeks_summed').pluck().get() as string;
  expect(
    rows(raw, 'SELECT link_id, week, dimension, key, count FROM counter_weeks WHERE count <> 0'),
  ).toEqual(
    rows(
      raw,
      `SELECT link_id, date(day, '-' || ((CAST(strftime('%w', day) AS INTEGER) + 6) % 7) || ' days') AS week,
        dimension, key, SUM(count) FROM all_counters
      WHERE day < ? AND dimension NOT IN ('total', 'bots', 'unique') GROUP BY 1, 2, 3, 4`,
      summed,
    ),
  );
  const hours = raw.prepare('SELECT link_id, day, dimension, pairs FROM counter_hours').all() as {
    link_id: string;
    day: string;
    dimension: string;
    pairs: string;
  }[];
  const unpackedHours = hours
    .flatMap((h) =>
      h.pairs
        .split('\u001e')
        .map((pair) => `${h.link_id}/${h.day}/${h.dimension}/${pair.replace('\u001f', '/')}`),
    )
    .sort();
  expect(unpackedHours).toEqual(
    rows(
      raw,
      `SELECT link_id, day, dimension, key, count FROM all_counters
      WHERE day < ? AND dimension IN ('total', 'bots')`,
      summed,
    ),
  );
  expect(
    raw
      .prepare(
        `SELECT COUNT(*) FROM counter_days d
        WHERE EXISTS (SELECT 1 FROM visit_counters c WHERE c.link_id = d.link_id AND c.day = d.day)`,
      )
      .pluck()
      .get(),
  ).toBe(0);
}

async function givenStores() {
  const path = nextPath();
  const stores = openSqliteStores(path);
  closing.push(() => stores.close());
  const raw = new BetterSqlite3(path);
  closing.push(() => raw.close());
  const account = anAccount();
  await stores.accounts.createAccount(account);
  const owned = aLink({ accountId: account.id });
  const anonymous = aLink({ accountId: null });
  await stores.links.insertMany([owned, anonymous]);
  return { stores, raw, account: account.id, owned: owned.id, anonymous: anonymous.id };
}

async function fold(stores: SqliteStores, counters: CounterIncrement[]) {
  await stores.visits.record({ clicks: [], counters, visitors: [] });
  await compactAll(stores, 1000);
}

const count = (raw: Database, table: string, linkId: string) =>
  raw.prepare(`SELECT COUNT(*) FROM ${table} WHERE link_id = ?`).pluck().get(linkId) as number;

describe('counters of a link-day packed in one row (migration 034)', () => {
  it('folds a day new to the store into one row, writes it again when the day is folded again, and reads each counter once', async () => {
    const { stores, raw, account, owned, anonymous } = await givenStores();
    const first = [...visitOf(owned, today, 1), ...visitOf(anonymous, today, 2), ...visitOf(owned, today, 3)];
    await fold(stores, first);
    for (const link of [owned, anonymous]) {
      expect(count(raw, 'counter_days', link)).toBe(1);
      expect(count(raw, 'visit_counters', link)).toBe(0);
    }
    expectKeptSumsHold(raw);
    const keyed = await stores.visits.countsByKey(owned, today, today);
    expect(keyed).toEqual(expect.arrayContaining([{ dimension: 'unique', key: '', count: 2 + 4 }]));
    expect(keyed.filter((c) => c.dimension === 'device')).toEqual([
      { dimension: 'device', key: 'desktop', count: 6 },
    ]);
    const accountKeys = await stores.visits.ofAccount!.countsByKey(account, today, today);
    expect(accountKeys.filter((c) => c.dimension === 'device')).toEqual([
      { dimension: 'device', key: 'desktop', count: 6 },
    ]);

    // folded again: still one row, the new counts added, the sums unchanged but for them
    await fold(stores, [...visitOf(owned, today, 4), ...visitOf(anonymous, today, 5)]);
    for (const link of [owned, anonymous]) {
      expect(count(raw, 'counter_days', link)).toBe(1);
      expect(count(raw, 'visit_counters', link)).toBe(0);
    }
    expectKeptSumsHold(raw);
    expect(
      (await stores.visits.countsByKey(owned, today, today)).filter((c) => c.dimension === 'device'),
    ).toEqual([{ dimension: 'device', key: 'desktop', count: 6 + 5 }]);
    expect(
      (await stores.visits.ofAccount!.countsByKey(account, today, today)).filter(
        (c) => c.dimension === 'device',
      ),
    ).toEqual([{ dimension: 'device', key: 'desktop', count: 11 }]);
  });

  it('keeps the account sums through a claim and a deletion of a link whose days are packed', async () => {
    const { stores, raw, account, owned, anonymous } = await givenStores();
    const days = [0, 1, 2, 9].map((ago) => addDays(today, -ago));
    await fold(
      stores,
      days.flatMap((day, i) => [...visitOf(owned, day, i), ...visitOf(anonymous, day, i + 1)]),
    );
    expect(count(raw, 'counter_days', anonymous)).toBe(days.length);
    expectKeptSumsHold(raw);
    raw.prepare('UPDATE links SET account_id = ? WHERE id = ?').run(account, anonymous);
    expectKeptSumsHold(raw);
    expect(
      (await stores.visits.ofAccount!.topLinks(account, days.at(-1)!, today, 5)).map((l) => l.key).sort(),
    ).toEqual([owned, anonymous].sort());
    await fold(stores, visitOf(anonymous, today, 7)); // the claimed link's packed day written again
    expectKeptSumsHold(raw);
    await stores.links.delete(owned);
    expect(count(raw, 'counter_days', owned)).toBe(0);
    expectKeptSumsHold(raw);
    expect(
      (await stores.visits.ofAccount!.topLinks(account, days.at(-1)!, today, 5)).map((l) => l.key),
    ).toEqual([anonymous]);
  });

  it('adds a packed day folded late into a summed week to its week and hours, and prunes packed days', async () => {
    const { stores, raw, owned, anonymous } = await givenStores();
    const old = [20, 21, 30].map((ago) => addDays(today, -ago));
    await fold(
      stores,
      old.flatMap((day, i) => visitOf(owned, day, i)),
    );
    sumCounterWeeks(raw, today);
    expect(raw.prepare('SELECT before FROM counter_weeks_summed').pluck().get()).toBe(mondayOf(today));
    expectKeptSumsHold(raw);
    // late folds into summed weeks: days new to the store (packed), and packed days again (written again)
    await fold(stores, [...visitOf(anonymous, old[0]!, 5), ...visitOf(owned, addDays(today, -22), 6)]);
    expect(count(raw, 'counter_days', anonymous)).toBe(1);
    expectKeptSumsHold(raw);
    await fold(stores, [...visitOf(anonymous, old[0]!, 7), ...visitOf(owned, old[1]!, 8)]);
    expect(count(raw, 'counter_days', anonymous)).toBe(1);
    expect(count(raw, 'visit_counters', anonymous)).toBe(0);
    expectKeptSumsHold(raw);
    const read = await stores.visits.countsByKey(anonymous, old[0]!, old[0]!);
    expect(read.filter((c) => c.dimension === 'device')).toEqual([
      { dimension: 'device', key: 'desktop', count: 1 + 3 },
    ]);
    await stores.visits.pruneCounters(addDays(today, -21));
    expect(raw.prepare('SELECT MIN(day) FROM all_counters').pluck().get()).toBe(addDays(today, -21));
    expectKeptSumsHold(raw);
  });

  it('keeps the per-day key limit across a day written again, and unpacks a day of more than PACKED_LIMIT counters', async () => {
    const { stores, raw, account, owned } = await givenStores();
    const referrers = (from: number, to: number): CounterIncrement[] =>
      Array.from({ length: to - from }, (_, i) => ({
        linkId: owned,
        day: today,
        dimension: 'referrer' as VisitDimension,
        key: `site${from + i}.example`,
        count: 1,
      }));
    const packedCount = () =>
      (
        JSON.parse(
          raw.prepare('SELECT counters FROM counter_days WHERE link_id = ?').pluck().get(owned) as string,
        ) as unknown[]
      ).length;
    const below = PACKED_LIMIT - 2;
    await fold(stores, referrers(0, below));
    expect(packedCount()).toBe(below);
    // written again (it held no more than the limit), its keys counted against the day's limit
    const past = MAX_KEYS_PER_DAY + 10;
    await fold(stores, referrers(below - 1, past));
    expect(count(raw, 'visit_counters', owned)).toBe(0);
    expect(packedCount()).toBe(MAX_KEYS_PER_DAY + 1);
    expectKeptSumsHold(raw);
    const held = (await stores.visits.countsByKey(owned, today, today)).filter(
      (c) => c.dimension === 'referrer',
    );
    expect(held).toHaveLength(MAX_KEYS_PER_DAY + 1);
    expect(held.find((c) => c.key === 'other')?.count).toBe(past - MAX_KEYS_PER_DAY);
    expect(held.find((c) => c.key === `site${below - 1}.example`)?.count).toBe(2);
    // more than the limit: unpacked into rows, the sums kept
    await fold(stores, [...referrers(0, 1), ...referrers(past, past + 1)]);
    expect(count(raw, 'counter_days', owned)).toBe(0);
    expect(count(raw, 'visit_counters', owned)).toBe(MAX_KEYS_PER_DAY + 1);
    expectKeptSumsHold(raw);
    const after = (await stores.visits.ofAccount!.countsByKey(account, today, today)).filter(
      (c) => c.dimension === 'referrer',
    );
    expect(after.find((c) => c.key === 'other')?.count).toBe(past - MAX_KEYS_PER_DAY + 1);
    expect(after.find((c) => c.key === 'site0.example')?.count).toBe(2);
  });

  it('keeps every link-day in one table and the sums equal under a hundred flushes folded by two compactors at once', async () => {
    const { stores, raw, owned, anonymous } = await givenStores();
    const second = openSqliteStores(raw.name, { backgroundCompaction: true });
    closing.push(() => second.close());
    const days = [0, 1, 2].map((ago) => addDays(today, -ago));
    const flushes = Array.from({ length: 100 }, (_, f) =>
      (f % 2 === 0 ? stores : second).visits.record({
        clicks: [],
        counters: [owned, anonymous].flatMap((link) => visitOf(link, days[f % days.length]!, f)),
        visitors: [],
      }),
    );
    const folds = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? stores : second).visits.compact(3));
    await Promise.all([...flushes, ...folds]);
    await Promise.all([compactAll(stores, 7), compactAll(second, 5)]);
    expectKeptSumsHold(raw);
    const devices = await stores.visits.countsByKey(owned, days.at(-1)!, today);
    const expected = Array.from({ length: 100 }, (_, f) => 1 + (f % 5)).reduce((a, b) => a + b, 0);
    expect(devices.filter((c) => c.dimension === 'device')).toEqual([
      { dimension: 'device', key: 'desktop', count: expected },
    ]);
  });
});
