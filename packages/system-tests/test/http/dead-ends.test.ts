import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@shortener/app';
import { createLink, eventually, jsonOf } from './harness.js';
import { movedClock, startFileServer } from './file-server.js';
import { expectRefusedEach } from './refusals.js';

// Decisions §18 "Where a dead end goes": a link's `expired_url` once it is expired or at its click cap
// (a 302 that is no click, never cached), and the server's NOT_FOUND_REDIRECT and BASE_URL_REDIRECT.

const clock = movedClock();
const ELSEWHERE = 'https://example.com/campaign-over?from=short';
const server = await startFileServer(
  { NOT_FOUND_REDIRECT: 'https://example.com/not-here', BASE_URL_REDIRECT: 'https://example.com/welcome' },
  { clock },
);
const alice = await server.createAccount('alice');

const follow = (shortUrl: string) =>
  server.visit(shortUrl, { headers: { 'user-agent': 'Mozilla/5.0 Firefox/140.0' } });

describe('expired_url (decisions §18)', () => {
  it('sends the visitors of a used-up link there, uncached and uncounted', async () => {
    const link = await createLink(
      server,
      { url: 'https://example.com/sale', max_clicks: 1, expired_url: ELSEWHERE },
      { key: alice.key },
    );
    expect(link.expired_url).toBe(ELSEWHERE);
    const first = await follow(link.short_url);
    expect(first.headers.get('location')).toBe('https://example.com/sale');
    const after = await follow(link.short_url);
    expect(after.status).toBe(302);
    expect(after.headers.get('location')).toBe(ELSEWHERE);
    expect(after.headers.get('cache-control')).toBe('no-store');
    await eventually(async () => {
      const stats = await jsonOf(await server.api(`/api/v1/links/${link.id}/stats`, { key: alice.key }));
      expect(stats.total).toBe(1);
    });
    const read = await jsonOf(await server.api(`/api/v1/links/${link.id}`, { key: alice.key }));
    expect(read).toMatchObject({ clicks: 1, status: 'expired', expired_url: ELSEWHERE });
  });

  it('sends the visitors of an expired link there, but never those of a disabled one', async () => {
    const link = await createLink(server, {
      url: 'https://example.com/soon',
      expires_in_days: 0.01,
      expired_url: ELSEWHERE,
    });
    clock.offset = 3_600_000;
    try {
      expect((await follow(link.short_url)).headers.get('location')).toBe(ELSEWHERE);
    } finally {
      clock.offset = 0;
    }
    const other = await createLink(
      server,
      { url: 'https://example.com/off', expired_url: ELSEWHERE },
      { key: alice.key },
    );
    await server.cli('links', 'disable', other.short_url);
    expect((await follow(other.short_url)).status).toBe(410);
  });

  it('checks the URL as any destination, and an update with null removes it', async () => {
    await expectRefusedEach(server, 'expired_url', (expired_url) => ({ expired_url }), [
      ['javascript:alert(1)', 'unsupported_scheme'],
      ['http://127.0.0.1/admin', 'private_host'],
      ['https://exa mple.com/', 'invalid_url'],
    ]);
    const link = await createLink(
      server,
      { url: 'https://example.com/p', expired_url: ELSEWHERE },
      { key: alice.key },
    );
    const patched = await server.api(`/api/v1/links/${link.id}`, {
      method: 'PATCH',
      key: alice.key,
      json: { expired_url: null },
    });
    expect((await jsonOf(patched)).expired_url).toBeNull();
  });
});

describe('NOT_FOUND_REDIRECT and BASE_URL_REDIRECT (decisions §18)', () => {
  it('sends visits of unknown slugs and of a bare short domain there', async () => {
    const missing = await server.visit(`http://${server.hostA}/nothing-here`);
    expect(missing.status).toBe(302);
    expect(missing.headers.get('location')).toBe('https://example.com/not-here');
    expect(missing.headers.get('cache-control')).toBe('no-store');
    const bare = await server.visit(`http://${server.hostB}/`);
    expect(bare.status).toBe(302);
    expect(bare.headers.get('location')).toBe('https://example.com/welcome');
    // {base_url}'s own host keeps its home page
    expect((await server.visit(`http://${server.hostA}/`)).status).toBe(200);
  });

  it('refuses to start with a URL that is not one, naming the variable', () => {
    for (const name of ['NOT_FOUND_REDIRECT', 'BASE_URL_REDIRECT']) {
      for (const value of ['ftp://example.com/', 'not a url', 'https://user:pw@example.com/']) {
        let error: unknown;
        try {
          loadConfig({ [name]: value });
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(ConfigError);
        expect(String((error as Error).message)).toContain(name);
      }
    }
  });
});

describe('expired_url under load (decisions §18)', () => {
  it('counts exactly the cap of 50 visitors at once, and sends the rest to the fallback, none a 410', async () => {
    const link = await createLink(server, {
      url: 'https://example.com/drop',
      max_clicks: 10,
      expired_url: ELSEWHERE,
    });
    const answers = await Promise.all(Array.from({ length: 50 }, () => follow(link.short_url)));
    const to = answers.map((answer) => `${answer.status} ${answer.headers.get('location')}`);
    expect(to.filter((t) => t === '302 https://example.com/drop')).toHaveLength(10);
    expect(to.filter((t) => t === `302 ${ELSEWHERE}`)).toHaveLength(40);
    await eventually(async () => {
      const stats = await jsonOf(await server.api(`/api/v1/links/${link.id}/stats`));
      expect(stats.total).toBe(10);
    });
  });
});
