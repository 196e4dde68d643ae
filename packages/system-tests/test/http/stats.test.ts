import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { keyCounts } from '@shortener/testkit';
import {
  BOT_UAS,
  BROWSER_UA,
  createLink,
  eventually,
  expectError,
  jsonOf,
  startTestServer,
} from './harness.js';
import type { Json } from './harness.js';
import { createAccounts, startFileServer } from './file-server.js';

const STATS_FIELDS = [
  'total',
  'unique',
  'bots',
  'imported',
  'days',
  'from',
  'to',
  'tz',
  'dimensions_tz',
  'by_day',
  'countries',
  'referrers',
  'devices',
  'browsers',
  'rules',
  'variants',
];
const MOBILE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

const server = await startFileServer();
const [owner, stranger] = await createAccounts(server, 'owner', 'stranger');

const statsOf = (link: Json, options: { key?: string; token?: string; query?: string } = {}) =>
  server.api(`/api/v1/links/${link.id}/stats${options.query ?? ''}`, options);
const today = () => new Date().toISOString().slice(0, 10);

describe('GET /api/v1/links/{id}/stats', () => {
  it('lets anyone read public statistics: every field, 30 days oldest first with zeros', async () => {
    const link = await createLink(server, { url: 'https://example.com/public' });
    const stats = await jsonOf(await statsOf(link));
    expect(Object.keys(stats).sort()).toEqual([...STATS_FIELDS].sort());
    expect(stats).toMatchObject({ total: 0, unique: 0, bots: 0, imported: 0, days: 30 });
    expect(stats.by_day).toHaveLength(30);
    const days = (stats.by_day as Json[]).map((d) => d.key as string);
    expect(days).toEqual([...days].sort());
    expect(days.at(-1)).toBe(today());
    expect((stats.by_day as Json[]).every((d) => d.count === 0)).toBe(true);
    for (const list of ['countries', 'referrers', 'devices', 'browsers', 'rules', 'variants'])
      expect(stats[list]).toEqual([]);
  });

  /** A link with private statistics made without a key, and one made with the owner's key. */
  const privateLinks = async (ownedPath: string) => ({
    anonymous: await createLink(server, { url: 'https://example.com/private', public_stats: false }),
    owned: await createLink(
      server,
      { url: `https://example.com/${ownedPath}`, public_stats: false },
      { key: owner.key },
    ),
  });

  it('refuses private statistics to anonymous callers and strangers with 403', async () => {
    const { anonymous, owned } = await privateLinks('p2');
    await expectError(await statsOf(anonymous), 403, 'forbidden');
    await expectError(await statsOf(owned), 403, 'forbidden');
    await expectError(await statsOf(owned, { key: stranger.key }), 403, 'forbidden');
    const otherToken = (await createLink(server, { url: 'https://example.com/x' })).edit_token as string;
    await expectError(await statsOf(anonymous, { token: otherToken }), 403, 'forbidden');
  });

  it("answers private statistics to the edit token and to the owner's key", async () => {
    const { anonymous, owned } = await privateLinks('p3');
    expect((await jsonOf(await statsOf(anonymous, { token: anonymous.edit_token }))).total).toBe(0);
    expect((await jsonOf(await statsOf(owned, { key: owner.key }))).total).toBe(0);
  });

  it('refuses a bad API key with 401 even on public statistics', async () => {
    const link = await createLink(server, { url: 'https://example.com/public' });
    await expectError(await statsOf(link, { key: 'shk_not-a-key' }), 401, 'unauthorized');
  });

  it('answers 404 not_found for an unknown link', async () => {
    const unknown = { id: '00000000-0000-4000-8000-00000000abcd' };
    await expectError(await statsOf(unknown), 404, 'not_found');
  });

  it('takes days from 1 to 365 and refuses anything else with 400 invalid_request', async () => {
    const link = await createLink(server, { url: 'https://example.com/days' });
    for (const days of [1, 7, 365]) {
      const stats = await jsonOf(await statsOf(link, { query: `?days=${days}` }));
      expect(stats.days).toBe(days);
      expect(stats.by_day).toHaveLength(days);
      expect(stats.by_day.at(-1).key).toBe(today());
    }
    for (const days of ['0', '366', '-1', '1.5', 'abc', '']) {
      await expectError(await statsOf(link, { query: `?days=${days}` }), 400, 'invalid_request');
    }
  });

  it('counts redirects once written: totals, bots, unique visitors and the breakdowns', async () => {
    const link = await createLink(server, { url: 'https://example.com/counted' });
    const visits: Record<string, string>[] = [
      { 'user-agent': BROWSER_UA, referer: 'https://news.example/story?id=1' },
      { 'user-agent': BROWSER_UA, referer: 'https://news.example/other' },
      { 'user-agent': MOBILE_UA },
      { 'user-agent': BOT_UAS[0]! },
      { 'user-agent': BOT_UAS[1]! },
    ];
    for (const headers of visits) expect((await server.visit(link.short_url, { headers })).status).toBe(302);
    await server.visit(link.short_url, { method: 'HEAD', headers: { 'user-agent': BROWSER_UA } });

    // the server writes buffered visits once a second
    const stats = await eventually(async () => {
      const current = await jsonOf(await statsOf(link));
      expect(current).toMatchObject({ total: 3, bots: 2 });
      return current;
    });
    expect(stats.unique).toBe(2); // same IP: one browser UA, one phone UA
    expect(stats.by_day.at(-1)).toEqual({ key: today(), count: 3 });
    expect(stats.referrers).toEqual(keyCounts(['news.example', 2], ['direct', 1]));
    expect(stats.devices).toEqual(keyCounts(['desktop', 2], ['mobile', 1]));
    expect((stats.browsers as Json[]).reduce((sum, b) => sum + (b.count as number), 0)).toBe(3);
    expect(stats.countries).toEqual(keyCounts(['unknown', 3]));

    const after = await jsonOf(await server.api(`/api/v1/links/${link.id}`, { token: link.edit_token }));
    expect(after.clicks).toBe(3);
    expect(Date.parse(after.last_click_at)).toBeGreaterThan(Date.parse(after.created_at) - 1);
  });
});

