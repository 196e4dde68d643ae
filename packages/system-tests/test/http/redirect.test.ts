import { openSqliteDatabase } from '@shortener/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BOT_UAS,
  BROWSER_UA,
  createLink,
  errorOf,
  eventually,
  expectError,
  jsonOf,
  startTestServer,
  uniqueAlias,
} from './harness.js';
import type { Json, TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_ANON_HOUR: '10000', RATE_LIMIT_ANON_DAY: '10000' });
});
afterAll(() => server.close());

const detail = async (link: Json) =>
  jsonOf(await server.api(`/api/v1/links/${link.id}`, { token: link.edit_token }));
const stats = async (link: Json) => jsonOf(await server.api(`/api/v1/links/${link.id}/stats`));
const withSlug = (link: Json, suffix = '') => `${link.short_url}${suffix}`;
const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** 50 visitors (User-Agents told apart by `tag`) follow the link at once: how many got each status. */
async function statusesOfFifty(link: Json, tag: string): Promise<Record<number, number>> {
  const responses = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      server.visit(link.short_url, { headers: { 'user-agent': `${BROWSER_UA} ${tag}/${i}` } }),
    ),
  );
  const counts: Record<number, number> = {};
  for (const { status } of responses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

/**
 * A change made by another process (the CLI) is served at once on SQLite, whose data version every
 * look-up reads; on PostgreSQL within a second (decisions §11), since its notification may arrive just
 * after the command exits.
 */
const servedAfterChange = (check: () => Promise<void>) =>
  process.env.SHORTENER_HTTP_STORE === 'postgres' ? eventually(check, 1000) : check();

describe('GET /{slug}', () => {
  it('redirects with 302, Location, Cache-Control private max-age=0 and no cookie', async () => {
    const link = await createLink(server, { url: 'https://example.com/target?x=1' });
    const response = await server.visit(link.short_url, { headers: { 'user-agent': BROWSER_UA } });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.com/target?x=1');
    expect(response.headers.get('cache-control')).toBe('private, max-age=0');
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('resolves the slug in the short domain whose host is the Host header, else in the default one', async () => {
    const alias = uniqueAlias('host');
    const onA = await createLink(server, { url: 'https://a.example/', alias });
    const onB = await createLink(server, { url: 'https://b.example/', alias, domain: server.hostB });
    expect(onA.short_url).toBe(`http://${server.hostA}/${alias}`);
    expect(onB.short_url).toBe(`http://${server.hostB}/${alias}`);

    const location = async (url: string) => (await server.visit(url)).headers.get('location');
    expect(await location(`http://${server.hostA}/${alias}`)).toBe('https://a.example/');
    expect(await location(`http://${server.hostB}/${alias}`)).toBe('https://b.example/');
    expect(await location(`http://unknown.example/${alias}`)).toBe('https://a.example/');
    // fetch to http://127.0.0.1:PORT sends that Host, which is <domain_b> by default
    expect((await server.api(`/${alias}`)).headers.get('location')).toBe('https://b.example/');
  });

  it('does not find a link of one short domain under the other', async () => {
    const link = await createLink(server, { url: 'https://example.com/', alias: uniqueAlias('only-a') });
    expect((await server.visit(`http://${server.hostB}/${link.slug}`)).status).toBe(404);
  });

  it('matches the slug case-insensitively', async () => {
    const link = await createLink(server, { url: 'https://example.com/case', alias: uniqueAlias('mixed') });
    const response = await server.visit(`http://${server.hostA}/${link.slug.toUpperCase()}`);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://example.com/case');
  });

  it('answers HEAD with the redirect and counts nothing', async () => {
    const link = await createLink(server, { url: 'https://example.com/head', max_clicks: 1 });
    for (let i = 0; i < 3; i++) {
      const response = await server.visit(link.short_url, { method: 'HEAD' });
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toBe('https://example.com/head');
    }
    expect((await server.visit(link.short_url)).status).toBe(302);
    expect((await server.visit(link.short_url)).status).toBe(410);
    expect((await detail(link)).clicks).toBe(1);
  });

  it('redirects known bots without counting a click or consuming max_clicks', async () => {
    const link = await createLink(server, { url: 'https://example.com/bots', max_clicks: 1 });
    for (const ua of [...BOT_UAS, ...BOT_UAS]) {
      const response = await server.visit(link.short_url, { headers: { 'user-agent': ua } });
      expect(response.status).toBe(302);
    }
    expect((await detail(link)).status).toBe('active');
    expect((await server.visit(link.short_url, { headers: { 'user-agent': BROWSER_UA } })).status).toBe(302);
    expect((await server.visit(link.short_url, { headers: { 'user-agent': BOT_UAS[0]! } })).status).toBe(410);
    await eventually(async () => {
      expect(await stats(link)).toMatchObject({ total: 1, bots: 4 });
      expect((await detail(link)).clicks).toBe(1);
    });
  });

  it('counts generic HTTP clients such as curl and node fetch as visitors', async () => {
    const link = await createLink(server, { url: 'https://example.com/tools', max_clicks: 2 });
    expect((await server.visit(link.short_url, { headers: { 'user-agent': 'curl/8.5.0' } })).status).toBe(
      302,
    );
    expect((await server.visit(link.short_url, { headers: { 'user-agent': 'node' } })).status).toBe(302);
    expect((await server.visit(link.short_url, { headers: { 'user-agent': 'curl/8.5.0' } })).status).toBe(
      410,
    );
  });

  it('answers an unknown slug with a 404 HTML page', async () => {
    const response = await server.visit(`http://${server.hostA}/no-such-link-here`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toMatch(/<html/i);
    expect((await server.visit(`http://${server.hostA}/no-such-link-here`, { method: 'HEAD' })).status).toBe(
      404,
    );
  });

  it('answers an expired link with a 410 HTML page that does not reveal the destination', async () => {
    const link = await createLink(server, {
      url: 'https://secret-destination.example/x',
      expires_in_days: 1,
    });
    const patched = await server.api(`/api/v1/links/${link.id}`, {
      method: 'PATCH',
      json: { expires_at: new Date(Date.now() - 1000).toISOString() },
      token: link.edit_token,
    });
    expect((await jsonOf(patched)).status).toBe('expired');
    const response = await server.visit(link.short_url);
    expect(response.status).toBe(410);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).not.toContain('secret-destination');
  });

  it('answers a link disabled by the operator with 410 until it is enabled again', async () => {
    const link = await createLink(server, { url: 'https://example.com/disabled' });
    const disabled = await server.cli('links', 'disable', link.id);
    expect(disabled.status).toBe('disabled');
    const response = await server.visit(link.short_url);
    expect(response.status).toBe(410);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect((await detail(link)).status).toBe('disabled');
    // the owner cannot lift it
    const lift = { expires_at: null, max_clicks: null };
    const patched = await server.api(`/api/v1/links/${link.id}`, {
      method: 'PATCH',
      json: lift,
      token: link.edit_token,
    });
    expect((await jsonOf(patched)).status).toBe('disabled');
    expect((await server.visit(link.short_url)).status).toBe(410);

    await server.cli('links', 'enable', link.short_url);
    await servedAfterChange(async () => expect((await server.visit(link.short_url)).status).toBe(302));
  });

  it('answers a link that reached its click limit with 410', async () => {
    const link = await createLink(server, { url: 'https://example.com/limit', max_clicks: 2 });
    expect((await server.visit(link.short_url)).status).toBe(302);
    expect((await server.visit(link.short_url)).status).toBe(302);
    const response = await server.visit(link.short_url);
    expect(response.status).toBe(410);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await detail(link)).toMatchObject({ status: 'expired', clicks: 2 });
  });

  it('answers 410 at once when a click limit is set at or below the clicks a link already has', async () => {
    const link = await createLink(server, { url: 'https://example.com/capped-later' });
    for (let i = 0; i < 3; i++) {
      const visit = await server.visit(link.short_url, { headers: { 'user-agent': BROWSER_UA } });
      expect(visit.status).toBe(302);
    }
    expect((await detail(link)).clicks).toBe(3); // written, perhaps still in the visit log (not folded)
    const capped = await server.api(`/api/v1/links/${link.id}`, {
      method: 'PATCH',
      json: { max_clicks: 3 },
      token: link.edit_token,
    });
    expect(await jsonOf(capped)).toMatchObject({ status: 'expired', clicks: 3, max_clicks: 3 });
    expect((await server.visit(link.short_url, { headers: { 'user-agent': BROWSER_UA } })).status).toBe(410);
  });

  it('gives a client that prefers JSON the error object instead of the 404 and 410 pages', async () => {
    const accept = { accept: 'application/json' };
    const missing = await server.visit(`http://${server.hostA}/missing-json`, { headers: accept });
    await expectError(missing, 404, 'not_found');

    const link = await createLink(server, { url: 'https://example.com/gone', max_clicks: 1 });
    await server.visit(link.short_url);
    const gone = await server.visit(link.short_url, { headers: accept });
    expect(gone.status).toBe(410);
    await errorOf(gone);
  });

  it.each([
    ['prefers JSON by q-value', 'application/json, text/html;q=0.5', 'json'],
    ['prefers HTML by q-value', 'text/html, application/json;q=0.9', 'html'],
    ['is a browser', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'html'],
    ['accepts anything', '*/*', 'html'],
  ])('gives a client that %s (Accept: %s) the %s answer for an unknown slug', async (_name, accept, kind) => {
    const response = await server.visit(`http://${server.hostA}/missing-negotiated`, { headers: { accept } });
    expect(response.status).toBe(404);
    if (kind === 'json') await expectError(response, 404, 'not_found');
    else expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('redirects exactly max_clicks of 50 concurrent visitors', async () => {
    const link = await createLink(server, { url: 'https://example.com/race', max_clicks: 5 });
    expect(await statusesOfFifty(link, 'visitor')).toEqual({ 302: 5, 410: 45 });
    expect(await detail(link)).toMatchObject({ clicks: 5, status: 'expired' });
    await eventually(async () => expect((await stats(link)).total).toBe(5));
  });

  it('redirects exactly the clicks left to 50 concurrent visitors when a cap comes after clicks were folded', async () => {
    const link = await createLink(server, { url: 'https://example.com/race-folded' });
    for (let i = 0; i < 3; i++)
      expect((await server.visit(link.short_url, { headers: { 'user-agent': BROWSER_UA } })).status).toBe(
        302,
      );
    // on SQLite, wait until the compactor folded them apart from the link's row (link_clicks, migration 33)
    if (process.env.SHORTENER_HTTP_STORE !== 'postgres') {
      const db = openSqliteDatabase(server.dbPath);
      try {
        const folded = db
          .prepare<[string], number>('SELECT clicks FROM link_clicks WHERE link_id = ?')
          .pluck();
        await eventually(async () => expect(folded.get(String(link.id))).toBe(3), 20_000);
      } finally {
        db.close();
      }
    }
    const capped = await server.api(`/api/v1/links/${link.id}`, {
      method: 'PATCH',
      json: { max_clicks: 8 },
      token: link.edit_token,
    });
    expect(await jsonOf(capped)).toMatchObject({ status: 'active', clicks: 3, max_clicks: 8 });
    expect(await statusesOfFifty(link, 'folded')).toEqual({ 302: 5, 410: 45 });
    expect(await detail(link)).toMatchObject({ clicks: 8, status: 'expired' });
    await eventually(async () => expect((await stats(link)).total).toBe(8));
  }, 40_000);
});

describe('GET /{slug} from the hot-link cache', () => {
  const location = async (url: string) => {
    const response = await server.visit(url);
    return { status: response.status, location: response.headers.get('location') };
  };

  it('follows a PATCH of a link visited just before at once', async () => {
    const link = await createLink(server, { url: 'https://example.com/before' });
    expect(await location(link.short_url)).toEqual({ status: 302, location: 'https://example.com/before' });
    const patch = { url: 'https://example.com/after' };
    await jsonOf(
      await server.api(`/api/v1/links/${link.id}`, { method: 'PATCH', json: patch, token: link.edit_token }),
    );
    expect(await location(link.short_url)).toEqual({ status: 302, location: 'https://example.com/after' });
  });

  it('answers 404 right after a DELETE of a link visited just before', async () => {
    const link = await createLink(server, { url: 'https://example.com/deleted' });
    expect((await server.visit(link.short_url)).status).toBe(302);
    const deleted = await server.api(`/api/v1/links/${link.id}`, {
      method: 'DELETE',
      token: link.edit_token,
    });
    expect(deleted.status).toBe(204);
    expect((await server.visit(link.short_url)).status).toBe(404);
  });

  it('answers 410 right after another process disables a link visited just before', async () => {
    const link = await createLink(server, { url: 'https://example.com/operator' });
    expect((await server.visit(link.short_url)).status).toBe(302);
    await server.cli('links', 'disable', link.id);
    await servedAfterChange(async () => expect((await server.visit(link.short_url)).status).toBe(410));
    await server.cli('links', 'enable', link.id);
    await servedAfterChange(async () => expect((await server.visit(link.short_url)).status).toBe(302));
  });

  it('answers 410 as soon as a link visited moments before expires', async () => {
    const expiresAt = Date.now() + 1000;
    const link = await createLink(server, {
      url: 'https://example.com/soon',
      expires_at: new Date(expiresAt).toISOString(),
    });
    expect((await server.visit(link.short_url)).status).toBe(302);
    await new Promise((resolve) => setTimeout(resolve, expiresAt - Date.now() + 20));
    expect((await server.visit(link.short_url)).status).toBe(410);
  });

  it('finds an alias created right after a request for it missed', async () => {
    const alias = uniqueAlias('late');
    expect((await server.visit(`http://${server.hostA}/${alias}`)).status).toBe(404);
    const link = await createLink(server, { url: 'https://example.com/late', alias });
    expect((await server.visit(link.short_url)).status).toBe(302);
  });
});

describe('password-protected links', () => {
  const post = (link: Json, password: string) =>
    server.visit(link.short_url, {
      method: 'POST',
      body: new URLSearchParams({ password }).toString(),
      headers: form,
    });

  it('answers GET with a 200 HTML password form that does not contain the destination', async () => {
    const link = await createLink(server, { url: 'https://hidden.example/path', password: 'open-sesame' });
    const response = await server.visit(link.short_url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('location')).toBeNull();
    const page = await response.text();
    expect(page).toMatch(/<form[^>]*method="post"/i);
    expect(page).toMatch(/name="password"/);
    expect(page).not.toContain('hidden.example');
    expect((await detail(link)).clicks).toBe(0);
  });

  it('redirects after the right password and counts the click', async () => {
    const link = await createLink(server, { url: 'https://hidden.example/ok', password: 'open-sesame' });
    const response = await post(link, 'open-sesame');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('https://hidden.example/ok');
    await eventually(async () => expect((await detail(link)).clicks).toBe(1));
  });

  it('answers a wrong password with 401 and the form again, without the destination', async () => {
    const link = await createLink(server, { url: 'https://hidden.example/no', password: 'open-sesame' });
    const response = await post(link, 'wrong-guess');
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toMatch(/name="password"/);
    expect(page).not.toContain('hidden.example');
  });

  it('answers an empty form post, with or without a content type, as a missing password (401 form)', async () => {
    const link = await createLink(server, { url: 'https://hidden.example/empty', password: 'open-sesame' });
    for (const headers of [form, {}]) {
      const response = await server.visit(link.short_url, { method: 'POST', body: '', headers });
      expect(response.status).toBe(401);
      expect(await response.text()).toMatch(/name="password"/);
    }
  });

  it('answers 429 with Retry-After after 10 wrong tries, even to the right password', async () => {
    const link = await createLink(server, { url: 'https://hidden.example/brute', password: 'open-sesame' });
    for (let i = 0; i < 10; i++) expect((await post(link, `guess-${i}`)).status).toBe(401);
    const blocked = await post(link, 'open-sesame');
    await expectError(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/);

    // the throttle is per link: another protected link still opens
    const other = await createLink(server, { url: 'https://hidden.example/other', password: 'open-sesame' });
    expect((await post(other, 'open-sesame')).status).toBe(302);
  });
});

describe('GET /{slug}.json', () => {
  it('answers short_url, url, status, created_at and clicks', async () => {
    const link = await createLink(server, { url: 'https://example.com/json' });
    const response = await server.visit(withSlug(link, '.json'));
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await jsonOf(response)).toEqual({
      short_url: link.short_url,
      url: 'https://example.com/json',
      status: 'active',
      created_at: link.created_at,
      clicks: 0,
    });
  });

  it('omits url for a password-protected link and clicks when the statistics are private', async () => {
    const locked = await createLink(server, { url: 'https://example.com/locked', password: 'open-sesame' });
    const lockedView = await jsonOf(await server.visit(withSlug(locked, '.json')));
    expect(lockedView).not.toHaveProperty('url');
    expect(lockedView).toMatchObject({ short_url: locked.short_url, status: 'active', clicks: 0 });

    const quiet = await createLink(server, { url: 'https://example.com/quiet', public_stats: false });
    const quietView = await jsonOf(await server.visit(withSlug(quiet, '.json')));
    expect(quietView).not.toHaveProperty('clicks');
    expect(quietView).toMatchObject({ url: 'https://example.com/quiet', status: 'active' });
  });

  it('resolves in the short domain of the Host header and answers 404 for an unknown slug', async () => {
    const link = await createLink(server, { url: 'https://example.com/on-b', domain: server.hostB });
    expect((await jsonOf(await server.visit(withSlug(link, '.json')))).url).toBe('https://example.com/on-b');
    await expectError(await server.visit(`http://${server.hostA}/${link.slug}.json`), 404, 'not_found');
  });

  it('never counts as a click, nor do the stats', async () => {
    const link = await createLink(server, { url: 'https://example.com/peek', max_clicks: 1 });
    for (let i = 0; i < 3; i++) {
      await jsonOf(await server.visit(withSlug(link, '.json')));
      await jsonOf(await server.api(`/api/v1/links/${link.id}/stats`));
    }
    expect((await server.visit(link.short_url)).status).toBe(302);
    const used = await jsonOf(await server.visit(withSlug(link, '.json')));
    expect(used).toMatchObject({ status: 'expired', clicks: 1 });
  });
});
