import type { ImportJob } from '@shortener/core';
import { anAccount, anImportJob } from '@shortener/testkit';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_URL, useFreshSchemas } from './fresh-schema.js';

describe.runIf(DATABASE_URL !== null)("PostgreSQL: an import's file", () => {
  const openFresh = useFreshSchemas();
  const admin = new pg.Pool({ connectionString: DATABASE_URL ?? '', max: 1 });
  afterAll(() => admin.end());

  it('is dropped when its job ends (done, failed or cancelled); an open job keeps it', async () => {
    const stores = await openFresh();
    const jobs = [];
    for (const i of [0, 1, 2, 3]) {
      const account = anAccount({ name: `ended${i}` });
      await stores.accounts.createAccount(account);
      const job = anImportJob(account.id, `url\nhttps://example.com/${i}`);
      await stores.imports.createJob(job);
      jobs.push(job);
    }
    const [done, failed, cancelled, open] = jobs as [ImportJob, ImportJob, ImportJob, ImportJob];
    for (const [job, state] of [
      [done, 'done'],
      [failed, 'failed'],
    ] as const) {
      expect((await stores.imports.claimJob('r1', 2, 10_000, job.id))?.payload).toBe(job.payload);
      await stores.imports.finishJob(job.id, 'r1', state, [], 3);
    }
    await stores.imports.cancelJob(cancelled.id, 3);
    const { rows } = await admin.query<{ id: string; payload: string | null }>(
      `SELECT id, payload FROM ${stores.schema}.import_jobs ORDER BY payload NULLS FIRST`,
    );
    expect(rows.map((row) => row.payload)).toEqual([null, null, null, open.payload]);
    expect(rows[3]?.id).toBe(open.id);
  });
});
