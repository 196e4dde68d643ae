import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shlinkSource } from '../src/index.js';
import { collect, expectResumesAfterEachStep, failure, plain, visitsOf } from './collect.js';
import type { StandIn } from './stand-ins/loopback.js';
import type { ShlinkShortUrl } from './stand-ins/shlink.js';
import { SHLINK_KEY, startShlink } from './stand-ins/shlink.js';

const located = {
  cityName: 'Cupertino',
  countryCode: 'US',
  countryName: 'United States',
  latitude: 37.3042,
  longitude: -122.0946,
  regionName: 'California',
  timezone: 'America/Los_Angeles',
};
const visit = (date: string, extra: Record<string, unknown> = {}) => ({
  referer: 'https://t.co',
  date,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0',
  visitLocation: located,
  potentialBot: false,
  visitedUrl: 'https://s.test/abc',
  ...extra,
});
const condition = (type: string, matchValue: string | null, matchKey: string | null = null) => ({
  type,
  matchKey,
  matchValue,
});

const FIRST: ShlinkShortUrl = {
  shortCode: 'abc',
  domain: null,
  longUrl: 'https://example.com/a',
  dateCreated: '2016-08-21T20:34:16+02:00',
  title: 'Welcome',
  tags: ['games', 'tech'],
  meta: { validSince: '2016-01-01T00:00:00+02:00', validUntil: '2030-01-01T00:00:00+00:00', maxVisits: 100 },
  crawlable: true,
  forwardQuery: false,
  redirectRules: [
    { longUrl: 'https://example.com/fr', priority: 2, conditions: [condition('language', 'fr')] },
    {
      longUrl: 'https://example.com/android-en',
      priority: 1,
      conditions: [condition('device', 'android'), condition('language', 'en-US')],
    },
    {
      longUrl: 'https://example.com/office',
      priority: 3,
      conditions: [condition('ip-address', '192.168.1.*')],
    },
    {
      longUrl: 'https://example.com/q',
      priority: 4,
      conditions: [condition('query-param', 'bar', 'foo'), condition('query-param', 'world', 'hello')],
    },
    { longUrl: 'https://example.com/phone', priority: 5, conditions: [condition('device', 'mobile')] },
    { longUrl: 'https://example.com/chromebook', priority: 6, conditions: [condition('device', 'chromeos')] },
    {
      longUrl: 'https://example.com/de-soon',
      priority: 7,
      conditions: [
        condition('geolocation-country-code', 'de'),
        condition('after-date', '2025-01-01T00:00:00+00:00'),
      ],
    },
  ],
  visits: [
    visit('2015-08-20T05:05:03+04:00'),
    visit('2015-08-21T00:00:00+00:00', { referer: '', userAgent: '', visitLocation: null }),
    visit('2015-08-22T10:00:00+00:00', { visitLocation: { ...located, countryCode: 'Unknown' } }),
  ],
};
const SECOND: ShlinkShortUrl = {
  shortCode: 'promo/2024',
  domain: 'go.example',
  longUrl: 'https://example.com/b',
  dateCreated: '2017-01-01T00:00:00+00:00',
  visits: Array.from({ length: 1001 }, (_, i) =>
    visit(new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString()),
  ),
};
// enough more to fill three pages of 50, given out of date order to prove the listing asks oldest first
const MORE: ShlinkShortUrl[] = Array.from({ length: 110 }, (_, i) => ({
  shortCode: `n${String(i).padStart(3, '0')}`,
  domain: null,
  longUrl: `https://example.com/n/${i}`,
  dateCreated: new Date(Date.UTC(2020, 0, 1) + (109 - i) * 86_400_000).toISOString(),
}));

