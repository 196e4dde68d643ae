import { describe, expect, it } from 'vitest';
import { invitedBrowser } from './browser-session.js';
import { BROWSER_UA, createLink, eventually, expectError, jsonOf, uniqueAlias } from './harness.js';
import type { Json } from './harness.js';
import { movedClock, startFileServer } from './file-server.js';

// Decisions §25: a link's `starts_at`. Before it the short URL and its public pages answer exactly as an
// unknown slug does; from it on the link redirects. The server's clock is moved instead of waiting.

const clock = movedClock();
const server = await startFileServer({}, { clock });
const alice = await server.createAccount('alice');
const HOUR = 3_600_000;
const human = { 'user-agent': BROWSER_UA };

const inAnHour = () => new Date(clock.now() + HOUR).toISOString();
const at = async <T>(offset: number, run: () => Promise<T>): Promise<T> => {
  clock.offset = offset;
  try {
    return await run();
  } finally {
    clock.offset = 0;
  }
};

/** Status, type and body of a request to a short URL: what an unknown slug is compared on. */
async function answerOf(url: string, headers: Record<string, string> = human): Promise<Json> {
  const response = await server.visit(url, { headers });
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    location: response.headers.get('location'),
    body: await response.text(),
  };
}

describe('a link before its starts_at (decisions §25)', () => {
  it('answers the redirect, the preview, .json and the QR code as an unknown slug, then redirects', async () => {
    const startsAt = inAnHour();
    const link = await createLink(
      server,
      { url: 'https://example.com/launch', alias: uniqueAlias('later'), starts_at: startsAt },
      { key: alice.key },
    );
    expect(link).toMatchObject({ starts_at: startsAt, status: 'active' });
    const unknown = `http://${server.hostA}/${uniqueAlias('nothing')}`;
    for (const suffix of ['', '+', '.json', '.png', '.svg']) {
      const scheduled = await answerOf(`${link.short_url}${suffix}`);
      expect(scheduled, suffix).toEqual(await answerOf(`${unknown}${suffix}`));
      expect(scheduled.status, suffix).toBe(404);
    }
    const json = { accept: 'application/json' };
    expect(await answerOf(link.short_url, json)).toEqual(await answerOf(unknown, json));

    const started = await at(HOUR, () => server.visit(link.short_url, { headers: human }));
    expect([started.status, started.headers.get('location')]).toEqual([302, 'https://example.com/launch']);
    // the requests before the start were no clicks: only the one after it counts
    const read = await jsonOf(await server.api(`/api/v1/links/${link.id}`, { key: alice.key }));
    expect(read).toMatchObject({ starts_at: startsAt, clicks: 1 });
  });

  it('counts a visit before the start as a visit to an unknown slug, never a click', async () => {
    const alias = uniqueAlias('orphan');
    const link = await createLink(server, { url: 'https://example.com/o', alias, starts_at: inAnHour() });
    for (let i = 0; i < 2; i++) await server.visit(link.short_url, { headers: human });
    await invitedBrowser(server, 'the-admin', 'the admin password', '--admin');
    const key = String((await server.cli('keys', 'create', 'the-admin')).key);
    await eventually(async () => {
      const seen = await jsonOf(await server.api('/api/v1/admin/orphan-visits?days=1', { key }));
      expect(seen.slugs).toContainEqual({ key: alias, count: 2 });
    });
    expect((await jsonOf(await server.api(`/api/v1/links/${link.id}/stats`))).total).toBe(0);
  });

  it('is set, moved and removed by PATCH, and the short URL follows at once', async () => {
    const link = await createLink(server, { url: 'https://example.com/now', alias: uniqueAlias('now') });
    const token = String(link.edit_token);
    expect(link.starts_at).toBeNull();
    const patch = (json: Json) => server.api(`/api/v1/links/${link.id}`, { method: 'PATCH', token, json });
    expect((await server.visit(link.short_url, { headers: human })).status).toBe(302);
    const startsAt = inAnHour();
    expect((await jsonOf(await patch({ starts_at: startsAt }))).starts_at).toBe(startsAt);
    expect((await server.visit(link.short_url, { headers: human })).status).toBe(404);
    expect((await jsonOf(await patch({ starts_at: null }))).starts_at).toBeNull();
    expect((await server.visit(link.short_url, { headers: human })).status).toBe(302);
  });

  it('refuses a starts_at at or after expires_at on starts_at, in a creation, a PATCH and a bulk', async () => {
    const refused = await server.api('/api/v1/links', {
      json: {
        url: 'https://example.com/',
        starts_at: '2031-01-01T00:00:00Z',
        expires_at: '2031-01-01T00:00:00Z',
      },
    });
    expect((await expectError(refused, 400, 'invalid_request')).field).toBe('starts_at');
    const badTime = await server.api('/api/v1/links', {
      json: { url: 'https://example.com/', starts_at: 'tomorrow' },
    });
    expect((await expectError(badTime, 400, 'invalid_request')).field).toBe('starts_at');

    const link = await createLink(server, {
      url: 'https://example.com/x',
      starts_at: '2031-01-01T00:00:00Z',
    });
    const patched = await server.api(`/api/v1/links/${link.id}`, {
      method: 'PATCH',
      token: String(link.edit_token),
      json: { expires_at: '2030-06-01T00:00:00Z' },
    });
    expect((await expectError(patched, 400, 'invalid_request')).field).toBe('starts_at');

    const bulk = await jsonOf(
      await server.api('/api/v1/bulk', {
        json: { urls: ['https://example.com/b1'], starts_at: '2031-01-01T00:00:00Z', expires_in_days: 1 },
      }),
    );
    expect(bulk.results[0]).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    const fine = await jsonOf(
      await server.api('/api/v1/bulk', {
        json: { urls: ['https://example.com/b2'], starts_at: '2031-01-01T00:00:00.000Z' },
      }),
    );
    expect(fine.results[0]).toMatchObject({ ok: true, link: { starts_at: '2031-01-01T00:00:00.000Z' } });
  });
});
