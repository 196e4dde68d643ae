import { join } from 'node:path';
import { openSqliteDatabase } from '@shortener/store-sqlite';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, buildBinary, runBin, serveBin } from './bin-helpers.js';
import { tempDir } from './helpers.js';

beforeAll(buildBinary, 180_000);

const ROWS = 20_000;

/** The job as the API shows it. */
async function jobOf(url: string, key: string, id: string) {
  const answer = await fetch(`${url}/api/v1/imports/${id}`, { headers: { authorization: `Bearer ${key}` } });
  return (await answer.json()) as { state: string; rows: number; imported: number; skipped: number };
}

describe('an import when its server is killed (decisions §17)', () => {
  it('goes on after the last chunk written once the server is back, duplicating nothing', async () => {
    const dbPath = join(tempDir(), 'shortener.db');
    const vars = { DB_PATH: dbPath };
    expect((await runBin(bin, ['accounts', 'create', 'alice'], vars)).code).toBe(0);
    const created = await runBin(bin, ['keys', 'create', 'alice', '--json'], vars);
    const key = (JSON.parse(created.stdout) as { key: string }).key;
    let server = await serveBin(dbPath, {});
    const csv = [
      'short url,long url,clicks',
      ...Array.from({ length: ROWS }, (_, i) => `https://old.example/k${i},https://example.com/${i},3`),
    ].join('\n');
    const started = await fetch(`${server.url}/api/v1/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ source: 'csv', csv }),
    });
    expect(started.status).toBe(202);
    const { id } = (await started.json()) as { id: string };
    let seen = await jobOf(server.url, key, id);
    while (seen.rows < 2_000) seen = await jobOf(server.url, key, id);
    server.child.kill('SIGKILL');
    await server.done;

    server = await serveBin(dbPath, {});
    // the dead runner's lease (10 s) runs out, then the new server takes the job on
    for (let i = 0; i < 600 && seen.state !== 'done'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      seen = await jobOf(server.url, key, id);
    }
    server.child.kill('SIGTERM');
    await server.done;
    expect(seen).toMatchObject({ state: 'done', rows: ROWS, imported: ROWS, skipped: 0 });
    const db = openSqliteDatabase(dbPath);
    try {
      const count = (sql: string) => db.prepare(sql).pluck().get() as number;
      expect(count('SELECT count(*) FROM links')).toBe(ROWS);
      expect(count('SELECT count(*) FROM imported_links')).toBe(ROWS);
      expect(count(`SELECT count(DISTINCT seq) FROM import_report WHERE job_id = '${id}'`)).toBe(ROWS);
      expect(count('SELECT sum(clicks) FROM links')).toBe(3 * ROWS);
    } finally {
      db.close();
    }
  }, 120_000);
});
