import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, sessionCookieOf, strangerTo } from './browser-session.js';
import { startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

// Its own server: every request of the suite comes from the same loopback address, whose failures count.
let server: TestServer;
/** Each failed sign-in costs a scrypt, on purpose: tens of them take seconds on a busy machine. */
const SLOW = 30_000;

beforeAll(async () => {
  server = await startTestServer({ SIGNUP: 'open', PUBLIC_BASE_URL: 'https://sho.example' });
});

afterAll(async () => {
  await server.close();
});

describe('sign-in limits and open sign-up (decisions §10)', () => {
  it('lets anyone sign up when SIGNUP is open, with the __Host- cookie over https', async () => {
    const browser = browserOf(server);
    expect((await browser.send('/account/signup')).status).toBe(200);
    expect(
      (await browser.post('/account/signup', { name: 'has space', password: 'long enough' })).status,
    ).toBe(400);
    const made = await browser.post('/account/signup', { name: 'olive', password: 'olive password' });
    expect(made.status).toBe(303);
    expect(made.headers.getSetCookie()[0]).toMatch(
      /^__Host-shortener_session=ses_[0-9A-Za-z]{32}; Path=\/; Max-Age=7776000; HttpOnly; SameSite=Lax; Secure$/,
    );
    browser.cookie = sessionCookieOf(made);
    expect(await (await browser.send('/account')).text()).toContain('olive');
  });

  it(
    'refuses an account after 10 failures in 15 minutes, right password included, with Retry-After',
    async () => {
      const browser = await strangerTo(server, 'pablo', 'pablo password');
      for (let i = 0; i < 10; i++) {
        expect((await browser.post('/login', { name: 'pablo', password: `guess ${i}` })).status).toBe(401);
      }
      const refused = await browser.post('/login', { name: 'pablo', password: 'pablo password' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
      expect(refused.headers.getSetCookie()).toEqual([]);
    },
    SLOW,
  );

  it(
    'refuses an address after 30 failures in 15 minutes, whatever the names',
    async () => {
      const browser = await strangerTo(server, 'quentin', 'quentin password');
      // the ten failures of the test above count (its refusal does not): twenty more reach thirty
      for (let i = 0; i < 20; i++) {
        expect((await browser.post('/login', { name: `nobody${i}`, password: 'guess' })).status).toBe(401);
      }
      const refused = await browser.post('/login', { name: 'nobody-else', password: 'guess' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
      expect((await browser.post('/login', { name: 'quentin', password: 'quentin password' })).status).toBe(
        429,
      );
    },
    SLOW,
  );

  // last: it spends the loopback address's budget of passkey sign-in challenges
  it('stores at most 20 passkey sign-in challenges a minute per address, 100 asked at once', async () => {
    const browser = browserOf(server);
    const answers = await Promise.all(
      Array.from({ length: 100 }, () => browser.post('/login/passkey/options', {})),
    );
    const statuses = answers.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toStrictEqual([]);
    const refused = answers.find((response) => response.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
  });
});
