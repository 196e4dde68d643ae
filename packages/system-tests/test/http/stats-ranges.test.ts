import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_UA, createLink, errorOf, expectError, jsonOf, startTestServer } from './harness.js';
import type { Json, TestAccount, TestServer } from './harness.js';

// Every visit of this file happens at 23:30 UTC on 10 March 2026: 00:30 on the 11th in Vienna (UTC+1),
// 19:30 on the 10th in New York (UTC-4 since 8 March).
const NOW = Date.parse('2026-03-10T23:30:00Z');
const clock = { now: () => NOW };

let server: TestServer;
let owner: TestAccount;

beforeAll(async () => {
  server = await startTestServer({}, { clock });
  owner = await server.createAccount('ranges');
});
afterAll(() => server.close());

const headers = { 'user-agent': BROWSER_UA };
const visit = async (link: Json, times = 1) => {
  for (let i = 0; i < times; i++) expect((await server.visit(link.short_url, { headers })).status).toBe(302);
};
const statsOf = async (link: Json, query: string) =>
  jsonOf(await server.api(`/api/v1/links/${link.id}/stats?${query}`));

describe('statistics over a date range in a time zone', () => {
  it('counts a visit at 23:30 UTC on the next day in Europe/Vienna, on the same day in UTC and New York', async () => {
    const link = await createLink(server, { url: 'https://example.com/zones' });
    await visit(link);
    const range = 'from=2026-03-10&to=2026-03-11';
    const days = (stats: Json) => (stats.by_day as Json[]).map((d) => `${d.key}:${d.count}`);
    const utc = await statsOf(link, range);
    expect(days(utc)).toEqual(['2026-03-10:1', '2026-03-11:0']);
    expect(utc).toMatchObject({
      total: 1,
      from: '2026-03-10',
      to: '2026-03-11',
      tz: 'UTC',
      dimensions_tz: 'UTC',
    });
    const vienna = await statsOf(link, `${range}&tz=Europe/Vienna`);
    expect(days(vienna)).toEqual(['2026-03-10:0', '2026-03-11:1']);
    expect(vienna).toMatchObject({ total: 1, days: 2, tz: 'Europe/Vienna' });
    expect(days(await statsOf(link, `${range}&tz=America/New_York`))).toEqual([
      '2026-03-10:1',
      '2026-03-11:0',
    ]);
    // the last day in Vienna is already the 11th, its visit in it; the other lists sum UTC days
    const today = await statsOf(link, 'days=1&tz=Europe/Vienna');
    expect(today).toMatchObject({ from: '2026-03-11', to: '2026-03-11', total: 1, devices: [] });
    expect((await statsOf(link, 'days=1')).devices).toEqual([{ key: 'desktop', count: 1 }]);
  });

  it('refuses a bad range or zone with 400 naming the field', async () => {
    const link = await createLink(server, { url: 'https://example.com/bad-ranges' });
    const fieldOf = async (query: string) => {
      const response = await server.api(`/api/v1/links/${link.id}/stats?${query}`);
      const error = await expectError(response, 400, 'invalid_request');
      return `${error.code} ${error.field}`;
    };
    expect(await fieldOf('from=2025-01-01&to=2026-01-02')).toBe('invalid_request to'); // 367 days
    expect(await fieldOf('from=2026-03-02&to=2026-03-01')).toBe('invalid_request to');
    expect(await fieldOf('from=2026-02-30&to=2026-03-01')).toBe('invalid_request from');
    expect(await fieldOf('from=yesterday')).toBe('invalid_request from');
    expect(await fieldOf('from=2026-13-01')).toBe('invalid_request from');
    expect(await fieldOf('to=2026-03-01')).toBe('invalid_request from');
    expect(await fieldOf('days=7&from=2026-03-01')).toBe('invalid_request days');
    expect(await fieldOf('tz=Europe/Atlantis')).toBe('invalid_request tz');
    expect(await fieldOf('format=xml')).toBe('invalid_request format');
    expect((await statsOf(link, 'from=2025-03-10&to=2026-03-10')).by_day).toHaveLength(366);
  });
});

