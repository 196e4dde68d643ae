import { spawn } from 'node:child_process';
import type { Stores, VisitBatch } from '@shortener/core';
import { aLink } from '@shortener/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStores } from '../src/index.js';
import type { SqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();
const opened: SqliteStores[] = [];
const DAY = '2026-01-01';

function open(path: string, backgroundCompaction = false): SqliteStores {
  const stores = openSqliteStores(path, { backgroundCompaction });
  opened.push(stores);
  return stores;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((stores) => stores.close()));
});

/** `links` links, then `flushes` flushes visiting each of them once (a visitor per flush and link). */
async function givenLog(stores: Stores, links: number, flushes: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < links; i++) {
    const inserted = await stores.links.insert(aLink());
    if (!inserted.ok) throw new Error(inserted.error.code);
    ids.push(inserted.value.id);
  }
  for (let f = 0; f < flushes; f++) {
    const batch: VisitBatch = {
      clicks: ids.map((linkId) => ({ linkId, count: 1, lastClickAt: 1 })),
      counters: ids.flatMap((linkId) => [
        { linkId, day: DAY, dimension: 'total' as const, key: '', count: 1 },
        { linkId, day: DAY, dimension: 'country' as const, key: `C${f % 3}`, count: 1 },
        { linkId, day: DAY, dimension: 'referrer' as const, key: `r${f}.example`, count: 1 },
      ]),
      visitors: ids.map((linkId) => ({ linkId, day: DAY, hash: `h${f % 4}` })),
    };
    await stores.visits.record(batch);
  }
  return ids;
}

/** Per link: clicks, the statistics total and unique visitors, as reads see them now. */
async function figures(stores: Stores, ids: readonly string[]) {
  return Promise.all(
    ids.map(async (id) => ({
      clicks: (await stores.links.findById(id))?.clicks,
      total: (await stores.visits.countsByDay(id, 'total', DAY, DAY))[0]?.count,
      unique: (await stores.visits.countsByDay(id, 'unique', DAY, DAY))[0]?.count,
      keys: (await stores.visits.countsByKey(id, DAY, DAY)).length,
    })),
  );
}

async function compactAll(stores: Stores, chunk: number): Promise<number> {
  let folded = 0;
  for (let n = await stores.visits.compact(chunk); n > 0; n = await stores.visits.compact(chunk)) folded += n;
  return folded;
}

describe('the SQLite visit log', () => {
  it('is folded once by two compactors on two connections at once', async () => {
    const path = nextPath();
    const first = open(path, true);
    const second = open(path, true);
    const ids = await givenLog(first, 20, 8);
    const expected = ids.map(() => ({ clicks: 8, total: 8, unique: 4, keys: 2 + 3 + 8 }));
    expect(await figures(second, ids)).toEqual(expected);
    const [a, b] = await Promise.all([compactAll(first, 7), compactAll(second, 5)]);
    expect(a + b).toBe(20 * 8 + 20 * 4); // every entry and tail visitor folded by one of them
    expect(await figures(first, ids)).toEqual(expected);
    expect(await figures(second, ids)).toEqual(expected);
  });

  it('keeps totals exact when the compacting process is killed mid-transaction', async () => {
    const path = nextPath();
    const stores = open(path);
    const ids = await givenLog(stores, 2000, 10);
    const expected = await figures(stores, ids);
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
    expect(await figures(reopened, ids)).toEqual(expected);
    expect(await compactAll(reopened, 5000)).toBe(2000 * 10 + 2000 * 4);
    expect(await figures(reopened, ids)).toEqual(expected);
  }, 60_000);
});
