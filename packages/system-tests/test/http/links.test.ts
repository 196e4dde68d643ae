import { beforeAll, describe, expect, it } from 'vitest';
import { createLink, expectError, jsonOf, uniqueAlias } from './harness.js';
import type { Json, TestAccount } from './harness.js';
import { createAccounts, startFileServer } from './file-server.js';

const LINK_FIELDS = [
  'id',
  'domain',
  'slug',
  'short_url',
  'url',
  'title',
  'status',
  'clicks',
  'has_password',
  'public_stats',
  'expires_at',
  'starts_at',
  'created_by',
  'updated_by',
  'health',
  'max_clicks',
  'created_at',
  'updated_at',
  'last_click_at',
  'preview_url',
  'qr_svg_url',
  'qr_png_url',
  'stats_url',
  'tags',
  'rules',
  'forward_query',
  'redirect_status',
  'crawlable',
  'expired_url',
  'preview',
  'split',
];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;
const DAY = 86_400_000;

const server = await startFileServer({ RATE_LIMIT_ANON_HOUR: '10000', RATE_LIMIT_ANON_DAY: '10000' });
const [alice, bob] = await createAccounts(server, 'alice', 'bob');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const future = (ms: number) => new Date(Date.now() + ms).toISOString();

describe('POST /api/v1/links', () => {
  it('creates an anonymous link and answers 201 with every Link field and a one-time edit token', async () => {
    const before = Date.now();
    const response = await server.api('/api/v1/links', { json: { url: 'https://example.com/page?a=1' } });
    const link = await jsonOf(response, 201);

    expect(Object.keys(link).sort()).toEqual([...LINK_FIELDS, 'edit_token'].sort());
    expect(link.id).toMatch(UUID);
    expect(link.slug).toMatch(/^[a-z0-9]{6}$/);
    const shortUrl = `http://${server.hostA}/${link.slug}`;
    expect(link).toMatchObject({
      domain: server.hostA,
      short_url: shortUrl,
      url: 'https://example.com/page?a=1',
      title: null,
      status: 'active',
      clicks: 0,
      has_password: false,
      public_stats: true,
      expires_at: null,
      max_clicks: null,
      last_click_at: null,
      preview_url: `${shortUrl}+`,
      qr_svg_url: `${shortUrl}.svg`,
      qr_png_url: `${shortUrl}.png`,
      stats_url: `${server.baseUrl}/api/v1/links/${link.id}/stats`,
    });
    expect(link.edit_token).toMatch(/^et_[0-9A-Za-z]{32}$/);
    expect(link.created_at).toMatch(ISO);
    expect(link.updated_at).toBe(link.created_at);
    expect(Date.parse(link.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(link.created_at)).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('creates a link for the account, with no edit token, when an API key is sent', async () => {
    const link = await createLink(server, { url: 'https://example.com/keyed' }, { key: alice.key });
    expect(Object.keys(link).sort()).toEqual([...LINK_FIELDS].sort());
    expect(link).not.toHaveProperty('edit_token');
    const read = await jsonOf(await server.api(`/api/v1/links/${link.id}`, { key: alice.key }));
    expect(read.id).toBe(link.id);
  });

  it('stores every optional setting and never returns the password', async () => {
    const alias = uniqueAlias('opts');
    const before = Date.now();
    const response = await server.api('/api/v1/links', {
      json: {
        url: 'https://example.com/all',
        alias,
        domain: server.hostB,
        title: 'Everything set',
        expires_in_days: 2,
        max_clicks: 3,
        password: 'hunter22',
        public_stats: false,
      },
    });
    const text = await response.text();
    expect(response.status).toBe(201);
    expect(text).not.toContain('hunter22');
    const link = JSON.parse(text) as Json;
    expect(link).toMatchObject({
      domain: server.hostB,
      slug: alias,
      short_url: `http://${server.hostB}/${alias}`,
      title: 'Everything set',
      max_clicks: 3,
      has_password: true,
      public_stats: false,
      status: 'active',
    });
    expect(link).not.toHaveProperty('password');
    const expires = Date.parse(link.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 2 * DAY - 1000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 2 * DAY + 1000);
  });

  it('accepts an absolute expires_at in the future', async () => {
    const at = future(DAY);
    const link = await createLink(server, { url: 'https://example.com/at', expires_at: at });
    expect(Date.parse(link.expires_at)).toBe(Date.parse(at));
  });

  it('reads a URL without a scheme as https', async () => {
    const link = await createLink(server, { url: 'example.com/no-scheme' });
    expect(link.url).toBe('https://example.com/no-scheme');
  });

  it('merges UTM fields into the destination, replacing parameters of the same name', async () => {
    const link = await createLink(server, {
      url: 'https://example.com/utm?utm_source=old&keep=1',
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring',
      utm_term: 'shoes',
      utm_content: 'top',
    });
    const url = new URL(link.url);
    expect(url.searchParams.getAll('utm_source')).toEqual(['newsletter']);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      utm_source: 'newsletter',
      keep: '1',
      utm_medium: 'email',
      utm_campaign: 'spring',
      utm_term: 'shoes',
      utm_content: 'top',
    });
  });

  it('trims and lower-cases the alias', async () => {
    const alias = uniqueAlias('case');
    const link = await createLink(server, {
      url: 'https://example.com/',
      alias: `  ${alias.toUpperCase()} `,
    });
    expect(link.slug).toBe(alias);
  });

  it('allows the same alias once on each short domain', async () => {
    const alias = uniqueAlias('both');
    await createLink(server, { url: 'https://example.com/a', alias });
    await createLink(server, { url: 'https://example.com/b', alias, domain: server.hostB });
    const again = await server.api('/api/v1/links', { json: { url: 'https://example.com/c', alias } });
    await expectError(again, 400, 'slug_taken');
  });
});

describe('GET /api/v1/links/{id}', () => {
  let anonymous: Json;
  let owned: Json;
  beforeAll(async () => {
    anonymous = await createLink(server, { url: 'https://example.com/detail' });
    owned = await createLink(server, { url: 'https://example.com/owned' }, { key: alice.key });
  });

  it('answers the Link, without an edit token, to the edit token of an anonymous link', async () => {
    const link = await jsonOf(
      await server.api(`/api/v1/links/${anonymous.id}`, { token: anonymous.edit_token }),
    );
    const { edit_token: _token, ...created } = anonymous;
    expect(link).toEqual(created);
  });

  it("answers the Link to the owning account's key", async () => {
    const link = await jsonOf(await server.api(`/api/v1/links/${owned.id}`, { key: alice.key }));
    expect(link).toEqual(owned);
  });

  it("refuses another account's key with 403 forbidden", async () => {
    await expectError(await server.api(`/api/v1/links/${owned.id}`, { key: bob.key }), 403, 'forbidden');
    await expectError(await server.api(`/api/v1/links/${anonymous.id}`, { key: bob.key }), 403, 'forbidden');
  });

  it('refuses a request without credentials with 403 forbidden', async () => {
    await expectError(await server.api(`/api/v1/links/${anonymous.id}`), 403, 'forbidden');
    await expectError(await server.api(`/api/v1/links/${owned.id}`), 403, 'forbidden');
  });

  it('refuses the edit token of another link with 403 forbidden', async () => {
    const other = await createLink(server, { url: 'https://example.com/other' });
    const response = await server.api(`/api/v1/links/${anonymous.id}`, { token: other.edit_token });
    await expectError(response, 403, 'forbidden');
  });

  it('refuses a bad API key with 401 unauthorized, even next to a valid edit token', async () => {
    const bad = `shk_${'x'.repeat(32)}`;
    await expectError(await server.api(`/api/v1/links/${owned.id}`, { key: bad }), 401, 'unauthorized');
    const both = await server.api(`/api/v1/links/${anonymous.id}`, { key: bad, token: anonymous.edit_token });
    await expectError(both, 401, 'unauthorized');
  });

  it('answers 404 not_found for an unknown id and for a malformed one', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    await expectError(await server.api(`/api/v1/links/${unknown}`, { key: alice.key }), 404, 'not_found');
    await expectError(await server.api('/api/v1/links/not-a-uuid', { key: alice.key }), 404, 'not_found');
  });
});

