import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { compactAll, givenVisitLog, visitFigures } from '@shortener/testkit';
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
