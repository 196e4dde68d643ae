import type { VisitBatch } from '@shortener/core';
import { aLink, compactAll, LOG_DAY } from '@shortener/testkit';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { LINK_CLICKS_FOLDED, openSqliteStores } from '../src/index.js';
import type { SqliteStoreOptions, SqliteStores } from '../src/index.js';
import { LINK_READ } from '../src/link-rows.js';
import { MIGRATIONS, migrate } from '../src/migrations/index.js';
import { logEntriesOf } from '../src/migrations/013-visit-log-epochs.js';
import { clicksOf } from '../src/migrations/033-link-clicks.js';
import { EPOCH_ENTRIES, EPOCHS_AT_MOST } from '../src/visit-writer.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();
const opened: { stores: SqliteStores; raw: BetterSqlite3.Database }[] = [];
const rawOnly: BetterSqlite3.Database[] = [];

/** The stores on a file (a new one by default), and a connection of our own to read its rows as they are. */
function open(path = nextPath(), options: SqliteStoreOptions = {}) {
  const stores = openSqliteStores(path, options);
  const raw = new BetterSqlite3(path);
  opened.push({ stores, raw });
  return { stores, raw, path };
}

afterEach(async () => {
  for (const db of rawOnly.splice(0)) db.close();
  for (const { stores, raw } of opened.splice(0)) {
    raw.close();
    await stores.close();
  }
});

/** One click on each link, in the order given (the recorder gives them in ascending id). */
const oneClickEach = (linkIds: readonly string[]): VisitBatch => ({
  clicks: linkIds.map((linkId) => ({ linkId, count: 1, lastClickAt: 1 })),
  counters: linkIds.map((linkId) => ({
    linkId,
    day: LOG_DAY,
    dimension: 'total' as const,
    key: '',
    count: 1,
  })),
  visitors: [],
});

async function givenLinks(stores: SqliteStores, count: number): Promise<string[]> {
  const links = Array.from({ length: count }, () => aLink());
  await stores.links.insertMany(links);
  return links.map((link) => link.id).sort();
}

const epochs = (raw: BetterSqlite3.Database) =>
  raw.prepare<[], number>('SELECT epoch FROM visit_log_epochs ORDER BY epoch').pluck().all();

/** Log entries whose epoch is smaller than that of an entry appended before them: none, ever. */
const epochsGoingBack = (raw: BetterSqlite3.Database) =>
  raw
    .prepare<[], number>(
      `SELECT COUNT(*) FROM (SELECT epoch, MAX(epoch) OVER (ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING
        AND 1 PRECEDING) AS before FROM visit_log) WHERE epoch < before`,
    )
    .pluck()
    .get();

const planOf = (raw: BetterSqlite3.Database, sql: string, ...params: unknown[]) =>
  raw
    .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)
    .all(...params)
    .map((step) => step.detail);