describe('PATCH /api/v1/links/{id}', () => {
  const patch = (id: string, json: Json, auth: { key?: string; token?: string }) =>
    server.api(`/api/v1/links/${id}`, { method: 'PATCH', json, ...auth });

  it('changes the given fields with the edit token and leaves the others alone', async () => {
    const link = await createLink(server, { url: 'https://example.com/v1', title: 'Old', max_clicks: 9 });
    await sleep(5);
    const updated = await jsonOf(
      await patch(link.id, { url: 'example.com/v2', title: 'New' }, { token: link.edit_token }),
    );
    expect(updated).toMatchObject({
      id: link.id,
      url: 'https://example.com/v2',
      title: 'New',
      max_clicks: 9,
    });
    expect(updated).not.toHaveProperty('edit_token');
    expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(link.updated_at));
    expect(updated.created_at).toBe(link.created_at);
  });

  it('answers an empty update with the unchanged link', async () => {
    const link = await createLink(server, { url: 'https://example.com/same', title: 'Same' });
    const same = await jsonOf(await patch(link.id, {}, { token: link.edit_token }));
    expect(same).toMatchObject({ url: link.url, title: 'Same', status: 'active', expires_at: null });
  });

  it("changes a link with the owning account's key", async () => {
    const link = await createLink(server, { url: 'https://example.com/k' }, { key: alice.key });
    const updated = await jsonOf(await patch(link.id, { public_stats: false }, { key: alice.key }));
    expect(updated.public_stats).toBe(false);
  });

  it('removes settings given as null and the password given as an empty string', async () => {
    const link = await createLink(server, {
      url: 'https://example.com/nulls',
      title: 'T',
      expires_in_days: 5,
      max_clicks: 4,
      password: 'secret-1',
    });
    const cleared = await jsonOf(
      await patch(
        link.id,
        { title: null, expires_at: null, max_clicks: null, password: null },
        {
          token: link.edit_token,
        },
      ),
    );
    expect(cleared).toMatchObject({ title: null, expires_at: null, max_clicks: null, has_password: false });

    await patch(link.id, { password: 'secret-2', expires_in_days: 1 }, { token: link.edit_token });
    const again = await jsonOf(
      await patch(link.id, { password: '', expires_in_days: null }, { token: link.edit_token }),
    );
    expect(again).toMatchObject({ has_password: false, expires_at: null });
  });

  it('makes an expired link active again by moving expires_at into the future or removing it', async () => {
    const link = await createLink(server, { url: 'https://example.com/exp', expires_in_days: 1 });
    const auth = { token: link.edit_token as string };
    const expired = await jsonOf(await patch(link.id, { expires_at: future(-60_000) }, auth));
    expect(expired.status).toBe('expired');
    expect((await server.visit(link.short_url)).status).toBe(410);

    const moved = await jsonOf(await patch(link.id, { expires_at: future(DAY) }, auth));
    expect(moved.status).toBe('active');
    expect((await server.visit(link.short_url)).status).toBe(302);

    await patch(link.id, { expires_at: future(-60_000) }, auth);
    const removed = await jsonOf(await patch(link.id, { expires_at: null }, auth));
    expect(removed.status).toBe('active');
  });

  it('makes a used-up link active again by raising or removing max_clicks', async () => {
    const link = await createLink(server, { url: 'https://example.com/cap', max_clicks: 1 });
    const auth = { token: link.edit_token as string };
    expect((await server.visit(link.short_url)).status).toBe(302);
    expect((await server.visit(link.short_url)).status).toBe(410);
    const used = await jsonOf(await server.api(`/api/v1/links/${link.id}`, auth));
    expect(used).toMatchObject({ status: 'expired', clicks: 1 });

    const raised = await jsonOf(await patch(link.id, { max_clicks: 2 }, auth));
    expect(raised.status).toBe('active');
    expect((await server.visit(link.short_url)).status).toBe(302);
    expect((await server.visit(link.short_url)).status).toBe(410);

    const removed = await jsonOf(await patch(link.id, { max_clicks: null }, auth));
    expect(removed).toMatchObject({ status: 'active', max_clicks: null });
    expect((await server.visit(link.short_url)).status).toBe(302);
  });

  it('validates the update like a creation', async () => {
    const link = await createLink(server, { url: 'https://example.com/val' });
    const auth = { token: link.edit_token as string };
    await expectError(await patch(link.id, { url: 'http://10.0.0.1/' }, auth), 400, 'private_host');
    await expectError(await patch(link.id, { url: 'ftp://example.com/' }, auth), 400, 'unsupported_scheme');
    await expectError(await patch(link.id, { title: 'x'.repeat(201) }, auth), 400, 'invalid_request');
    await expectError(await patch(link.id, { password: 'abc' }, auth), 400, 'invalid_request');
    await expectError(await patch(link.id, { max_clicks: 0 }, auth), 400, 'invalid_request');
    const both = { expires_in_days: 1, expires_at: future(DAY) };
    await expectError(await patch(link.id, both, auth), 400, 'invalid_request');
  });

  it('does not let an owner change the status or the alias', async () => {
    const link = await createLink(server, { url: 'https://example.com/status' });
    const auth = { token: link.edit_token as string };
    await expectError(await patch(link.id, { status: 'disabled' }, auth), 400, 'invalid_request');
    await expectError(await patch(link.id, { alias: 'renamed' }, auth), 400, 'invalid_request');
  });

  it('refuses strangers with 403, a bad key with 401 and an unknown id with 404', async () => {
    const link = await createLink(server, { url: 'https://example.com/p' }, { key: alice.key });
    await expectError(await patch(link.id, { title: 'x' }, { key: bob.key }), 403, 'forbidden');
    await expectError(await patch(link.id, { title: 'x' }, {}), 403, 'forbidden');
    await expectError(await patch(link.id, { title: 'x' }, { key: 'shk_nope' }), 401, 'unauthorized');
    const unknown = '00000000-0000-4000-8000-000000000001';
    await expectError(await patch(unknown, { title: 'x' }, { key: alice.key }), 404, 'not_found');
  });
});

