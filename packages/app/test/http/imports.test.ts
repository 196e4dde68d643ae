import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShlink, SHLINK_KEY } from '../../../import-sources/test/stand-ins/shlink.js';
import type { StandIn } from '../../../import-sources/test/stand-ins/loopback.js';
import { expectError, jsonOf, startTestServer } from './harness.js';
import type { TestAccount, TestServer } from './harness.js';

// Decisions §17: imports through the API, run by the server's background runner. The remote sources
// are stand-ins on loopback (import-sources' tests show they answer as the APIs' documents say): a
// server that keeps to public hosts refuses them, one with ALLOW_PRIVATE_HOSTS imports from them.

let server: TestServer;
let open: TestServer;
let shlink: StandIn;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  open = await startTestServer({ ALLOW_PRIVATE_HOSTS: 'true' });
  alice = await server.createAccount('alice');
  bob = await server.createAccount('bob');
  shlink = await startShlink([
    {
      shortCode: 'Promo',
      domain: null,
      longUrl: 'https://example.com/promo',
      dateCreated: '2025-03-01T10:00:00+00:00',
      title: 'Promo',
      tags: ['spring'],
      visits: [
        {
          referer: 'https://news.example/a',
          date: new Date(Date.now() - 2 * 86_400_000).toISOString(),
          userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1',
          visitLocation: { countryCode: 'AT' },
          potentialBot: false,
        },
      ],
    },
  ]);
});

afterAll(async () => {
  await server.close();
  await open.close();
  await shlink.close();
});

/** Polls the job until it is done or failed. */
async function finished(on: TestServer, account: TestAccount, id: string) {
  for (let i = 0; i < 200; i++) {
    const job = await jsonOf(await on.api(`/api/v1/imports/${id}`, { key: account.key }));
    if (job.state === 'done' || job.state === 'failed') return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the import did not end');
}

const CSV = [
  'Short URL;Long URL;Title;Tags;Clicks',
  'https://old.example/spring;https://example.com/spring;Spring sale;sale|spring;12',
  'https://old.example/x;javascript:alert(1);Bad;;0',
  'https://old.example/api;https://example.com/api;Reserved code;;0',
  'https://old.example/=cmd;https://example.com/formula;Formula;;0',
].join('\n');

describe('POST /api/v1/imports (decisions §17)', () => {
  it('imports a CSV in the background, reports every row, and a run again adds nothing', async () => {
    const started = await jsonOf(
      await server.api('/api/v1/imports', { key: alice.key, json: { source: 'csv', csv: CSV } }),
      202,
    );
    expect(started).toMatchObject({ source: 'csv', state: 'queued', dry_run: false });
    const job = await finished(server, alice, started.id);
    expect(job).toMatchObject({ state: 'done', rows: 4, imported: 1, refused: 1, skipped: 2 });
    const link = await jsonOf(await server.visit(`http://${server.hostA}/spring.json`));
    expect(link).toMatchObject({ url: 'https://example.com/spring', clicks: 12 });
    const report = await server.api(`/api/v1/imports/${started.id}/report`, { key: alice.key });
    expect(report.headers.get('content-type')).toMatch(/^text\/csv/);
    const lines = (await report.text()).trim().split('\n');
    expect(lines[0]).toBe('original_short_url,outcome,short_url,reason');
    expect(lines[1]).toBe(`https://old.example/spring,imported,http://${server.hostA}/spring,`);
    expect(lines[2]).toMatch(/^https:\/\/old.example\/x,refused,,/);
    // a spreadsheet would run the cell as a formula: it starts with a quote
    expect(lines[4]).toMatch(/^https:\/\/old.example\/=cmd,/);
    const again = await jsonOf(
      await server.api('/api/v1/imports', { key: alice.key, json: { source: 'csv', csv: CSV } }),
      202,
    );
    expect(await finished(server, alice, again.id)).toMatchObject({
      rows: 4,
      imported: 0,
      skipped: 3,
      refused: 1,
    });
  });

  it('keeps jobs to their account and says what is missing', async () => {
    const started = await jsonOf(
      await server.api('/api/v1/imports', {
        key: alice.key,
        json: { source: 'csv', csv: 'url\nhttps://example.com/b' },
      }),
      202,
    );
    await expectError(await server.api(`/api/v1/imports/${started.id}`, { key: bob.key }), 404, 'not_found');
    await expectError(
      await server.api(`/api/v1/imports/${started.id}/report`, { key: bob.key }),
      404,
      'not_found',
    );
    await expectError(await server.api('/api/v1/imports/not-a-uuid', { key: alice.key }), 404, 'not_found');
    await expectError(
      await server.api('/api/v1/imports', { json: { source: 'csv', csv: 'url\nx' } }),
      401,
      'unauthorized',
    );
    const noKey = await server.api('/api/v1/imports', {
      key: alice.key,
      json: { source: 'shlink', url: 'https://shlink.example' },
    });
    expect((await expectError(noKey, 400, 'invalid_request')).field).toBe('api_key');
    const noCsv = await server.api('/api/v1/imports', { key: alice.key, json: { source: 'csv' } });
    expect((await expectError(noCsv, 400, 'invalid_request')).field).toBe('csv');
    const badMap = await server.api('/api/v1/imports', {
      key: alice.key,
      json: {
        source: 'csv',
        csv: 'url\nhttps://example.com/',
        domain_map: { 'old.example': 'nowhere.example' },
      },
    });
    expect((await expectError(badMap, 400, 'domain_invalid')).field).toBe('domain_map');
    const yourls = await server.api('/api/v1/imports', { key: alice.key, json: { source: 'yourls' } });
    expect((await expectError(yourls, 400, 'invalid_request')).field).toBe('source');
  });

  it('refuses a private address unless the operator allows it', async () => {
    const json = { source: 'shlink', url: shlink.url, api_key: SHLINK_KEY };
    const refused = await server.api('/api/v1/imports', { key: alice.key, json });
    expect((await expectError(refused, 400, 'private_host')).field).toBe('url');
  });

  it('imports Shlink links with their visits counted as visits', async () => {
    const carol = await open.createAccount('carol');
    const json = { source: 'shlink', url: shlink.url, api_key: SHLINK_KEY };
    const started = await jsonOf(await open.api('/api/v1/imports', { key: carol.key, json }), 202);
    expect(await finished(open, carol, started.id)).toMatchObject({ state: 'done', imported: 1, visits: 1 });
    const list = await jsonOf(await open.api('/api/v1/links', { key: carol.key }));
    const link = list.links[0];
    expect(link).toMatchObject({
      slug: 'promo',
      url: 'https://example.com/promo',
      tags: ['spring'],
      clicks: 1,
    });
    const stats = await jsonOf(await open.api(`/api/v1/links/${link.id}/stats?days=365`, { key: carol.key }));
    expect(stats.countries).toEqual([{ key: 'AT', count: 1 }]);
    expect(stats.referrers).toEqual([{ key: 'news.example', count: 1 }]);
  });
});