describe('the SQLite visit log in epochs (migration 013)', () => {
  it("appends a flush's ascending links to one epoch, and opens another once a run starts over", async () => {
    const { stores, raw } = open();
    const size = EPOCH_ENTRIES + 100;
    const ids = await givenLinks(stores, size);
    // one flush in three parts, each continuing the last one's range: one epoch
    for (const part of [ids.slice(0, 100), ids.slice(100, 5000), ids.slice(5000)])
      await stores.visits.record(oneClickEach(part));
    expect(epochs(raw)).toEqual([1]);
    // the next flush starts over from the smallest id: the epoch is full, so a new one
    await stores.visits.record(oneClickEach(ids.slice(0, 10)));
    expect(epochs(raw)).toEqual([1, 2]);
    // flushes out of order share the newest epoch while it holds fewer than EPOCH_ENTRIES entries
    const flushes = Math.ceil((EPOCH_ENTRIES - 10) / 2000);
    for (let i = 0; i < flushes; i++) await stores.visits.record(oneClickEach(ids.slice(0, 2000)));
    expect(epochs(raw)).toEqual([1, 2]);
    await stores.visits.record(oneClickEach(ids.slice(0, 2000)));
    expect(epochs(raw)).toEqual([1, 2, 3]);
    expect(epochsGoingBack(raw)).toBe(0);
    expect((await stores.links.findById(ids[0] ?? ''))?.clicks).toBe(flushes + 3);
    expect((await stores.links.findById(ids[size - 1] ?? ''))?.clicks).toBe(1);
  });

  it(`opens no epoch past ${EPOCHS_AT_MOST} (while the compactor is behind), appending to the newest instead`, async () => {
    const { stores, raw } = open();
    const ids = await givenLinks(stores, EPOCH_ENTRIES + 100);
    raw
      .prepare(
        'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?) INSERT INTO visit_log_epochs SELECT i FROM n',
      )
      .run(EPOCHS_AT_MOST - 1);
    await stores.visits.record(oneClickEach(ids));
    expect(epochs(raw).at(-1)).toBe(EPOCHS_AT_MOST);
    await stores.visits.record(oneClickEach(ids)); // starts over, and the epoch is full
    await stores.visits.record(oneClickEach(ids));
    expect(epochs(raw)).toHaveLength(EPOCHS_AT_MOST);
    expect(raw.prepare('SELECT DISTINCT epoch FROM visit_log').pluck().all()).toEqual([EPOCHS_AT_MOST]);
    expect((await stores.links.findById(ids[1234] ?? ''))?.clicks).toBe(3);
  });

  it('never lets epochs go back along the log when two connections append in turn', async () => {
    const first = open();
    const second = open(first.path);
    const ids = await givenLinks(first.stores, 400);
    for (let round = 0; round < 6; round++) {
      const writer = round % 2 === 0 ? first.stores : second.stores;
      await writer.visits.record(oneClickEach(ids.slice(round * 50, round * 50 + 100)));
    }
    expect(epochsGoingBack(first.raw)).toBe(0);
    // each writer found the newest epoch opened by the other: a new one every time
    expect(epochs(first.raw)).toEqual([1, 2, 3, 4, 5, 6]);
    const clicks = await Promise.all(ids.slice(0, 360).map((id) => second.stores.links.findById(id)));
    expect(clicks.reduce((sum, link) => sum + (link?.clicks ?? 0), 0)).toBe(600);
  });

  it('keeps clicks exact and epochs in order with a hundred flushes at once on two connections, compacted by two workers meanwhile', async () => {
    const first = open(nextPath(), { backgroundCompaction: true, backgroundCheckpoints: true });
    const second = open(first.path, { backgroundCompaction: true });
    const ids = await givenLinks(first.stores, 3000);
    // flushes of 30 to 3,000 links, each in ascending id, from both connections, all at once, while
    // both workers fold the log as it grows
    const flushes = Array.from({ length: 100 }, (_, i) => {
      const from = (i * 37) % 2900;
      return ids.slice(from, from + 30 + ((i * 997) % 2970));
    });
    const expected = new Map<string, number>();
    for (const flush of flushes) for (const id of flush) expected.set(id, (expected.get(id) ?? 0) + 1);
    let folding = true;
    const folders = [first, second].map(async ({ stores }) => {
      // as the server's rounds do: a breath between chunks for the writers
      while (folding) {
        await stores.visits.compact(100);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
    await Promise.all(
      flushes.map((flush, i) => (i % 2 === 0 ? first : second).stores.visits.record(oneClickEach(flush))),
    );
    expect(epochsGoingBack(first.raw)).toBe(0);
    expect(epochs(first.raw).length).toBeLessThanOrEqual(EPOCHS_AT_MOST);
    folding = false;
    await Promise.all(folders);
    while ((await second.stores.visits.compact(1000)) > 0);
    expect(await second.stores.visits.compact(1000)).toBe(0); // an empty log drops what epochs are left
    expect(epochs(first.raw)).toEqual([]);
    const clicks = first.raw.prepare<[], { id: string; clicks: number }>(
      `SELECT id, ${LINK_CLICKS_FOLDED.clicks} AS clicks FROM links`,
    );
    const read = new Map(clicks.all().map((row) => [row.id, row.clicks]));
    for (const id of ids) expect(read.get(id), id).toBe(expected.get(id) ?? 0);
  }, 30_000);

  it('drops the epochs a compaction emptied, and those a deleted link emptied', async () => {
    const { stores, raw } = open();
    const ids = await givenLinks(stores, 30);
    for (let f = 0; f < 3; f++) await stores.visits.record(oneClickEach(ids));
    expect(epochs(raw)).toEqual([1]);
    await stores.visits.record(oneClickEach(ids.slice(0, 1)));
    expect(await compactAll(stores, 100)).toBe(91);
    expect(epochs(raw)).toEqual([]);
    expect((await stores.links.findById(ids[0] ?? ''))?.clicks).toBe(4);

    // a link's entries go with it by trigger; the next compaction finds the log empty and the epoch too
    await stores.visits.record(oneClickEach(ids.slice(0, 1)));
    expect(epochs(raw)).toEqual([1]);
    await stores.links.delete(ids[0] ?? '');
    expect(raw.prepare('SELECT COUNT(*) FROM visit_log').pluck().get()).toBe(0);
    expect(await stores.visits.compact(100)).toBe(0);
    expect(epochs(raw)).toEqual([]);
  });

  it("reads a link's tail by an index search per epoch, never by a scan of the log", () => {
    const { raw } = open();
    const reads = [
      [`SELECT ${LINK_READ} FROM links WHERE id = ?`, 'l1'],
      [`SELECT ${clicksOf('links')} FROM links WHERE account_id = ?`, 'a1'],
      [`SELECT counters FROM visit_log v WHERE ${logEntriesOf('?')} ORDER BY seq`, 'l1'],
      [`DELETE FROM visit_log AS v WHERE ${logEntriesOf('?')}`, 'l1'],
    ] as const;
    for (const [sql, param] of reads) {
      const plan = planOf(raw, sql, param);
      expect(
        plan.filter((step) => /^SCAN (v|visit_log|c|link_clicks)\b/.test(step)),
        sql,
      ).toEqual([]);
      expect(plan.join('\n'), sql).toMatch(
        /SEARCH v USING (COVERING )?INDEX visit_log_epoch_link \(epoch=\? AND link_id=\?\)/,
      );
    }
  });

  it('migrates a version 12 log: its entries are epoch 0, still read as their links’ tails', () => {
    const db = new BetterSqlite3(':memory:');
    rawOnly.push(db);
    migrate(db, MIGRATIONS.slice(0, 12));
    db.exec(`INSERT INTO links (id, domain, slug, url, clicks, last_click_at, created_at, updated_at)
        VALUES ('l1', 's.example', 'a', 'https://example.com/', 5, 9, 1, 1);
      INSERT INTO visit_log (seq, link_id, counters, clicks, last_click_at)
        VALUES (7, 'l1', '[["2026-01-01","total","",3]]', 3, 12);`);
    expect(migrate(db)).toBe(MIGRATIONS.length);
    expect(db.prepare('SELECT epoch FROM visit_log').pluck().all()).toEqual([0]);
    expect(db.prepare('SELECT epoch FROM visit_log_epochs').pluck().all()).toEqual([0]);
    expect(db.prepare(`SELECT ${LINK_READ} FROM links`).get()).toMatchObject({
      clicks: 8,
      last_click_at: 12,
    });
  });
});
