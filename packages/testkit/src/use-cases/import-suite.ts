import { runImportJob, startImport } from '@shortener/core';
import type { ImportDeps, ImportJob, ImportRow, ImportSource, ImportUseDeps, Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { aLink, dimensionCounts, keyCounts } from '../fixtures.js';
import { givenAccount } from '../fresh-stores.js';
import { testUserAgents, useCoreHarness, valueOf } from './core-harness.js';
import type { Harness } from './core-harness.js';

/** A source over rows in memory; the cursor is the row's index. */
export function rowsSource(rows: readonly ImportRow[], name: ImportSource['name'] = 'csv'): ImportSource {
  return {
    name,
    async *rows(cursor) {
      for (let i = cursor === null ? 0 : Number(cursor) + 1; i < rows.length; i++) {
        yield { row: rows[i]!, cursor: String(i) };
      }
    },
  };
}

const row = (
  code: string | null,
  url = 'https://example.com/a',
  extra: Partial<ImportRow> = {},
): ImportRow => ({
  originalShortUrl: `https://old.example/${code ?? 'x'}`,
  domain: 'old.example',
  code,
  url,
  ...extra,
});

/** Deps of the import use cases and runner over the harness. */
export const importDepsOf = (h: Harness): ImportDeps & ImportUseDeps => ({
  ...h,
  imports: h.stores.imports,
  importSecrets: { keep: () => {} },
  readers: { userAgents: testUserAgents, isBot: (ua) => /bot/i.test(ua) },
});

/**
 * Imports end to end on one store (decisions §17): the job stored and claimed, rows mapped and written
 * in chunks, re-runs adding nothing, visits counted, the job resumed after an interruption, one runner
 * per job under concurrent claims.
 */
export function describeImportSuite(name: string, open: () => Promise<Stores>): void {
  describe(`imports (${name})`, () => {
    const harness = useCoreHarness(open);

    async function queued(
      h: Harness,
      extra: Partial<Parameters<typeof startImport>[1]> = {},
      accountId?: string,
    ): Promise<ImportJob> {
      const account = accountId === undefined ? await givenAccount(h.stores) : { id: accountId };
      const input = { source: 'csv' as const, csv: 'url\nhttps://example.com/', ...extra };
      return valueOf(await startImport(importDepsOf(h), input, { accountId: account.id, editToken: null }));
    }

    async function run(h: Harness, job: ImportJob, rows: readonly ImportRow[], stop?: () => boolean) {
      const now = h.clock.now();
      const claimed = await h.stores.imports.claimJob('runner-1', now, now + 60_000);
      expect(claimed?.id).toBe(job.id);
      await runImportJob(
        importDepsOf(h),
        claimed!,
        rowsSource(rows),
        'runner-1',
        stop === undefined ? {} : { stop },
      );
      return (await h.stores.imports.findJob(job.id))!;
    }

    it('keeps free codes in their case, skips taken and refused ones, refuses bad URLs, and reports each row', async () => {
      const h = harness();
      const job = await queued(h);
      expect((await h.links.insert(aLink({ slug: 'taken' }))).ok).toBe(true);
      const done = await run(h, job, [
        row('Keep1', 'https://example.com/keep', { title: 'Kept', tags: ['Summer', 'Café Menu', 'bad/tag'] }),
        row('taken'),
        row('a'),
        row('fine', 'javascript:alert(1)'),
        row(null, 'https://example.com/nocode'),
        { ...row('broken'), problem: 'No destination.' },
        row('TAKEN', 'https://example.com/upper'),
        row('Admin'),
        row('x'.repeat(65)),
      ]);
      expect(done.state).toBe('done');
      expect(done.counts).toMatchObject({ rows: 9, imported: 4, skipped: 3, refused: 2, renamed: 0 });
      const kept = await h.links.findBySlug('sho.rt', 'Keep1');
      // decisions §25: tags as the source spells them; one that is no tag is left out, and noted
      expect(kept).toMatchObject({
        slug: 'Keep1',
        url: 'https://example.com/keep',
        title: 'Kept',
        tags: ['Summer', 'Café Menu'],
      });
      // decisions §25: one character, and a code that differs from a taken one only in case, come across
      expect(await h.links.findBySlug('sho.rt', 'a')).toMatchObject({ slug: 'a' });
      expect(await h.links.findBySlug('sho.rt', 'TAKEN')).toMatchObject({ url: 'https://example.com/upper' });
      const report = await h.stores.imports.report(job.id);
      expect(report.map((l) => l.outcome)).toEqual([
        'imported',
        'skipped',
        'imported',
        'refused',
        'imported',
        'refused',
        'imported',
        'skipped',
        'skipped',
      ]);
      expect(report[0]!.shortUrl).toBe('https://sho.rt/Keep1');
      expect(report[0]!.reason).toMatch(/^tag "bad\/tag" left out: /);
      expect(report[1]!.reason).toMatch(/taken/);
    });

    it("keeps a row's settings, checked as a creation's: a permanent status with a cap, a bad split or preview refused", async () => {
      const h = harness();
      const job = await queued(h);
      const split = [
        { url: 'https://example.com/a', weight: 60 },
        { url: 'https://example.com/b', weight: 40 },
      ];
      const settings = {
        publicStats: false,
        forwardQuery: true,
        crawlable: true,
        redirectStatus: 307,
        expiredUrl: 'https://example.com/gone',
        preview: { title: 'P', description: null, image: 'https://example.com/i.png' },
        split,
      };
      const done = await run(h, job, [
        row('kept', 'https://example.com/kept', settings),
        row('permanent', 'https://example.com/p', { redirectStatus: 301, maxClicks: 5 }),
        row('onesplit', 'https://example.com/s', { split: [{ url: 'https://example.com/a', weight: 100 }] }),
        row('plainimage', 'https://example.com/i', { preview: { image: 'http://example.com/i.png' } }),
      ]);
      expect(done.counts).toMatchObject({ rows: 4, imported: 1, refused: 3 });
      expect(await h.links.findBySlug('sho.rt', 'kept')).toMatchObject({
        publicStats: false,
        forwardQuery: true,
        crawlable: true,
        redirectStatus: 307,
        expiredUrl: 'https://example.com/gone',
        preview: settings.preview,
        split,
      });
    });

    it('renames taken codes when asked, and a run again adds nothing', async () => {
      const h = harness();
      const job = await queued(h, { on_conflict: 'rename' });
      await h.links.insert(aLink({ slug: 'taken' }));
      const rows = [row('taken'), row('fresh')];
      const done = await run(h, job, rows);
      expect(done.counts).toMatchObject({ rows: 2, imported: 1, renamed: 1 });
      const renamed = (await h.stores.imports.report(job.id))[0]!;
      expect(renamed.outcome).toBe('renamed');
      expect(renamed.shortUrl).not.toBe('https://sho.rt/taken');
      const again = await queued(h, { on_conflict: 'rename' }, job.accountId);
      const after = await run(h, again, rows);
      expect(after.counts).toMatchObject({ rows: 2, imported: 0, renamed: 0, skipped: 2 });
      const list = await h.links.list({ accountId: job.accountId, limit: 100 });
      expect(list).toHaveLength(2);
    });

    it('imports each row without an old short link once, keyed by its destination, title and creation time, and those rows again add nothing', async () => {
      const h = harness();
      const bare = (url: string, extra: Partial<ImportRow> = {}): ImportRow => ({
        originalShortUrl: '',
        domain: null,
        code: null,
        url,
        ...extra,
      });
      const rows = [
        bare('https://example.com/1'),
        bare('https://example.com/2'),
        bare('https://example.com/1', { title: 'Another title' }),
        bare('https://example.com/1', { createdAt: Date.parse('2025-01-01T00:00:00Z') }),
        bare('https://example.com/3', { title: 'Three' }),
      ];
      const job = await queued(h);
      const done = await run(h, job, rows);
      expect(done.counts).toMatchObject({ rows: 5, imported: 5, skipped: 0 });
      const again = await run(h, await queued(h, {}, job.accountId), rows);
      expect(again.counts).toMatchObject({ rows: 5, imported: 0, skipped: 5 });
      const other = await run(h, await queued(h, {}, job.accountId), [bare('https://example.com/4')]);
      expect(other.counts).toMatchObject({ rows: 1, imported: 1 });
      expect(await h.links.list({ accountId: job.accountId, limit: 100 })).toHaveLength(6);
    });

    it('keeps a title as the source gives it (a source that escapes HTML decodes its own)', async () => {
      const h = harness();
      const job = await queued(h);
      await run(h, job, [row('titled', undefined, { title: 'Tom &amp; Jerry' })]);
      expect((await h.links.findBySlug('sho.rt', 'titled'))!.title).toBe('Tom &amp; Jerry');
    });

    it('imports a row the source says to disable disabled, its report line saying why', async () => {
      const h = harness();
      const job = await queued(h);
      const why = 'password at the source: set one and enable it';
      const done = await run(h, job, [row('locked', undefined, { disabled: why }), row('open')]);
      expect(done.counts).toMatchObject({ rows: 2, imported: 2 });
      expect(await h.links.findBySlug('sho.rt', 'locked')).toMatchObject({ disabled: true });
      expect(await h.links.findBySlug('sho.rt', 'open')).toMatchObject({ disabled: false });
      const report = await h.stores.imports.report(job.id);
      expect(report.map((l) => [l.outcome, l.reason])).toEqual([
        ['imported', why],
        ['imported', null],
      ]);
    });

    it('counts a history as visits, daily series on their days and a bare total as imported clicks', async () => {
      const h = harness();
      const job = await queued(h);
      const at = Date.parse('2026-01-02T10:00:00Z');
      const visits = async function* () {
        yield { at, referrer: 'https://news.example/x', userAgent: 'Firefox/1 Mobile', country: 'at' };
        yield { at: at + 1000, referrer: null, userAgent: 'Safari/2', country: null };
        yield { at, referrer: null, userAgent: 'Googlebot/2.1', country: 'US' };
      };
      await run(h, job, [
        row('hist', undefined, { visits }),
        row('days', undefined, { days: async () => [{ day: '2026-01-01', clicks: 5 }] }),
        row('total', undefined, { totalClicks: 7 }),
      ]);
      const hist = (await h.links.findBySlug('sho.rt', 'hist'))!;
      expect(hist).toMatchObject({ clicks: 2, importedClicks: 0, lastClickAt: at + 1000 });
      expect(await h.visits.countsByDay(hist.id, 'total', '2026-01-01', '2026-01-03')).toEqual(
        keyCounts(['2026-01-02', 2]),
      );
      // decisions §25: each visit in its own UTC hour (10:00), so a time zone places it on its day
      const hourly = await h.visits.countsByDayOf([hist.id], ['total', 'bots'], '2026-01-02', '2026-01-02');
      expect(hourly).toEqual(
        expect.arrayContaining([
          { day: '2026-01-02', dimension: 'total', key: '10', count: 2 },
          { day: '2026-01-02', dimension: 'bots', key: '10', count: 1 },
        ]),
      );
      expect(hourly).toHaveLength(2);
      const keyed = await h.visits.countsByKey(hist.id, '2026-01-01', '2026-01-03');
      expect(keyed).toEqual(
        expect.arrayContaining(
          dimensionCounts(
            ['country', 'AT', 1],
            ['referrer', 'news.example', 1],
            ['device', 'mobile', 1],
            ['bots', '10', 1],
          ),
        ),
      );
      const days = (await h.links.findBySlug('sho.rt', 'days'))!;
      expect(days.clicks).toBe(5);
      expect(await h.visits.countsByDay(days.id, 'total', '2026-01-01', '2026-01-01')).toEqual(
        keyCounts(['2026-01-01', 5]),
      );
      expect(await h.links.findBySlug('sho.rt', 'total')).toMatchObject({ clicks: 7, importedClicks: 7 });
      expect((await h.stores.imports.findJob(job.id))!.counts.visits).toBe(3 + 5 + 7);
    });

    it('resumes after the chunk last written, and writes nothing on a dry run', async () => {
      const h = harness();
      const job = await queued(h);
      const rows = Array.from({ length: 120 }, (_, i) => row(`code${i}`));
      const stopped = await run(h, job, rows, () => true);
      expect(stopped).toMatchObject({ state: 'running', counts: { rows: 50 } });
      // the runner is gone: another takes the job once its lease has run out
      expect(await h.stores.imports.claimJob('runner-2', h.clock.now(), h.clock.now() + 60_000)).toBeNull();
      const later = h.clock.now() + 61_000;
      const taken = (await h.stores.imports.claimJob('runner-2', later, later + 60_000))!;
      expect(taken.cursor).toBe('49');
      await runImportJob(importDepsOf(h), taken, rowsSource(rows), 'runner-2');
      const done = (await h.stores.imports.findJob(job.id))!;
      expect(done).toMatchObject({ state: 'done', counts: { rows: 120, imported: 120 } });
      expect(await h.stores.imports.report(job.id)).toHaveLength(120);
      // the first runner, back, can write no more
      const late = await h.stores.imports.writeChunk({
        jobId: job.id,
        runner: 'runner-1',
        total: null,
        writes: [],
        lines: [],
        writeLines: [],
        counts: done.counts,
        cursor: null,
        at: later,
        leaseUntil: later,
      });
      expect(late.ok).toBe(false);

      const dry = await queued(h, { dry_run: true });
      const report = await run(h, dry, [row('drycode')]);
      expect(report.counts).toMatchObject({ rows: 1, imported: 1 });
      expect(await h.links.findBySlug('sho.rt', 'drycode')).toBeNull();
    });

    it('gives a job to one runner of many claiming at once', async () => {
      const h = harness();
      await queued(h);
      const now = h.clock.now();
      const claims = await Promise.all(
        Array.from({ length: 20 }, (_, i) => h.stores.imports.claimJob(`r${i}`, now, now + 60_000)),
      );
      expect(claims.filter((c) => c !== null)).toHaveLength(1);
    });
  });
}
