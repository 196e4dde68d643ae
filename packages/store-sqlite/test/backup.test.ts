import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { aLink, anInsertedLink } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { openSqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const dbPath = useTempDbPaths();

// Another connection committing a row every millisecond or so, as a busy server does.
const WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const db = new (require(workerData.driver))(workerData.path);
db.pragma('busy_timeout = 5000');
const add = db.prepare('INSERT INTO filler (x) VALUES (?)');
let commits = 0;
const timer = setInterval(() => { add.run('y'.repeat(200)); commits++; }, 1);
parentPort.once('message', () => { clearInterval(timer); db.close(); parentPort.postMessage(commits); });
`;

function startWriter(path: string): { stop(): Promise<number> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WRITER, { eval: true, workerData: { driver, path } });
  return {
    stop: () =>
      new Promise((resolve) => {
        worker.once('message', (commits: number) => void worker.terminate().then(() => resolve(commits)));
        worker.postMessage('stop');
      }),
  };
}

describe('backup', () => {
  it('finishes while another connection commits steadily, and the copy holds the data', async () => {
    const path = dbPath();
    const stores = openSqliteStores(path);
    const links = Array.from({ length: 2000 }, () => aLink());
    await stores.links.insertMany(links);
    // ~20 MB to copy: SQLite's online backup restarted on every commit here and never finished.
    const db = new (await import('better-sqlite3')).default(path);
    db.exec('CREATE TABLE filler (x TEXT)');
    const fill = db.prepare('INSERT INTO filler (x) VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 20_000; i += 1) fill.run('x'.repeat(1000));
    })();
    db.close();
    const writer = startWriter(path);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const copy = `${dbPath()}.bak`;
    const started = Date.now();
    await stores.backup(copy);
    const took = Date.now() - started;
    expect(await writer.stop()).toBeGreaterThan(20);
    expect(took).toBeLessThan(10_000);
    expect(existsSync(`${copy}.partial`)).toBe(false);
    const restored = openSqliteStores(copy);
    expect(await restored.links.findById(links[1999]!.id)).toEqual(links[1999]);
    await Promise.all([restored.close(), stores.close()]);
  }, 30_000);

  it('replaces the partial file a killed run left, and leaves none when it fails', async () => {
    const stores = openSqliteStores(dbPath());
    const link = await anInsertedLink(stores.links);
    const copy = `${dbPath()}.bak`;
    mkdirSync(copy.slice(0, copy.lastIndexOf('/')), { recursive: true });
    writeFileSync(`${copy}.partial`, 'half a database');
    await stores.backup(copy);
    expect(existsSync(`${copy}.partial`)).toBe(false);
    const restored = openSqliteStores(copy);
    expect(await restored.links.findById(link.id)).toEqual(link);
    await restored.close();

    const folder = `${dbPath()}.dir`;
    mkdirSync(`${folder}/taken`, { recursive: true }); // a folder where the copy should go: rename fails
    await expect(stores.backup(`${folder}/taken`)).rejects.toThrow();
    expect(existsSync(`${folder}/taken.partial`)).toBe(false);
    await stores.close();
  });

  it('writes the copy readable by its owner only (0600), whatever the umask', async () => {
    const stores = openSqliteStores(dbPath());
    await stores.links.insert(aLink());
    const copy = `${dbPath()}.bak`;
    mkdirSync(copy.slice(0, copy.lastIndexOf('/')), { recursive: true });
    const umask = process.umask(0);
    try {
      await stores.backup(copy);
    } finally {
      process.umask(umask);
    }
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    await stores.close();
  });
});