describe('statistics as CSV', () => {
  it('answers dimension,key,count rows with by_day, for format=csv and for Accept: text/csv', async () => {
    const link = await createLink(server, { url: 'https://example.com/csv' });
    await visit(link, 2);
    const query = 'from=2026-03-09&to=2026-03-10';
    for (const response of [
      await server.api(`/api/v1/links/${link.id}/stats?${query}&format=csv`),
      await server.api(`/api/v1/links/${link.id}/stats?${query}`, { headers: { accept: 'text/csv' } }),
    ]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const lines = (await response.text()).split('\r\n');
      expect(lines.slice(0, 7)).toEqual([
        'dimension,key,count',
        'total,,2',
        'unique,,1',
        'bots,,0',
        'imported,,0',
        'by_day,2026-03-09,0',
        'by_day,2026-03-10,2',
      ]);
      expect(lines).toContain('devices,desktop,2');
    }
  });

  it('exports the link list, quoting commas and quotes and neutralising formulas', async () => {
    const titles = ['=HYPERLINK("https://evil.example")', 'Sale, "big"', '@SUM(1)'];
    for (const title of titles)
      await createLink(server, { url: 'https://example.com/list', title, tags: ['csv'] }, { key: owner.key });
    const response = await server.api('/api/v1/links?format=csv&tag=csv', { key: owner.key });
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await response.text();
    expect(text.split('\r\n')[0]).toMatch(/^url,alias,domain,title,/);
    expect(text).toContain(`"'=HYPERLINK(""https://evil.example"")"`);
    expect(text).toContain('"Sale, ""big"""');
    expect(text).toContain("'@SUM(1)");
    expect(text.trim().split('\r\n')).toHaveLength(4);
    expect((await errorOf(await server.api('/api/v1/links?format=csv'))).code).toBe('unauthorized');
  });
});

describe('statistics across links', () => {
  it("sums a tag's links and every link of the account, with the top links by clicks", async () => {
    const account = await server.createAccount('across');
    const make = (path: string, tags: string[]) =>
      createLink(server, { url: `https://example.com/${path}`, tags }, { key: account.key });
    const [one, two, other] = [
      await make('one', ['spring']),
      await make('two', ['spring']),
      await make('x', []),
    ];
    await visit(one);
    await visit(two, 2);
    await visit(other, 4);
    const tag = await jsonOf(
      await server.api('/api/v1/tags/Spring/stats?days=1&tz=Europe/Vienna', { key: account.key }),
    );
    expect(tag).toMatchObject({ total: 3, from: '2026-03-11', tz: 'Europe/Vienna' });
    // the links are a dimension: summed by the range's UTC days, as the countries are (dimensions_tz)
    expect(tag).toMatchObject({ dimensions_tz: 'UTC', links: [], devices: [] });
    const tagUtc = await jsonOf(await server.api('/api/v1/tags/spring/stats?days=1', { key: account.key }));
    expect(tagUtc).toMatchObject({ total: 3, devices: [{ key: 'desktop', count: 3 }] });
    expect(tagUtc.links).toEqual([
      { id: two.id, short_url: two.short_url, clicks: 2 },
      { id: one.id, short_url: one.short_url, clicks: 1 },
    ]);
    const all = await jsonOf(await server.api('/api/v1/stats?days=1', { key: account.key }));
    expect(all).toMatchObject({ total: 7, by_day: [{ key: '2026-03-10', count: 7 }] });
    expect((all.links as Json[]).map((l) => l.clicks)).toEqual([4, 2, 1]);
    const csv = await (await server.api('/api/v1/stats?days=1&format=csv', { key: account.key })).text();
    expect(csv).toContain(`links,${other.short_url},4`);
    const empty = await jsonOf(await server.api('/api/v1/tags/nothing/stats', { key: account.key }));
    expect(empty).toMatchObject({ total: 0, links: [] });
    expect((await errorOf(await server.api('/api/v1/stats'))).code).toBe('unauthorized');
    const badTag = await expectError(
      await server.api('/api/v1/tags/a%23b/stats', { key: account.key }),
      400,
      'invalid_request',
    );
    expect(badTag).toMatchObject({ code: 'invalid_request', field: 'tag' });
  });
});
