import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { keyCounts } from '@shortener/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_UA, createLink, eventually, jsonOf, startTestServer } from './harness.js';
import type { Json, TestServer } from './harness.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

const IPV4 = ['198.51.100.23', '203.0.113.201', '192.0.2.77'];
const IPV6 = ['2001:db8:85a3::8a2e:370:7334', '2001:db8:1234:5678:9abc:def0:1234:5678'];

/** Every textual and binary spelling of an address we could imagine ending up in a file. */
function encodings(ip: string): Buffer[] {
  const text = [ip, ip.toUpperCase()];
  let bytes: Buffer;
  if (ip.includes(':')) {
    const [head = '', tail = ''] = ip.split('::');
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const groups = [...h, ...Array(8 - h.length - t.length).fill('0'), ...t].map((g) => g.padStart(4, '0'));
    text.push(groups.join(':'), groups.join(''));
    bytes = Buffer.from(groups.join(''), 'hex');
  } else {
    bytes = Buffer.from(ip.split('.').map(Number));
    text.push(String(bytes.readUInt32BE()), bytes.toString('hex'), `::ffff:${ip}`);
    const mapped = Buffer.concat([Buffer.alloc(10), Buffer.from([0xff, 0xff]), bytes]);
    return [
      ...text.flatMap((s) => [Buffer.from(s), Buffer.from(s, 'utf16le')]),
      bytes,
      mapped,
      Buffer.from(bytes.toString('base64')),
    ];
  }
  return [
    ...text.flatMap((s) => [Buffer.from(s), Buffer.from(s, 'utf16le')]),
    bytes,
    Buffer.from(bytes.toString('base64')),
  ];
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: 'true', COUNTRY_HEADER: 'CF-IPCountry', LOG_LEVEL: 'debug' });
});
afterAll(() => server.close());

const visit = (link: Json, ip: string, ua: string, extra: Record<string, string> = {}, method = 'GET') =>
  server.visit(link.short_url as string, {
    method,
    headers: { 'x-forwarded-for': ip, 'user-agent': ua, ...extra },
  });

const statsOf = async (link: Json) => jsonOf(await server.api(`/api/v1/links/${link.id}/stats?days=7`));

describe('click analytics', () => {
  it('adds up a scripted mix of visits to the unit', async () => {
    const link = await createLink(server, { url: 'https://example.com/analytics' });
    const script: [string, string, Record<string, string>, string?][] = [
      [IPV4[0]!, BROWSER_UA, { 'cf-ipcountry': 'DE', referer: 'https://news.example.com/item?id=1' }],
      [IPV4[0]!, BROWSER_UA, { 'cf-ipcountry': 'DE', referer: 'https://news.example.com/other' }],
      [IPV4[1]!, IPHONE, { 'cf-ipcountry': 'FR' }],
      [IPV4[1]!, IPHONE, { 'cf-ipcountry': 'FR', purpose: 'prefetch' }],
      [IPV4[2]!, IPAD, { 'cf-ipcountry': 'US', referer: 'https://t.co/x' }],
      [IPV6[0]!, FIREFOX, { 'cf-ipcountry': 'XX' }],
      [IPV6[1]!, FIREFOX, { 'cf-ipcountry': 'de' }],
      [IPV4[2]!, 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', {}],
      [IPV4[2]!, 'facebookexternalhit/1.1', {}],
      [IPV4[0]!, BROWSER_UA, { 'cf-ipcountry': 'DE' }, 'HEAD'],
    ];
    for (const [ip, ua, headers, method] of script) {
      expect((await visit(link, ip, ua, headers, method)).status).toBe(302);
    }
    const stats = await eventually(async () => {
      const s = await statsOf(link);
      expect(s.total + s.bots).toBe(8);
      return s;
    });
    expect(stats).toMatchObject({ total: 6, bots: 2, unique: 5, days: 7 });
    expect(stats.by_day.at(-1)).toEqual({ key: new Date().toISOString().slice(0, 10), count: 6 });
    expect(stats.countries).toEqual(keyCounts(['DE', 3], ['FR', 1], ['US', 1], ['unknown', 1]));
    expect(stats.referrers).toEqual(keyCounts(['direct', 3], ['news.example.com', 2], ['t.co', 1]));
    expect(stats.devices).toEqual(keyCounts(['desktop', 4], ['mobile', 1], ['tablet', 1]));
    const browsers = Object.fromEntries((stats.browsers as Json[]).map((b) => [b.key, b.count]));
    expect(browsers).toEqual({ Chrome: 2, Firefox: 2, 'Mobile Safari': 2 });
    const detail = await jsonOf(await server.api(`/api/v1/links/${link.id}`, { token: link.edit_token }));
    expect(detail.clicks).toBe(stats.total);
    expect(detail.last_click_at).not.toBeNull();
  });

  it('finds the country in the bundled DB-IP database when no proxy header names it', async () => {
    const link = await createLink(server, { url: 'https://example.com/geo' });
    for (const ip of ['8.8.8.8', '81.2.69.142', '2a00:1450:4001::1', '10.1.2.3']) {
      expect((await visit(link, ip, FIREFOX)).status).toBe(302);
    }
    const stats = await eventually(async () => {
      const s = await statsOf(link);
      expect(s.total).toBe(4);
      return s;
    });
    const countries = Object.fromEntries((stats.countries as Json[]).map((c) => [c.key, c.count]));
    expect(countries).toEqual({ US: 1, GB: 1, DE: 1, unknown: 1 });
  });

  it('keeps no visitor IP anywhere: database, WAL, data folder or logs, in any encoding', async () => {
    const link = await createLink(server, { url: 'https://example.com/privacy' });
    for (const ip of [...IPV4, ...IPV6]) expect((await visit(link, ip, FIREFOX)).status).toBe(302);
    await eventually(async () => expect((await statsOf(link)).unique).toBe(IPV4.length + IPV6.length));
    const folder = dirname(server.dbPath);
    const files = readdirSync(folder)
      .map((f) => join(folder, f))
      .filter((f) => existsSync(f));
    expect(files.some((f) => f.endsWith('-wal')) || files.length > 0).toBe(true);
    const haystacks = [
      ...files.map((f) => [f, readFileSync(f)] as const),
      ['logs', Buffer.from(server.logs.join('\n'))] as const,
    ];
    for (const ip of [...IPV4, ...IPV6]) {
      for (const needle of encodings(ip)) {
        for (const [name, content] of haystacks)
          expect(content.includes(needle), `${ip} as ${needle.toString('hex')} in ${name}`).toBe(false);
      }
    }
  });
});
