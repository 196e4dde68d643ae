import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMariaDb, uniqueName, urlFor, yourlsTables } from '../../../import-sources/test/mariadb.js';
import { startShlink, SHLINK_KEY } from '../../../import-sources/test/stand-ins/shlink.js';
import type { StandIn } from '../../../import-sources/test/stand-ins/loopback.js';
import { invitedBrowser, pageOf } from './browser-session.js';
import { BROWSER_UA, eventually, expectError, jsonOf, startTestServer } from './harness.js';
import type { Json, TestAccount, TestServer } from './harness.js';

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
      meta: { validSince: '2099-01-01T00:00:00+01:00' },
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
    // decisions §25: a language rule with its region, tags with spaces and accents
    {
      shortCode: 'us-only',
      domain: null,
      longUrl: 'https://example.com/everyone',
      dateCreated: '2025-03-02T10:00:00+00:00',
      tags: ['Café Menu', 'spring sale'],
      redirectRules: [
        {
          longUrl: 'https://example.com/us',
          priority: 1,
          conditions: [{ type: 'language', matchKey: null, matchValue: 'en-US' }],
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
    const lines = (await report.text()).trim().split('\r\n'); // decisions §25: CRLF
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

  it('imports each row of a CSV without old short links once, and the same file again adds nothing', async () => {
    const frank = await server.createAccount('frank');
    const csv = [
      'Long URL,Title,Created',
      'https://example.com/1,One,2024-01-01',
      'https://example.com/2,,2024-01-02',
      'https://example.com/1,One again,2024-01-03',
      'https://example.com/1,One,2024-02-01',
      'https://example.com/5,Five,2024-01-05',
    ].join('\n');
    const start = async () =>
      (
        await jsonOf(
          await server.api('/api/v1/imports', { key: frank.key, json: { source: 'csv', csv } }),
          202,
        )
      ).id as string;
    expect(await finished(server, frank, await start())).toMatchObject({ rows: 5, imported: 5, skipped: 0 });
    expect(await finished(server, frank, await start())).toMatchObject({ rows: 5, imported: 0, skipped: 5 });
    const { links } = await jsonOf(await server.api('/api/v1/links?limit=100', { key: frank.key }));
    expect(links).toHaveLength(5);
  });

  it('imports a row whose date it cannot read without the date, and reads dates in `date_format` (§25)', async () => {
    const gerd = await server.createAccount('gerd');
    const csv = 'Long URL;Title;Created\r\nhttps://example.com/de;Eins;31.12.2024 23:10\r\n';
    const start = async (extra: object) =>
      (
        await jsonOf(
          await server.api('/api/v1/imports', { key: gerd.key, json: { source: 'csv', csv, ...extra } }),
          202,
        )
      ).id as string;
    const first = await start({});
    expect(await finished(server, gerd, first)).toMatchObject({ rows: 1, imported: 1, refused: 0 });
    const report = await server.api(`/api/v1/imports/${first}/report`, { key: gerd.key });
    expect((await report.text()).trim().split('\r\n')[1]).toMatch(
      /,imported,http:\/\/[^,]+,"row 1: created ""31.12.2024 23:10"" not read, imported without a date"$/,
    );

    const other = await server.createAccount('gerda');
    const json = { source: 'csv', csv, date_format: 'DD.MM.YYYY HH:mm' };
    const started = await jsonOf(await server.api('/api/v1/imports', { key: other.key, json }), 202);
    expect(await finished(server, other, started.id)).toMatchObject({ imported: 1 });
    const { links } = await jsonOf(await server.api('/api/v1/links', { key: other.key }));
    expect(links[0].created_at).toBe('2024-12-31T23:10:00.000Z');

    const bad = { source: 'csv', csv, date_format: 'DD.QQ.YYYY' };
    const refused = await server.api('/api/v1/imports', { key: other.key, json: bad });
    expect((await expectError(refused, 400, 'invalid_request')).field).toBe('date_format');
    const openapi = await jsonOf(await server.api('/openapi.json'));
    expect(JSON.stringify(openapi)).toContain('"date_format"');
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
    expect(await finished(open, carol, started.id)).toMatchObject({ state: 'done', imported: 2, visits: 1 });
    const list = await jsonOf(await open.api('/api/v1/links', { key: carol.key }));
    const link = list.links[1];
    // the region of a language rule and the tags' spelling come along (decisions §25)
    const usOnly = list.links[0];
    expect(usOnly).toMatchObject({
      tags: ['Café Menu', 'spring sale'],
      rules: [{ when: { language: ['en-US'] }, url: 'https://example.com/us' }],
    });
    const locationOf = async (language: string) =>
      (await open.visit(String(usOnly.short_url), { headers: { 'accept-language': language } })).headers.get(
        'location',
      );
    expect(await locationOf('en-US,en;q=0.8')).toBe('https://example.com/us');
    expect(await locationOf('en-GB,en;q=0.8')).toBe('https://example.com/everyone');
    expect(link).toMatchObject({
      slug: 'Promo', // decisions §25: the code keeps its case
      url: 'https://example.com/promo',
      tags: ['spring'],
      clicks: 1,
      starts_at: '2098-12-31T23:00:00.000Z', // Shlink's validSince
    });
    // before it, an unknown slug
    expect((await open.visit(link.short_url, { headers: { 'user-agent': BROWSER_UA } })).status).toBe(404);
    const stats = await jsonOf(await open.api(`/api/v1/links/${link.id}/stats?days=365`, { key: carol.key }));
    expect(stats.countries).toEqual([{ key: 'AT', count: 1 }]);
    expect(stats.referrers).toEqual([{ key: 'news.example', count: 1 }]);
  });
});

describe('shortener import --from (decisions §17)', () => {
  it('imports a CSV into an account and lists every row not imported', async () => {
    const dave = await server.createAccount('dave');
    const dir = mkdtempSync(join(tmpdir(), 'shortener-import-'));
    const file = join(dir, 'bitly.csv');
    writeFileSync(
      file,
      'Link,Destination URL,Title\nhttps://bit.ly/davesale,https://example.com/sale,Sale\nhttps://bit.ly/api,https://example.com/a,Reserved code\n',
    );
    const done = await server.cli(
      'import',
      '--from',
      'csv',
      file,
      '--account',
      'dave',
      '--on-conflict',
      'rename',
    );
    expect(done).toMatchObject({ state: 'done', rows: 2, imported: 1, renamed: 1 });
    expect(done.not_imported).toEqual([
      expect.objectContaining({ original_short_url: 'https://bit.ly/api', outcome: 'renamed' }),
    ]);
    const listed = await jsonOf(await server.api('/api/v1/links', { key: dave.key }));
    expect(listed.links.map((l: { slug: string }) => l.slug)).toContain('davesale');
    await expect(server.cli('import', '--from', 'shlink', '--account', 'dave')).rejects.toThrow(/--url/);
    await expect(server.cli('import', '--from', 'nowhere', file, '--account', 'dave')).rejects.toThrow(
      /--from must be/,
    );
  });

  it('imports a YOURLS database with its history, never reading an address', async (context) => {
    const root = await connectMariaDb();
    if (root === null) return context.skip();
    const name = uniqueName('yourls_app');
    try {
      await root.query(`CREATE DATABASE ${name}; USE ${name}; ${yourlsTables('yourls_')}`);
      await root.query(
        `INSERT INTO yourls_url (keyword, url, title, timestamp, ip, clicks) VALUES
         ('gh', 'https://github.com/', 'GitHub &amp; friends', '2026-11-01 10:00:00', '203.0.113.9', 2),
         ('2v', 'https://example.com/lower', 'lower', '2026-11-01 10:00:00', '203.0.113.9', 0),
         ('2V', 'https://example.com/upper', 'upper', '2026-11-01 10:00:01', '203.0.113.9', 0),
         ('Q', 'https://example.com/one', 'one character', '2026-11-01 10:00:02', '203.0.113.9', 0),
         ('Hi', 'https://example.com/hi', 'mixed', '2026-11-01 10:00:03', '203.0.113.9', 0),
         ('late', 'https://example.com/late', 'late visit', '2026-11-01 10:00:04', '203.0.113.9', 1)`,
      );
      const recent = new Date(Date.now() - 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
      await root.query(
        `INSERT INTO yourls_log (click_time, shorturl, referrer, user_agent, ip_address, country_code) VALUES
         (?, 'gh', 'direct', 'Mozilla/5.0 (Windows NT 10.0) Firefox/120.0', '203.0.113.10', 'DE'),
         (?, 'gh', 'https://news.example/x', 'Mozilla/5.0 (Windows NT 10.0) Firefox/120.0', '203.0.113.11', 'FR')`,
        [recent, recent],
      );
      // 23:30 UTC the day before Vienna's today is today in Vienna (UTC+1 or +2): its hour decides its
      // local day (decisions §25)
      const viennaToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Vienna' }).format(new Date());
      const dayBefore = new Date(Date.parse(`${viennaToday}T00:00:00Z`) - 86_400_000)
        .toISOString()
        .slice(0, 10);
      await root.query(
        `INSERT INTO yourls_log (click_time, shorturl, referrer, user_agent, ip_address, country_code) VALUES
         (?, 'late', 'direct', 'Mozilla/5.0 (Windows NT 10.0) Firefox/120.0', '203.0.113.12', 'AT')`,
        [`${dayBefore} 23:30:00`],
      );
      const erin = await server.createAccount('erin');
      const done = await server.cli(
        'import',
        '--from',
        'yourls',
        '--database',
        urlFor('root', '', name),
        '--domain',
        'yourls.example',
        '--account',
        'erin',
      );
      expect(done).toMatchObject({ state: 'done', imported: 6, skipped: 0, visits: 3 });
      const { links } = await jsonOf(await server.api('/api/v1/links', { key: erin.key }));
      const link = links.find((l: { slug: string }) => l.slug === 'gh');
      // decisions §25: codes keep their case and length; a path is looked up exactly, then without case
      expect(links.map((l: { slug: string }) => l.slug).sort()).toEqual([
        '2V',
        '2v',
        'Hi',
        'Q',
        'gh',
        'late',
      ]);
      const target = async (path: string) =>
        (
          await server.visit(`http://${server.hostA}/${path}`, { headers: { 'user-agent': 'curl/8' } })
        ).headers.get('location');
      expect(await target('2v')).toBe('https://example.com/lower');
      expect(await target('2V')).toBe('https://example.com/upper');
      expect(await target('Q')).toBe('https://example.com/one');
      expect(await target('q')).toBe('https://example.com/one');
      expect(await target('GH')).toBe('https://github.com/');
      // an alias that a link answers in another case is taken: it would take over the path
      const taken = await server.api('/api/v1/links', {
        key: erin.key,
        json: { url: 'https://example.com/new', alias: 'hi' },
      });
      expect((await expectError(taken, 400, 'slug_taken')).field).toBe('alias');
      // YOURLS stores titles escaped: decoded once (decisions §25)
      expect(link).toMatchObject({ slug: 'gh', clicks: 2, title: 'GitHub & friends' });
      const stats = await jsonOf(await server.api(`/api/v1/links/${link.id}/stats`, { key: erin.key }));
      expect(stats.countries).toEqual(
        expect.arrayContaining([
          { key: 'DE', count: 1 },
          { key: 'FR', count: 1 },
        ]),
      );
      const late = links.find((l: { slug: string }) => l.slug === 'late');
      const totalOn = async (day: string, tz: string) =>
        (
          await jsonOf(
            await server.api(`/api/v1/links/${late.id}/stats?from=${day}&to=${day}&tz=${tz}`, {
              key: erin.key,
            }),
          )
        ).total;
      expect(await totalOn(viennaToday, 'Europe/Vienna')).toBe(1);
      expect(await totalOn(dayBefore, 'Europe/Vienna')).toBe(0);
      expect(await totalOn(dayBefore, 'UTC')).toBe(1);
      // nothing of the addresses came along (on SQLite, the file holds no trace of them)
      if (existsSync(server.dbPath)) {
        expect(readFileSync(server.dbPath).toString('latin1')).not.toContain('203.0.113.1');
      }
    } finally {
      await root.query(`DROP DATABASE IF EXISTS ${name}`);
      await root.end();
    }
  });
});

describe('/account/import (decisions §17)', () => {
  it('starts an import from a form post and shows its progress and report', async () => {
    const browser = await invitedBrowser(server, 'frank', 'frank password');
    const page = await browser.send('/account/import');
    expect(page.status).toBe(200);
    const csv = 'Short URL,Long URL\nhttps://old.example/frankpage,https://example.com/frank\n';
    const posted = await browser.post('/account/import', { source: 'csv', csv, on_conflict: 'skip' });
    expect(posted.status).toBe(303);
    const location = posted.headers.get('location') ?? '';
    expect(location).toMatch(/^\/account\/import\/[0-9a-f-]{36}$/);
    const shown = await eventually(async () => {
      const answer = await browser.send(location);
      const body = await answer.text();
      expect(body).toContain('1 rows: 1 imported');
      return body;
    });
    expect(shown).toContain(`/api/v1/imports/${location.split('/').at(-1)}/report`);
    const refused = await browser.post('/account/import', {
      source: 'shlink',
      url: 'https://shlink.example',
      secret: '',
    });
    expect(await pageOf(refused, 400)).toContain('api_key');
  });

  it('reads the dates of a CSV in the pattern the form names (§25)', async () => {
    const browser = await invitedBrowser(server, 'heidi', 'heidi password');
    expect(await (await browser.send('/account/import')).text()).toContain('name="date_format"');
    const csv = 'Long URL;Created\nhttps://example.com/heidi;24.12.2024 18:30\n';
    const posted = await browser.post('/account/import', {
      source: 'csv',
      csv,
      date_format: 'DD.MM.YYYY HH:mm',
    });
    expect(posted.status).toBe(303);
    const links = await eventually(async () => {
      const answer = await jsonOf(await browser.send('/api/v1/links'));
      expect(answer.links).toHaveLength(1);
      return answer.links as Json[];
    });
    expect(links[0]?.created_at).toBe('2024-12-24T18:30:00.000Z');
    const bad = await browser.post('/account/import', { source: 'csv', csv, date_format: 'soon' });
    expect(await pageOf(bad, 400)).toContain('date_format');
  });
});

describe('imported totals in statistics (decisions §17, §25)', () => {
  it('shows a bare total as `imported` in the API, CSV, pages, CLI and MCP, outside every day', async () => {
    const browser = await invitedBrowser(server, 'gina', 'gina password');
    const { key } = (await server.cli('keys', 'create', 'gina')) as { key: string };
    const csv = 'Short URL,Long URL,Clicks\nhttps://old.example/ginabare,https://example.com/gina,7\n';
    const started = await jsonOf(
      await server.api('/api/v1/imports', { key, json: { source: 'csv', csv } }),
      202,
    );
    expect(await finished(server, { key } as TestAccount, started.id)).toMatchObject({ imported: 1 });
    const link = (await jsonOf(await server.api('/api/v1/links', { key }))).links[0];
    expect(link).toMatchObject({ slug: 'ginabare', clicks: 7 });
    const stats = await jsonOf(await server.api(`/api/v1/links/${link.id}/stats?days=365`, { key }));
    expect(stats).toMatchObject({ total: 0, imported: 7 });
    expect(await jsonOf(await server.api('/api/v1/stats', { key }))).toMatchObject({ total: 0, imported: 7 });
    const csvStats = await (await server.api(`/api/v1/links/${link.id}/stats?format=csv`, { key })).text();
    expect(csvStats.split('\r\n')).toContain('imported,,7');
    const page = await pageOf(await browser.send(`/account/links/${link.id}`), 200);
    expect(page).toMatch(/<dt>Imported<\/dt>\s*<dd class="total">7<\/dd>/);
    expect(await pageOf(await browser.send('/account'), 200)).toMatch(
      /<dt>Imported<\/dt>\s*<dd class="total">7<\/dd>/,
    );
    const shown = await server.cli('stats', link.short_url);
    expect(shown).toMatchObject({ imported: 7 });
  });
});