describe('reading right after redirects (read-your-writes)', () => {
  it('shows every click served before the read, without waiting for the flush', async () => {
    const link = await createLink(server, { url: 'https://example.com/fresh' });
    const headers = { 'user-agent': BROWSER_UA };
    for (let i = 0; i < 3; i += 1) expect((await server.visit(link.short_url, { headers })).status).toBe(302);
    // no polling: each read writes the buffered visits first
    expect(await jsonOf(await statsOf(link))).toMatchObject({ total: 3, unique: 1 });
    expect((await server.visit(link.short_url, { headers })).status).toBe(302);
    const view = await jsonOf(await server.api(`/api/v1/links/${link.id}`, { token: link.edit_token }));
    expect(view.clicks).toBe(4);
    expect((await server.visit(link.short_url, { headers })).status).toBe(302);
    expect((await jsonOf(await server.visit(`${link.short_url}.json`))).clicks).toBe(5);
    expect((await server.visit(link.short_url, { headers })).status).toBe(302);
    const preview = await server.visit(`${link.short_url}+`, { headers: { accept: 'text/html' } });
    expect(await preview.text()).toMatch(/>\s*6\s*</);
  });
});

describe('privacy', () => {
  it('writes no visitor IP address to the database or the logs', async () => {
    const proxied = await startTestServer({ TRUST_PROXY: 'true', LOG_LEVEL: 'debug' });
    try {
      const ip = '203.0.113.77';
      const link = await createLink(proxied, { url: 'https://example.com/private-visit' });
      const headers = { 'x-forwarded-for': ip, 'user-agent': BROWSER_UA };
      expect((await proxied.visit(link.short_url, { headers })).status).toBe(302);
      await eventually(async () =>
        expect((await jsonOf(await proxied.api(`/api/v1/links/${link.id}/stats`))).unique).toBe(1),
      );
      for (const file of [proxied.dbPath, `${proxied.dbPath}-wal`].filter((f) => existsSync(f))) {
        expect(readFileSync(file).includes(ip), file).toBe(false);
      }
      expect(proxied.logs.join('')).not.toContain(ip);
    } finally {
      await proxied.close();
    }
  });
});
