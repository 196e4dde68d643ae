import { readdirSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openSqliteDatabase, openSqliteStores } from '../src/index.js';
import type { SqliteStoreOptions } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();

/** This process's open files (every thread's) that are the database at `path`, its WAL or its shm. */
function openFilesOf(path: string): string[] {
  const files: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target === path || target === `${path}-wal` || target === `${path}-shm`) files.push(target);
    } catch {
      // the descriptor closed while listed (readdir's own among them)
    }
  }
  return files;
}

/** Waits up to 5 s for the files of `path` to close (a worker thread closes its connection on its own). */
async function settledOpenFilesOf(path: string): Promise<string[]> {
  for (let waited = 0; waited < 5000 && openFilesOf(path).length > 0; waited += 20) await sleep(20);
  return openFilesOf(path);
}

/** A migrated database whose `settings` table is gone: the last step, building the stores, throws. */
function brokenDatabase(): string {
  const path = nextPath();
  const db = openSqliteDatabase(path);
  db.exec('DROP TABLE settings');
  db.close();
  return path;
}

// every way of opening: the server's (look-ups' connection, worker thread, with or without the
// checkpoints in it), background checkpoints alone (the CLI's), and the plain connection
const ways: ReadonlyArray<readonly [string, SqliteStoreOptions]> = [
  ["the server's, with background checkpoints", { backgroundWrites: true, backgroundCheckpoints: true }],
  ["the server's, without background checkpoints", { backgroundWrites: true }],
  ['background checkpoints only', { backgroundCheckpoints: true }],
  ['a plain connection', {}],
];

describe.skipIf(process.platform !== 'linux')('opening the SQLite stores when a late step throws', () => {
  for (const [name, options] of ways) {
    it(`${name}: the error is thrown and no connection, thread or file is left open`, async () => {
      const path = brokenDatabase();
      expect(openFilesOf(path)).toEqual([]);
      expect(() => openSqliteStores(path, options)).toThrow(/no such table: (main\.)?settings/);
      // a thread closes its connection on its own time; the plain connection's is closed at once
      const left = options.backgroundWrites || options.backgroundCheckpoints;
      expect(left ? await settledOpenFilesOf(path) : openFilesOf(path)).toEqual([]);
    });
  }

  it('the same files are seen while the stores are open, and gone once closed', async () => {
    const path = nextPath();
    const stores = openSqliteStores(path, ways[0]![1]);
    expect(openFilesOf(path).length).toBeGreaterThan(0);
    await stores.close();
    expect(await settledOpenFilesOf(path)).toEqual([]);
  });
});