describe('DELETE /api/v1/links/{id}', () => {
  const remove = (id: string, auth: { key?: string; token?: string }) =>
    server.api(`/api/v1/links/${id}`, { method: 'DELETE', ...auth });

  it('deletes with the edit token: 204 without a body, then 404 everywhere', async () => {
    const link = await createLink(server, { url: 'https://example.com/del' });
    const response = await remove(link.id, { token: link.edit_token });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    await expectError(
      await server.api(`/api/v1/links/${link.id}`, { token: link.edit_token }),
      404,
      'not_found',
    );
    await expectError(await remove(link.id, { token: link.edit_token }), 404, 'not_found');
    expect((await server.visit(link.short_url)).status).toBe(404);
    await expectError(await server.api(`/api/v1/links/${link.id}/stats`), 404, 'not_found');
  });

  it("deletes with the owning key and refuses another account's key or no credentials", async () => {
    const link = await createLink(server, { url: 'https://example.com/del-key' }, { key: alice.key });
    await expectError(await remove(link.id, { key: bob.key }), 403, 'forbidden');
    await expectError(await remove(link.id, {}), 403, 'forbidden');
    await expectError(await remove(link.id, { key: `shk_${'0'.repeat(32)}` }), 401, 'unauthorized');
    expect((await remove(link.id, { key: alice.key })).status).toBe(204);
    await expectError(await server.api(`/api/v1/links/${link.id}`, { key: alice.key }), 404, 'not_found');
  });
});

