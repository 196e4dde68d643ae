import { cancelImport, createImportJob, importProgressOf, runImportJob, startImport } from '@shortener/core';
import type { ImportJob, ImportRow, ImportSource, Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { givenAccount } from '../fresh-stores.js';
import { useCoreHarness, valueOf } from './core-harness.js';
import type { Harness } from './core-harness.js';
import { importDepsOf, rowsSource } from './import-suite.js';
import type { BackendFaults } from './index.js';

const LEASE = 60_000;

const rowOf = (i: number): ImportRow => ({
  originalShortUrl: `https://old.example/c${i}`,
  domain: 'old.example',
  code: `c${i}`,
  url: `https://example.com/${i}`,
});

/** A new account's queued CSV job (a millisecond after the one before: jobs are taken oldest first). */
async function queuedJob(h: Harness, accountId?: string): Promise<ImportJob> {
  h.clock.advance(1);
  const id = accountId ?? (await givenAccount(h.stores)).id;
  const input = { source: 'csv' as const, csv: 'url\nhttps://example.com/' };
  return valueOf(await startImport(importDepsOf(h), input, { accountId: id, editToken: null }));
}

/** A source that calls `between(i)` before row `i`: a test acts while the runner is between chunks. */
function steppedSource(rows: readonly ImportRow[], between: (i: number) => Promise<void>): ImportSource {
  const plain = rowsSource(rows);
  return {
    name: 'csv',
    async *rows(cursor) {
      let i = 0;
      for await (const step of plain.rows(cursor)) {
        await between(i++);
        yield step;
      }
    },
  };
}

/**
 * The job store's leases, cancels and turns (decisions §25): a job cancelled stops at its runner's next
 * chunk with what it imported kept; one job per account is held at a time while other accounts' run;
 * a runner renews its lease only while it holds the job.
 */
export function describeImportJobsSuite(
  name: string,
  open: () => Promise<Stores>,
  faults: BackendFaults = {},
): void {
  describe(`import jobs (${name})`, () => {
    const harness = useCoreHarness(open);

    it.runIf(faults.fillDisk !== undefined)(
      'fails a job that cannot write (a full disk), saying so in its errors',
      async () => {
        const h = harness();
        const job = await queuedJob(h);
        const claimed = (await h.stores.imports.claimJob('r1', h.clock.now(), h.clock.now() + LEASE))!;
        const long = (i: number) => ({ ...rowOf(i), url: `https://example.com/${i}/${'x'.repeat(1500)}` });
        const rows = Array.from({ length: 400 }, (_, i) => long(i));
        let undo: (() => Promise<void>) | undefined;
        const source = steppedSource(rows, async (i) => {
          if (i === 100) undo = await faults.fillDisk!(h.stores);
        });
        try {
          await runImportJob(importDepsOf(h), claimed, source, 'r1');
        } finally {
          await undo?.();
        }
        const failed = (await h.stores.imports.findJob(job.id))!;
        expect(failed).toMatchObject({ state: 'failed', counts: { rows: 100, imported: 100 } });
        expect(failed.errors).toEqual(['the database could not write: disk full']);
      },
    );

    it('cancels a running job: its runner stops at the next chunk, and what it imported stays', async () => {
      const h = harness();
      const job = await queuedJob(h);
      const caller = { accountId: job.accountId, editToken: null };
      const claimed = (await h.stores.imports.claimJob('runner-1', h.clock.now(), h.clock.now() + LEASE))!;
      const rows = Array.from({ length: 200 }, (_, i) => rowOf(i));
      const source = steppedSource(rows, async (i) => {
        if (i === 60)
          expect(valueOf(await cancelImport(importDepsOf(h), job.id, caller)).state).toBe('cancelled');
      });
      await runImportJob(importDepsOf(h), claimed, source, 'runner-1');
      const after = (await h.stores.imports.findJob(job.id))!;
      expect(after).toMatchObject({ state: 'cancelled', counts: { rows: 50, imported: 50 } });
      expect(await h.links.findBySlug('sho.rt', 'c49')).not.toBeNull();
      expect(await h.links.findBySlug('sho.rt', 'c50')).toBeNull();
      expect(await h.stores.imports.renewLease(job.id, 'runner-1', h.clock.now() + LEASE)).toBe(false);
      // nobody takes it again, and cancelling again answers it as it is
      expect(
        await h.stores.imports.claimJob('runner-2', h.clock.now() + 2 * LEASE, h.clock.now() + 3 * LEASE),
      ).toBeNull();
      expect(valueOf(await cancelImport(importDepsOf(h), job.id, caller)).state).toBe('cancelled');
    });

    it('cancels a queued job, leaves an ended one as it is, and keeps jobs to their account', async () => {
      const h = harness();
      const queued = await queuedJob(h);
      const caller = { accountId: queued.accountId, editToken: null };
      const other = { accountId: (await givenAccount(h.stores)).id, editToken: null };
      expect((await cancelImport(importDepsOf(h), queued.id, other)).ok).toBe(false);
      expect(valueOf(await cancelImport(importDepsOf(h), queued.id, caller)).state).toBe('cancelled');
      expect(await h.stores.imports.claimJob('r', h.clock.now(), h.clock.now() + LEASE)).toBeNull();
      const done = await queuedJob(h, queued.accountId);
      const claimed = (await h.stores.imports.claimJob('r', h.clock.now(), h.clock.now() + LEASE))!;
      await runImportJob(importDepsOf(h), claimed, rowsSource([rowOf(1)]), 'r');
      expect(valueOf(await cancelImport(importDepsOf(h), done.id, caller)).state).toBe('done');
      expect(
        await h.stores.imports.cancelJob('00000000-0000-7000-8000-000000000000', h.clock.now()),
      ).toBeNull();
    });

    it("holds one job per account at a time, and takes other accounts' jobs meanwhile", async () => {
      const h = harness();
      const first = await queuedJob(h);
      const second = await queuedJob(h, first.accountId);
      const others = await queuedJob(h);
      const now = h.clock.now();
      expect((await h.stores.imports.claimJob('r1', now, now + LEASE))?.id).toBe(first.id);
      expect((await h.stores.imports.claimJob('r2', now, now + LEASE))?.id).toBe(others.id);
      expect(await h.stores.imports.claimJob('r3', now, now + LEASE)).toBeNull();
      expect(await h.stores.imports.claimJob('r3', now, now + LEASE, second.id)).toBeNull();
      // the account's turn comes back once its job ends, or once its runner's lease runs out
      await h.stores.imports.finishJob(first.id, 'r1', 'done', [], now);
      expect((await h.stores.imports.claimJob('r3', now, now + LEASE))?.id).toBe(second.id);
      const third = await queuedJob(h, first.accountId);
      h.clock.set(now);
      expect(await h.stores.imports.claimJob('r4', now + LEASE - 1, now + 2 * LEASE)).toBeNull();
      const later = now + LEASE;
      expect((await h.stores.imports.claimJob('r4', later, later + LEASE))?.id).toBe(second.id);
      expect(await h.stores.imports.claimJob('r5', later, later + LEASE, third.id)).toBeNull();
    });

    it("leaves a command line's own queued job of a remote source to it, and takes it once it ran", async () => {
      const h = harness();
      const account = await givenAccount(h.stores);
      h.clock.advance(1);
      const options = { onConflict: 'skip' as const, domainMap: {}, dryRun: false, url: 'https://s.example' };
      const own = valueOf(
        await createImportJob(importDepsOf(h), account.id, 'shlink', {
          ...options,
          input: 'abc',
          payload: null,
        }),
      );
      const now = h.clock.now();
      expect(await h.stores.imports.claimJob('server', now, now + LEASE)).toBeNull();
      expect((await h.stores.imports.claimJob('cli', now, now + LEASE, own.id))?.id).toBe(own.id);
      // its command line killed, a runner takes it once its lease has ended (to fail it, saying why)
      const later = now + LEASE;
      expect((await h.stores.imports.claimJob('server', later, later + LEASE))?.id).toBe(own.id);
    });

    it('starts at most 3 unfinished jobs of an account when 20 start at once, and another once one ends', async () => {
      const h = harness();
      const account = await givenAccount(h.stores);
      const caller = { accountId: account.id, editToken: null };
      const input = { source: 'csv' as const, csv: 'url\nhttps://example.com/' };
      const starts = await Promise.all(
        Array.from({ length: 20 }, () => startImport(importDepsOf(h), input, caller)),
      );
      const started = starts.filter((start) => start.ok);
      expect(started).toHaveLength(3);
      expect(new Set(starts.flatMap((start) => (start.ok ? [] : [start.error.code])))).toEqual(
        new Set(['too_many']),
      );
      expect(await h.stores.imports.listJobs(account.id, 50)).toHaveLength(3);
      await cancelImport(importDepsOf(h), valueOf(started[0]!).id, caller);
      expect((await startImport(importDepsOf(h), input, caller)).ok).toBe(true);
      expect((await startImport(importDepsOf(h), input, caller)).ok).toBe(false);
    });

    it("gives a job's file back to its runner as it came, however long and whatever its characters", async () => {
      const h = harness();
      const account = await givenAccount(h.stores);
      const options = { onConflict: 'skip' as const, domainMap: {}, dryRun: false, url: null };
      // characters outside the BMP astride every 16,384th code unit (SQLite's parts, migration 037)
      const line = (i: number) => `https://old.example/${i},https://example.com/${i}?q=é,東京 😀 ${i}\n`;
      let text = 'short url,long url,title\n';
      while (text.length < 200_000) text += line(text.length);
      const files = ['', 'url', `${'x'.repeat(16_383)}😀${'y'.repeat(16_382)}𝄞z`, text];
      for (const payload of files) {
        h.clock.advance(1);
        const job = valueOf(
          await createImportJob(importDepsOf(h), account.id, 'csv', { ...options, payload }),
        );
        const now = h.clock.now();
        const claimed = await h.stores.imports.claimJob('r1', now, now + LEASE, job.id);
        expect(claimed?.payload === payload, `a file of ${payload.length} code units`).toBe(true);
        await h.stores.imports.finishJob(job.id, 'r1', 'done', [], now);
      }
    });

    it("keeps a job's progress: its file's name, its first start, and the total its source gives", async () => {
      const h = harness();
      const account = await givenAccount(h.stores);
      const caller = { accountId: account.id, editToken: null };
      const input = { source: 'csv' as const, csv: 'url\nhttps://example.com/', file_name: 'links.csv' };
      const job = valueOf(await startImport(importDepsOf(h), input, caller));
      expect(await h.stores.imports.findJob(job.id)).toMatchObject({
        fileName: 'links.csv',
        total: null,
        startedAt: null,
      });
      const started = h.clock.now();
      const claimed = (await h.stores.imports.claimJob('r1', started, started + LEASE))!;
      expect(claimed).toMatchObject({ startedAt: started, fileName: 'links.csv' });
      const guess = { rows: 150, estimated: true };
      const plain = steppedSource(
        Array.from({ length: 120 }, (_, i) => rowOf(i)),
        async (i) => {
          h.clock.advance(20);
          if (i !== 60) return;
          const halfway = (await h.stores.imports.findJob(job.id))!;
          expect(halfway).toMatchObject({ counts: { rows: 50 }, total: guess, startedAt: started });
          expect(importProgressOf(halfway)).toMatchObject({
            done: 50,
            total: 150,
            percent: 33,
            estimated: true,
          });
        },
      );
      const source: ImportSource = {
        name: 'csv',
        async *rows(cursor) {
          for await (const step of plain.rows(cursor)) yield { ...step, total: guess };
        },
      };
      await runImportJob(importDepsOf(h), claimed, source, 'r1');
      const done = (await h.stores.imports.findJob(job.id))!;
      expect(done).toMatchObject({ state: 'done', total: guess, startedAt: started, fileName: 'links.csv' });
      expect(importProgressOf(done)).toMatchObject({ done: 120, total: 120, percent: 100, estimated: false });
      // a runner taking it again later keeps its first start
      const exact = valueOf(await startImport(importDepsOf(h), { source: 'csv', csv: 'url' }, caller));
      await h.stores.imports.claimJob('r2', started + 1, started + 2);
      const later = started + 10;
      expect(await h.stores.imports.claimJob('r3', later, later + LEASE, exact.id)).toMatchObject({
        startedAt: started + 1,
        fileName: null,
      });
    });

    it('renews a lease only for the runner holding the job, which keeps it from being taken', async () => {
      const h = harness();
      const job = await queuedJob(h);
      const now = h.clock.now();
      await h.stores.imports.claimJob('r1', now, now + LEASE);
      expect(await h.stores.imports.renewLease(job.id, 'r1', now + 3 * LEASE)).toBe(true);
      expect(await h.stores.imports.renewLease(job.id, 'r2', now + 3 * LEASE)).toBe(false);
      expect(await h.stores.imports.claimJob('r2', now + 2 * LEASE, now + 4 * LEASE)).toBeNull();
      expect((await h.stores.imports.claimJob('r2', now + 3 * LEASE, now + 4 * LEASE))?.id).toBe(job.id);
      expect(await h.stores.imports.renewLease(job.id, 'r1', now + 5 * LEASE)).toBe(false);
    });
  });
}
