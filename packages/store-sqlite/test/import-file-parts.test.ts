import { anAccount, anImportJob } from '@shortener/testkit';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStores } from '../src/index.js';
import type { SqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();
const opened: SqliteStores[] = [];

afterEach(async () => {
  for (const stores of opened.splice(0)) await stores.close();
});

async function accountIn(stores: SqliteStores) {
  const account = anAccount({ name: `a${opened.length}` });
  await stores.accounts.createAccount(account);
  return account;
}

describe("an import's file (migration 037)", () => {
  it('is kept in parts of at most 16,384 characters, never whole in its row, and given back joined', async () => {
    const path = nextPath();
    const stores = openSqliteStores(path);
    opened.push(stores);
    const account = await accountIn(stores);
    const file = Array.from({ length: 20_000 }, (_, i) => `https://example.com/${i}`).join('\n');
    const job = anImportJob(account.id, file);
    await stores.imports.createJob(job);
    const raw = new BetterSqlite3(path, { readonly: true });
    try {
      expect(raw.prepare('SELECT payload FROM import_jobs').pluck().get()).toBeNull();
      const parts = raw
        .prepare('SELECT count(*) AS n, max(length(part)) AS longest FROM import_file_parts WHERE job_id = ?')
        .get(job.id);
      expect(parts).toEqual({ n: Math.ceil(file.length / 16_384), longest: 16_384 });
    } finally {
      raw.close();
    }
    expect((await stores.imports.claimJob('r1', 2, 10_000))?.payload).toBe(file);
  });

  it('of a job stored before, in its row, is given back from there', async () => {
    const path = nextPath();
    const stores = openSqliteStores(path);
    opened.push(stores);
    const account = await accountIn(stores);
    const job = anImportJob(account.id, null);
    await stores.imports.createJob(job);
    const raw = new BetterSqlite3(path);
    raw.prepare('UPDATE import_jobs SET payload = ? WHERE id = ?').run('url\nhttps://example.com/', job.id);
    raw.close();
    expect((await stores.imports.claimJob('r1', 2, 10_000))?.payload).toBe('url\nhttps://example.com/');
  });

  it('is none for a job without one', async () => {
    const stores = openSqliteStores(nextPath());
    opened.push(stores);
    const account = await accountIn(stores);
    await stores.imports.createJob({ ...anImportJob(account.id, null), source: 'shlink' });
    expect((await stores.imports.claimJob('r1', 2, 10_000))?.payload).toBeNull();
  });

  it('is dropped when its job ends (done, failed or cancelled), in parts or in its row; an open job keeps it', async () => {
    const path = nextPath();
    const stores = openSqliteStores(path);
    opened.push(stores);
    const [done, failed, cancelled, old, open] = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        const account = anAccount({ name: `ended${i}` });
        await stores.accounts.createAccount(account);
        const job = anImportJob(account.id, `url\nhttps://example.com/${i}`);
        await stores.imports.createJob(job);
        return job;
      }),
    );
    const raw = new BetterSqlite3(path);
    try {
      // a job stored before migration 037: its file in its row
      raw.prepare('DELETE FROM import_file_parts WHERE job_id = ?').run(old!.id);
      raw
        .prepare('UPDATE import_jobs SET payload = ? WHERE id = ?')
        .run('url\nhttps://example.com/', old!.id);
      for (const [job, state] of [
        [done, 'done'],
        [failed, 'failed'],
      ] as const) {
        expect((await stores.imports.claimJob('r1', 2, 10_000, job!.id))?.payload).toContain('https://');
        await stores.imports.finishJob(job!.id, 'r1', state, [], 3);
      }
      await stores.imports.cancelJob(cancelled!.id, 3);
      await stores.imports.cancelJob(old!.id, 3);
      const fileOf = raw.prepare<[string], { payload: string | null; parts: number }>(
        `SELECT payload, (SELECT count(*) FROM import_file_parts WHERE job_id = id) AS parts
         FROM import_jobs WHERE id = ?`,
      );
      for (const job of [done, failed, cancelled, old])
        expect(fileOf.get(job!.id)).toEqual({ payload: null, parts: 0 });
      expect(fileOf.get(open!.id)).toEqual({ payload: null, parts: 1 });
    } finally {
      raw.close();
    }
    expect((await stores.imports.claimJob('r2', 4, 10_000, open!.id))?.payload).toBe(
      'url\nhttps://example.com/4',
    );
  });

  it('of jobs that ended before migration 038 is dropped by it', async () => {
    const path = nextPath();
    const stores = openSqliteStores(path);
    const account = await accountIn(stores);
    const ended = anImportJob(account.id, 'url\nhttps://example.com/ended');
    const queued = anImportJob(account.id, 'url\nhttps://example.com/queued');
    await stores.imports.createJob(ended);
    await stores.imports.createJob(queued);
    await stores.close();
    const raw = new BetterSqlite3(path);
    // as a build before 038 left it: a job that ended with its file still in parts
    raw.prepare("UPDATE import_jobs SET state = 'done' WHERE id = ?").run(ended.id);
    raw.pragma('user_version = 37');
    raw.close();
    opened.push(openSqliteStores(path));
    const check = new BetterSqlite3(path, { readonly: true });
    try {
      const parts = check
        .prepare<[string], number>('SELECT count(*) FROM import_file_parts WHERE job_id = ?')
        .pluck();
      expect([parts.get(ended.id), parts.get(queued.id)]).toEqual([0, 1]);
    } finally {
      check.close();
    }
  });
});