describe('GET /api/v1/links', () => {
  let carol: TestAccount;
  let created: Json[];
  beforeAll(async () => {
    carol = await server.createAccount('carol');
    created = [];
    const bodies = [
      { url: 'https://example.com/one', title: 'Alpha report' },
      { url: 'https://example.com/two', alias: uniqueAlias('zebra') },
      { url: 'https://docs.example.org/three' },
      { url: 'https://example.com/four', title: 'alphabet soup' },
      { url: 'https://example.com/five' },
    ];
    for (const body of bodies) {
      created.push(await createLink(server, body, { key: carol.key }));
      await sleep(3); // distinct creation times make "newest first" observable
    }
    await createLink(server, { url: 'https://example.com/not-carols' }, { key: bob.key });
    await createLink(server, { url: 'https://example.com/anonymous' });
  });
  const list = async (query = '') => jsonOf(await server.api(`/api/v1/links${query}`, { key: carol.key }));

  it('requires an API key: 401 without one and with a bad one', async () => {
    await expectError(await server.api('/api/v1/links'), 401, 'unauthorized');
    await expectError(await server.api('/api/v1/links', { key: 'shk_bad' }), 401, 'unauthorized');
  });

  it("lists only the account's links, newest first, with next_cursor null at the end", async () => {
    const page = await list();
    expect(Object.keys(page).sort()).toEqual(['links', 'next_cursor']);
    expect(page.links.map((l: Json) => l.id)).toEqual(created.map((l) => l.id).reverse());
    expect(page.next_cursor).toBeNull();
    for (const link of page.links) expect(link).not.toHaveProperty('edit_token');
  });

  it('pages with limit and cursor until next_cursor is null', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Json = await list(
        `?limit=2${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
      );
      expect(page.links.length).toBeLessThanOrEqual(2);
      seen.push(...page.links.map((l: Json) => l.id as string));
      cursor = page.next_cursor as string | null;
      pages++;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(created.map((l) => l.id).reverse());
  });

  it('filters with q on slug, title or url, case-insensitively', async () => {
    const ids = async (q: string) =>
      ((await list(`?q=${encodeURIComponent(q)}`)).links as Json[]).map((l) => l.id as string).sort();
    expect(await ids('ALPHA')).toEqual([created[0]?.id, created[3]?.id].sort());
    expect(await ids('zebra')).toEqual([created[1]?.id]);
    expect(await ids('docs.example.org')).toEqual([created[2]?.id]);
    expect(await ids('nothing-matches-this')).toEqual([]);
    expect(await ids('%')).toEqual([]); // wildcards are taken literally
    expect(await ids('_')).toEqual([]);
  });

  it('refuses a limit over 200 or below 1, and a cursor it did not issue, with 400', async () => {
    for (const query of ['?limit=201', '?limit=0', '?limit=abc', '?cursor=not-a-cursor']) {
      await expectError(
        await server.api(`/api/v1/links${query}`, { key: carol.key }),
        400,
        'invalid_request',
      );
    }
    expect((await list('?limit=200')).links).toHaveLength(created.length);
  });
});

describe('GET /api/v1/check', () => {
  const check = async (query: string) => jsonOf(await server.api(`/api/v1/check?${query}`));

  it('reports a free alias on the default domain', async () => {
    const alias = uniqueAlias('free');
    expect(await check(`slug=${alias}`)).toEqual({
      slug: alias,
      domain: server.hostA,
      status: 'free',
      alternative: null,
    });
  });

  it('reports a taken alias with the other domain where it is free as the alternative', async () => {
    const alias = uniqueAlias('taken');
    await createLink(server, { url: 'https://example.com/', alias });
    expect(await check(`slug=${alias.toUpperCase()}`)).toEqual({
      slug: alias,
      domain: server.hostA,
      status: 'taken',
      alternative: server.hostB,
    });
    expect(await check(`slug=${alias}&domain=${server.hostB}`)).toMatchObject({
      domain: server.hostB,
      status: 'free',
    });
    await createLink(server, { url: 'https://example.com/', alias, domain: server.hostB });
    expect(await check(`slug=${alias}`)).toMatchObject({ status: 'taken', alternative: null });
  });

  it('reports reserved and invalid aliases', async () => {
    expect(await check('slug=api')).toMatchObject({ status: 'reserved', alternative: null });
    expect(await check('slug=healthz')).toMatchObject({ status: 'reserved' });
    expect(await check('slug=a')).toMatchObject({ status: 'invalid' });
    expect(await check(`slug=${encodeURIComponent('not valid!')}`)).toMatchObject({ status: 'invalid' });
    expect(await check(`slug=${'x'.repeat(41)}`)).toMatchObject({ status: 'invalid' });
  });

  it('refuses an unknown domain with domain_invalid and a missing slug with invalid_request', async () => {
    await expectError(await server.api('/api/v1/check?slug=abc&domain=evil.example'), 400, 'domain_invalid');
    await expectError(await server.api('/api/v1/check'), 400, 'invalid_request');
  });
});
