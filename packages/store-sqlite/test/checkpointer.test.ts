import { statSync } from 'node:fs';
import { aLink } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { startBackgroundCheckpoints } from '../src/checkpointer.js';
import { openSqliteDatabase, openSqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const dbPath = useTempDbPaths();
const sizeOf = (path: string) => statSync(path).size;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('background WAL checkpoints', () => {
  it('copies committed pages into the database file from a worker, not the committing connection', async () => {
    const path = dbPath();
    const db = openSqliteDatabase(path);
    const checkpointer = startBackgroundCheckpoints(db, 50);
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

  it('runs with the stores of the server and stops when they close', async () => {
    const stores = openSqliteStores(dbPath(), { backgroundCheckpoints: true });
    const link = aLink();
    await stores.links.insert(link);
    expect(await stores.links.findById(link.id)).toEqual(link);
    await stores.close();
  });
});
