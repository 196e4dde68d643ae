import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { createVisitRecorder, dayOf } from '@shortener/core';
import { aLink, compactAll, givenVisitLog, visitFigures } from '@shortener/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStores } from '../src/index.js';
import { LOG_SIZE } from '../src/sqlite-visit-store.js';
import type { SqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();
const opened: SqliteStores[] = [];

function open(path: string, backgroundCompaction = false): SqliteStores {
  const stores = openSqliteStores(path, { backgroundCompaction });
  opened.push(stores);
  return stores;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((stores) => stores.close()));
});

describe('the SQLite visit log', () => {
  it('is folded once by two compactors on two connections at once', async () => {
    const path = nextPath();
    const first = open(path, true);
    const second = open(path, true);
    const ids = await givenVisitLog(first, 20, 8);
    const expected = ids.map(() => ({ clicks: 8, total: 8, unique: 4, keys: 2 + 3 + 8 }));
    expect(await visitFigures(second, ids)).toEqual(expected);
    const [a, b] = await Promise.all([compactAll(first, 7), compactAll(second, 5)]);
    expect(a + b).toBe(20 * 8); // every entry folded by one of them
    expect(await visitFigures(first, ids)).toEqual(expected);
    expect(await visitFigures(second, ids)).toEqual(expected);
  });

  it('keeps totals exact when the compacting process is killed mid-transaction', async () => {
    const path = nextPath();
    const stores = open(path);
    const ids = await givenVisitLog(stores, 2000, 10);
    const expected = await visitFigures(stores, ids);
    await stores.close();
    opened.pop();
    // a process folding the whole log in one long transaction, killed once it started
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { openSqliteStores } from ${JSON.stringify(new URL('../dist/src/index.js', import.meta.url).href)};
         const stores = openSqliteStores(process.argv[1]);
         process.stdout.write('go\\n');
         await stores.visits.compact(1_000_000);
         process.stdout.write('done\\n');`,
        path,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (data: Buffer) => {
        out += data.toString();
        if (out.includes('go')) resolve();
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 60));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(out).not.toContain('done'); // killed inside its transaction
    const reopened = open(path);
    expect(await visitFigures(reopened, ids)).toEqual(expected);
    expect(await compactAll(reopened, 5000)).toBe(2000 * 10);
    expect(await visitFigures(reopened, ids)).toEqual(expected);
  }, 60_000);
});

describe("a recorder's flush on the SQLite visit log", () => {
  it('leaves one entry a link, its unique visitor with its counters, though written in many parts', async () => {
    const path = nextPath();
    const stores = open(path);
    const links = Array.from({ length: 30 }, () => aLink());
    await stores.links.insertMany(links);
    const recorder = createVisitRecorder({
      visits: stores.visits,
      clock: { now: () => Date.now() },
      random: { bytes: (size) => new Uint8Array(size).fill(7) },
      userAgents: { describe: () => ({ device: 'desktop', browser: 'Firefox' }) },
      geo: null,
      rowsPerWrite: 20, // a link's clicks, counters and hash are 7 rows: 10 parts
    });
    await recorder.flush(); // the day's salt
    for (const link of links) {
      const visit = { bot: false, countable: true, ip: '203.0.113.9', userAgent: 'Firefox' };
      recorder.track({
        linkId: link.id,
        at: Date.now(),
        counted: false,
        visit: { ...visit, referrer: null, country: null },
      });
    }
    await new Promise((resolve) => setImmediate(resolve)); // folded once per event-loop turn
    expect(await recorder.flush()).toBe(30);
    const raw = new Database(path, { readonly: true });
    try {
      const entries = raw
        .prepare<[], { link_id: string; counters: string }>('SELECT link_id, counters FROM visit_log')
        .all();
      expect(entries).toHaveLength(30); // was 60: each link's `unique` came a part later, in an entry of its own
      for (const e of entries) expect(e.counters).toContain('"unique"');
    } finally {
      raw.close();
    }
    const today = dayOf(Date.now());
    const figures = () =>
      Promise.all(
        links.map(async ({ id }) => ({
          clicks: (await stores.links.findById(id))?.clicks,
          total: (await stores.visits.countsByDay(id, 'total', today, today))[0]?.count,
          unique: (await stores.visits.countsByDay(id, 'unique', today, today))[0]?.count,
        })),
      );
    const expected = links.map(() => ({ clicks: 1, total: 1, unique: 1 }));
    expect(await figures()).toEqual(expected);
    expect(await compactAll(stores, 7)).toBe(30);
    expect(await figures()).toEqual(expected);
  });
});

describe("the SQLite visit log's size", () => {
  it('is read off the edges of its B-tree, not by a scan of the log', async () => {
    const path = nextPath();
    const stores = open(path);
    await givenVisitLog(stores, 3, 2);
    const db = new Database(path, { readonly: true });
    try {
      const plan = db.prepare<[], { detail: string }>(`EXPLAIN QUERY PLAN ${LOG_SIZE}`).all();
      expect(plan.map((step) => step.detail)).not.toContain('SCAN visit_log');
      expect(plan.filter((step) => step.detail.startsWith('SEARCH visit_log'))).toHaveLength(2);
      expect(db.prepare<[], number>(LOG_SIZE).pluck().get()).toBe(await stores.visits.logSize());
    } finally {
      db.close();
    }
  });
});

describe('the SQLite visitor set', () => {
  const uniqueOf = async (stores: SqliteStores, linkId: string, day: string) =>
    (await stores.visits.countsByKey(linkId, day, day)).find((c) => c.dimension === 'unique')?.count ?? 0;

  it("keeps a visitor hash's first 64 bits, and knows a visitor kept whole before migration 35", async () => {
    const path = nextPath();
    let stores = open(path);
    const link = aLink();
    await stores.links.insertMany([link]);
    const day = dayOf(Date.now());
    const visit = (hash: string) =>
      stores.visits.record({ clicks: [], counters: [], visitors: [{ linkId: link.id, day, hash }] });
    const [whole, other] = ['ab'.repeat(32), 'cd'.repeat(32)];
    await visit(whole);
    await visit(whole);
    const raw = new Database(path);
    try {
      expect(raw.prepare('SELECT hash FROM visitor_hashes').pluck().all()).toEqual(['ab'.repeat(8)]);
      expect(await uniqueOf(stores, link.id, day)).toBe(1);
      // a database of version 34: its hashes whole
      raw
        .prepare('INSERT INTO visitor_hashes (link_id, day, hash) VALUES (?, ?, ?)')
        .run(link.id, day, other);
      raw.exec('DROP TRIGGER counter_days_changed'); // migration 36's
      raw.exec('DROP TABLE import_file_parts'); // migration 37's
      raw.pragma('user_version = 34');
    } finally {
      raw.close();
    }
    await stores.close();
    opened.splice(opened.indexOf(stores), 1);
    stores = open(path);
    await visit(other); // known: no new visitor
    await visit('ef'.repeat(32));
    expect(await uniqueOf(stores, link.id, day)).toBe(2);
  });
});
