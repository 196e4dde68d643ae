import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, jsonOf, startTestServer } from './harness.js';
import type { Json, TestAccount, TestServer } from './harness.js';

// Behind a trusted proxy each X-Forwarded-For address is its own anonymous client, so one server
// serves every test with a fresh budget.
const ANON_HOUR = 5;
const KEY_HOUR = 4;

let server: TestServer;
let daily: TestServer;
let hana: TestAccount;
let ivan: TestAccount;

beforeAll(async () => {
  [server, daily] = await Promise.all([
    startTestServer({
      TRUST_PROXY: 'true',
      RATE_LIMIT_ANON_HOUR: String(ANON_HOUR),
      RATE_LIMIT_ANON_DAY: '100',
      RATE_LIMIT_KEY_HOUR: String(KEY_HOUR),
    }),
    startTestServer({ RATE_LIMIT_ANON_HOUR: '100', RATE_LIMIT_ANON_DAY: '3' }),
  ]);
  hana = await server.createAccount('hana');
  ivan = await server.createAccount('ivan');
});
afterAll(() => Promise.all([server.close(), daily.close()]));

let clients = 0;
/** A new anonymous client (its own IP behind the proxy). */
const client = () => ({ 'x-forwarded-for': `203.0.113.${++clients}` });

const create = (headers: Record<string, string>, key?: string, target = server) =>
  target.api('/api/v1/links', { json: { url: 'https://example.com/' }, headers, ...(key ? { key } : {}) });
const bulk = (headers: Record<string, string>, count: number, key?: string) =>
  server.api('/api/v1/bulk', {
    json: { urls: Array.from({ length: count }, (_, i) => `https://example.com/${i}`) },
    headers,
    ...(key ? { key } : {}),
  });
const shorten = (headers: Record<string, string>) =>
  server.api('/api/shorten?url=https://example.com/', { headers });

const limitHeaders = (response: Response) => ({
  limit: Number(response.headers.get('ratelimit-limit')),
  remaining: Number(response.headers.get('ratelimit-remaining')),
  reset: Number(response.headers.get('ratelimit-reset')),
});

async function expectRateLimited(response: Response): Promise<void> {
  await expectError(response, 429, 'rate_limited');
  const retryAfter = response.headers.get('retry-after') ?? '';
  expect(retryAfter).toMatch(/^\d+$/); // seconds, not a date
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
}

describe('creation limits', () => {
  it('sends RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset on creation', async () => {
    const me = client();
    const first = await create(me);
    expect(first.status).toBe(201);
    const headers = limitHeaders(first);
    expect(headers).toMatchObject({ limit: ANON_HOUR, remaining: ANON_HOUR - 1 });
    expect(Number.isInteger(headers.reset)).toBe(true);
    expect(headers.reset).toBeGreaterThan(0);
    expect(headers.reset).toBeLessThanOrEqual(3600);
    expect(limitHeaders(await create(me)).remaining).toBe(ANON_HOUR - 2);
  });

  it('refuses creation over the hourly limit with 429 rate_limited and Retry-After in seconds', async () => {
    const me = client();
    for (let i = 0; i < ANON_HOUR; i++) expect((await create(me)).status).toBe(201);
    const refused = await create(me);
    await expectRateLimited(refused);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
    expect(limitHeaders(refused)).toMatchObject({ limit: ANON_HOUR, remaining: 0 });
    // another client is not affected
    expect((await create(client())).status).toBe(201);
  });

  it('sends the headers on bulk, which consumes one unit per URL and is refused whole when larger than what is left', async () => {
    const me = client();
    const three = await bulk(me, 3);
    expect((await jsonOf(three)).results).toHaveLength(3);
    expect(limitHeaders(three)).toMatchObject({ limit: ANON_HOUR, remaining: ANON_HOUR - 3 });

    const tooBig = await bulk(me, 3);
    await expectRateLimited(tooBig);
    const two = await bulk(me, 2);
    expect((await jsonOf(two)).results).toHaveLength(2);
    expect(limitHeaders(two).remaining).toBe(0);
    await expectRateLimited(await bulk(me, 1));
  });

  it('creates nothing from a bulk request refused by the limit', async () => {
    const account = await server.createAccount('bulk-refused');
    expect((await jsonOf(await bulk(client(), 3, account.key))).results).toHaveLength(3);
    await expectRateLimited(await bulk(client(), 2, account.key));
    const list = await jsonOf(await server.api('/api/v1/links', { key: account.key }));
    expect(list.links as Json[]).toHaveLength(3);
  });

  it('sends the headers on /api/shorten and refuses it over the limit with the error object', async () => {
    const me = client();
    const first = await shorten(me);
    expect(first.status).toBe(201);
    expect(limitHeaders(first)).toMatchObject({ limit: ANON_HOUR, remaining: ANON_HOUR - 1 });
    for (let i = 1; i < ANON_HOUR; i++) expect((await shorten(me)).status).toBe(201);
    await expectRateLimited(await shorten(me));
  });

  it('shares one budget between creation, bulk and /api/shorten', async () => {
    const me = client();
    expect((await create(me)).status).toBe(201);
    expect((await shorten(me)).status).toBe(201);
    expect(limitHeaders(await bulk(me, ANON_HOUR - 2)).remaining).toBe(0);
    await expectRateLimited(await create(me));
  });

  it('gives a keyed client its own limit, per account and not per IP', async () => {
    const me = client();
    for (let i = 0; i < ANON_HOUR; i++) await create(me);
    await expectRateLimited(await create(me));

    const keyed = await create(me, hana.key);
    expect(keyed.status).toBe(201);
    expect(limitHeaders(keyed)).toMatchObject({ limit: KEY_HOUR, remaining: KEY_HOUR - 1 });
    for (let i = 1; i < KEY_HOUR; i++) expect((await create(client(), hana.key)).status).toBe(201);
    await expectRateLimited(await create(client(), hana.key));
    // another account has a budget of its own
    expect((await create(me, ivan.key)).status).toBe(201);
  });
});

describe('daily limit', () => {
  it('applies per IP and ignores X-Forwarded-For when no proxy is trusted', async () => {
    for (let i = 1; i <= 3; i++) {
      const response = await create({ 'x-forwarded-for': `198.51.100.${i}` }, undefined, daily);
      expect(response.status).toBe(201);
      expect(limitHeaders(response)).toMatchObject({ limit: 3, remaining: 3 - i });
    }
    const refused = await create({ 'x-forwarded-for': '198.51.100.99' }, undefined, daily);
    await expectRateLimited(refused);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(86_400);
  });
});
