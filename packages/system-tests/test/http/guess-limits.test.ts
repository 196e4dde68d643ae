import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser, sessionCookieOf, strangerTo } from './browser-session.js';
import { createLink, jsonOf, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

// Decisions §14: a limit on guessing a secret counts each guess before the secret is checked, in one
// atomic step, so a hundred guesses sent at once get no more checks than the budget. The attacks below
// are real concurrent requests to the real server (on PostgreSQL + Redis too, vitest.config.ts).

let server: TestServer;
/** Every checked guess costs a scrypt, on purpose: a few dozen take seconds on a busy machine. */
const SLOW = 60_000;

beforeAll(async () => {
  server = await startTestServer({
    PUBLIC_BASE_URL: 'https://sho.example',
    TRUST_PROXY: 'true',
    SIGNUP: 'open',
    RATE_LIMIT_ANON_HOUR: '5',
  });
});

afterAll(async () => {
  await server.close();
});

/** How many answers had each status. */
const tally = (statuses: readonly number[]) =>
  statuses.reduce<Record<number, number>>((counts, s) => ({ ...counts, [s]: (counts[s] ?? 0) + 1 }), {});

describe('guesses at once against the guess limits (decisions §14)', () => {
  it(
    'checks at most 10 of 100 concurrent wrong sign-ins for one account; the right password then waits',
    async () => {
      const attacker = await strangerTo(server, 'Rita', 'rita password');
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          attacker.post(
            '/login',
            { name: i % 2 ? 'rita' : 'RITA', password: `guess ${i}` },
            {
              'x-forwarded-for': `198.51.100.${i}`,
            },
          ),
        ),
      );
      const counts = tally(answers.map((a) => a.status));
      console.info(`100 concurrent wrong sign-ins: ${JSON.stringify(counts)} (401 checked, 429 refused)`);
      expect(counts[401]).toBe(10);
      expect(counts[429]).toBe(90);
      expect(answers.every((a) => a.headers.getSetCookie().length === 0)).toBe(true);
      const right = await browserOf(server).post('/login', { name: 'rita', password: 'rita password' });
      expect(right.status).toBe(429);
      expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    },
    SLOW,
  );

  it(
    'never signs in from 200 concurrent guesses of one address when the right one is sent last',
    async () => {
      const attacker = await strangerTo(server, 'sven', 'sven password');
      const guesses = Array.from({ length: 200 }, (_, i) => (i === 199 ? 'sven password' : `guess ${i}`));
      const answers = await Promise.all(
        guesses.map((password, i) =>
          attacker.post(
            '/login',
            { name: i % 3 ? 'sven' : 'other', password },
            {
              'x-forwarded-for': '203.0.113.50',
            },
          ),
        ),
      );
      const counts = tally(answers.map((a) => a.status));
      console.info(`200 concurrent guesses from one address: ${JSON.stringify(counts)}`);
      // 30 per address in 15 minutes: no more are checked, whatever the names
      expect((counts[401] ?? 0) + (counts[303] ?? 0)).toBeLessThanOrEqual(30);
      expect(counts[429]).toBeGreaterThanOrEqual(170);
    },
    SLOW,
  );

  it(
    'checks at most 10 of 60 concurrent guesses at a link password',
    async () => {
      const link = await createLink(server, { url: 'https://hidden.example/vault', password: 'open-sesame' });
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          server.visit(String(link.short_url), {
            method: 'POST',
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              'x-forwarded-for': '192.0.2.77',
            },
            body: new URLSearchParams({ password: i === 59 ? 'open-sesame' : `guess ${i}` }).toString(),
          }),
        ),
      );
      const counts = tally(answers.map((a) => a.status));
      console.info(`60 concurrent link-password guesses: ${JSON.stringify(counts)}`);
      expect((counts[401] ?? 0) + (counts[302] ?? 0)).toBe(10);
      expect(counts[429]).toBe(50);
      for (const answer of answers.filter((a) => a.status !== 302)) {
        expect(await answer.text()).not.toContain('hidden.example/vault');
      }
    },
    SLOW,
  );

  it(
    'limits guesses of the current password on a change, however many at once',
    async () => {
      const owner = await invitedBrowser(server, 'tess', 'tess password');
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          owner.post('/account/settings/password', {
            current_password: `guess ${i}`,
            password: 'a new password',
          }),
        ),
      );
      const counts = tally(answers.map((a) => a.status));
      console.info(`30 concurrent current-password guesses: ${JSON.stringify(counts)}`);
      expect(counts[400]).toBe(10);
      expect(counts[429]).toBe(20);
      const right = await owner.post('/account/settings/password', {
        current_password: 'tess password',
        password: 'a new password',
      });
      expect(right.status).toBe(429);
      await browserOf(server).signIn('tess', 'tess password');
    },
    SLOW,
  );

  it(
    'gives back the tries of right passwords: the owner signing in often is never refused',
    async () => {
      await invitedBrowser(server, 'uma', 'uma password');
      for (let i = 0; i < 12; i++) await browserOf(server).signIn('uma', 'uma password');
    },
    SLOW,
  );

  it(
    'makes 3 of 40 concurrent open sign-ups from one address, and holds a new account to the anonymous limit',
    async () => {
      const client = { 'x-forwarded-for': '2001:db8:77::1' };
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          browserOf(server).post('/account/signup', { name: `bot${i}`, password: 'a good password' }, client),
        ),
      );
      const counts = tally(answers.map((a) => a.status));
      console.info(`40 concurrent sign-ups from one /64: ${JSON.stringify(counts)}`);
      expect(counts).toEqual({ 303: 3, 429: 37 });
      const made = answers.find((a) => a.status === 303);
      const newcomer = browserOf(server);
      newcomer.cookie = sessionCookieOf(made as Response);
      const key = await newcomer.send('/api/v1/keys', { json: { name: 'script' } });
      expect(key.status).toBe(201);
      const { key: secret } = (await key.json()) as { key: string };
      const creations = [];
      for (let i = 0; i < 6; i++) {
        creations.push(
          await server.api('/api/v1/links', {
            json: { url: `https://example.com/young/${i}` },
            headers: { authorization: `Bearer ${secret}`, 'x-forwarded-for': `198.18.0.${i}` },
          }),
        );
      }
      expect(creations.map((c) => c.status)).toEqual([201, 201, 201, 201, 201, 429]);
    },
    SLOW,
  );

  it(
    'checks at most 30 of 60 concurrent wrong edit tokens from one address, by header or by form',
    async () => {
      const link = await createLink(server, { url: 'https://example.com/tokened' });
      const from = (address: string) => ({ 'x-forwarded-for': address });
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          i % 2
            ? server.api(`/api/v1/links/${String(link.id)}`, {
                method: 'PATCH',
                json: { title: 'taken over' },
                headers: { ...from('203.0.113.90'), 'x-edit-token': `et_wrong${i}` },
              })
            : browserOf(server).post(
                `/account/links/${String(link.id)}`,
                { edit_token: `et_wrong${i}` },
                from('203.0.113.90'),
              ),
        ),
      );
      const counts = tally(answers.map((a) => a.status));
      console.info(`60 concurrent wrong edit tokens: ${JSON.stringify(counts)}`);
      expect(counts).toEqual({ 403: 30, 429: 30 });
      const token = String(link.edit_token);
      const refused = await server.api(`/api/v1/links/${String(link.id)}`, {
        headers: { ...from('203.0.113.90'), 'x-edit-token': token },
      });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      for (let i = 0; i < 40; i++) {
        const right = await server.api(`/api/v1/links/${String(link.id)}`, {
          headers: { ...from('203.0.113.91'), 'x-edit-token': token },
        });
        expect(right.status).toBe(200);
      }
    },
    SLOW,
  );

  it('lets a client read 60 of its links at once by their edit tokens', async () => {
    const links = [];
    for (let i = 0; i < 60; i++) {
      links.push(
        await jsonOf(
          await server.api('/api/v1/links', {
            json: { url: `https://example.com/mine/${i}` },
            headers: { 'x-forwarded-for': `198.18.1.${i}` },
          }),
          201,
        ),
      );
    }
    const reads = await Promise.all(
      links.map((link) =>
        server.api(`/api/v1/links/${String(link.id)}`, {
          headers: { 'x-forwarded-for': '198.18.2.1', 'x-edit-token': String(link.edit_token) },
        }),
      ),
    );
    expect(tally(reads.map((r) => r.status))).toEqual({ 200: 60 });
  });

  it('checks at most 30 of 40 concurrent unknown invite tokens from one address', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        browserOf(server).send(`/account/invite/inv_${String(i).padStart(32, 'x')}`, {
          headers: { 'x-forwarded-for': '203.0.113.95' },
        }),
      ),
    );
    const counts = tally(answers.map((a) => a.status));
    console.info(`40 concurrent unknown invite tokens: ${JSON.stringify(counts)}`);
    expect(counts).toEqual({ 404: 30, 429: 10 });
  });
});