describe('shlinkSource', () => {
  let shlink: StandIn;
  beforeAll(async () => {
    shlink = await startShlink([...MORE, SECOND, FIRST]);
  });
  afterAll(() => shlink.close());
  const source = () => shlinkSource({ url: shlink.url, apiKey: SHLINK_KEY, fetch });

  it('reads every short URL oldest first with its fields and its rules', async () => {
    const steps = await collect(source());
    expect(steps).toHaveLength(112);
    expect(plain(steps[0]!.row)).toEqual({
      originalShortUrl: 'https://s.test/abc',
      domain: 's.test',
      code: 'abc',
      url: 'https://example.com/a',
      title: 'Welcome',
      tags: ['games', 'tech'],
      createdAt: Date.parse('2016-08-21T18:34:16Z'),
      expiresAt: Date.parse('2030-01-01T00:00:00Z'),
      startsAt: Date.parse('2015-12-31T22:00:00Z'),
      maxClicks: 100,
      crawlable: true,
      forwardQuery: false,
      rules: [
        { when: { os: ['android'], language: ['en-US'] }, url: 'https://example.com/android-en' },
        { when: { language: ['fr'] }, url: 'https://example.com/fr' },
        { when: { query: { foo: 'bar', hello: 'world' } }, url: 'https://example.com/q' },
        { when: { device: ['mobile', 'tablet'] }, url: 'https://example.com/phone' },
        { when: { country: ['DE'], after: '2025-01-01T00:00:00+00:00' }, url: 'https://example.com/de-soon' },
      ],
    });
    expect(plain(steps[1]!.row)).toMatchObject({
      originalShortUrl: 'https://go.example/promo/2024',
      domain: 'go.example',
      code: 'promo/2024',
      title: null,
      tags: [],
      expiresAt: null,
      maxClicks: null,
    });
    expect(steps.slice(2).map((step) => step.row.code)).toEqual(MORE.map((item) => item.shortCode).reverse());
    // rules are asked for only where Shlink says there are some
    const ruleRequests = shlink.requests.filter((request) => request.path.endsWith('/redirect-rules'));
    expect(ruleRequests.map((request) => request.path)).toEqual(['/rest/v3/short-urls/abc/redirect-rules']);
  });

  it("reads a short URL's visits when asked, without an address, page by page, with its domain", async () => {
    const [first, second] = await collect(source());
    expect(await visitsOf(first!.row)).toEqual([
      {
        at: Date.parse('2015-08-20T01:05:03Z'),
        referrer: 'https://t.co',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0',
        country: 'US',
      },
      { at: Date.parse('2015-08-21T00:00:00Z'), referrer: null, userAgent: null, country: null },
      {
        at: Date.parse('2015-08-22T10:00:00Z'),
        referrer: 'https://t.co',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0',
        country: null,
      },
    ]);
    const visits = await visitsOf(second!.row);
    expect(visits).toHaveLength(1001);
    expect(visits[1000]?.at).toBe(Date.UTC(2024, 0, 1) + 1000 * 60_000);
    const visitRequests = shlink.requests.filter(
      (request) => request.path === '/rest/v3/short-urls/promo/2024/visits',
    );
    expect(visitRequests.map((request) => [request.query.get('page'), request.query.get('domain')])).toEqual([
      ['1', 'go.example'],
      ['2', 'go.example'],
      ['3', 'go.example'],
    ]);
  });

  it('resumes after a row with exactly the rows after it, across pages', async () => {
    const all = await collect(source());
    await expectResumesAfterEachStep(source(), all, [0, 1, 48, 49, 50, 99, 110, 111]);
  });

  it('sends the key in X-Api-Key and names Shlink and the status when it is refused, never the key', async () => {
    const wrong = shlinkSource({ url: shlink.url, apiKey: 'not-the-key-secret', fetch });
    const error = await failure(collect(wrong));
    expect(error.message).toMatch(
      /^Shlink answered 401 Unauthorized to GET \/rest\/v3\/short-urls\?.*: the key or token was refused$/,
    );
    expect(error.message).not.toContain('not-the-key-secret');
    expect(shlink.requests.at(-1)?.headers['x-api-key']).toBe('not-the-key-secret');
    expect((await fetch(`${shlink.url}/rest/v3/short-urls`)).status).toBe(401);
  });

  it('names a wrong URL (404) and an unreachable server', async () => {
    await expect(
      collect(shlinkSource({ url: `${shlink.url}/nothing/`, apiKey: SHLINK_KEY, fetch })),
    ).rejects.toThrow(
      /^Shlink answered 404 Not Found to GET \/nothing\/rest\/v3\/short-urls\?.*: not found: is the URL the right one\?$/,
    );
    await expect(
      collect(shlinkSource({ url: 'http://127.0.0.1:9', apiKey: SHLINK_KEY, fetch })),
    ).rejects.toThrow('Shlink could not be reached at http://127.0.0.1:9');
  });

  it('tells its total from the pagination (totalItems)', async () => {
    const steps = await collect(source());
    expect(new Set(steps.map((step) => JSON.stringify(step.total)))).toEqual(
      new Set([JSON.stringify({ rows: 112, estimated: false })]),
    );
  });
});
