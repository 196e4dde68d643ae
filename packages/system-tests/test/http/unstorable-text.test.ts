import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink, expectError, jsonOf, startTestServer } from './harness.js';
import type { TestAccount, TestServer } from './harness.js';

// Text no store keeps (decisions §9: a client's fault is never a 5xx, on every store): a NUL, which
// PostgreSQL refuses in text, and a lone UTF-16 surrogate, which encodeURIComponent refuses. Runs on
// SQLite and, in CI, on PostgreSQL (vitest.config.ts, ON_POSTGRES).

let server: TestServer;
let alice: TestAccount;
let linkId: string;

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  alice = await server.createAccount('alice');
  linkId = String((await createLink(server, { url: 'https://example.com/text' }, { key: alice.key })).id);
});
afterAll(() => server.close());

const BAD = ['a\u0000b', 'a\ud800b', '\udc00', 'x\ud83d'] as const;
const URL = 'https://example.com/';

describe('text with a NUL or a lone surrogate', () => {
  it('answers an alias with a NUL as any bad alias: 400 slug_invalid', async () => {
    const response = await server.api('/api/v1/links', { json: { url: URL, alias: 'ab\u0000cd' } });
    expect((await expectError(response, 400, 'slug_invalid')).field).toBe('alias');
  });

  it.each(BAD)('is refused with 400 naming the field in every text field of a new link: %j', async (bad) => {
    // a field with a code of its own keeps it (decisions §25): the alias `slug_invalid`, and so on
    const fields: [string, Record<string, unknown>, string, string][] = [
      ['title', { title: bad }, 'title', 'invalid_request'],
      ['alias', { alias: bad }, 'alias', 'slug_invalid'],
      ['password', { password: bad }, 'password', 'invalid_request'],
      ['domain', { domain: bad }, 'domain', 'domain_invalid'],
      ['url', { url: `${URL}${bad}` }, 'url', 'invalid_url'],
      ['utm_source', { utm_source: bad }, 'utm_source', 'invalid_request'],
      ['utm_campaign', { utm_campaign: bad }, 'utm_campaign', 'invalid_request'],
      [
        'a rule query key',
        { rules: [{ query: { [bad]: 'x' }, url: `${URL}r` }] },
        `rules.0.query.${bad}`,
        'invalid_request',
      ],
      [
        'a rule query value',
        { rules: [{ query: { k: bad }, url: `${URL}r` }] },
        'rules.0.query.k',
        'invalid_request',
      ],
    ];
    for (const [name, json, field, code] of fields) {
      const response = await server.api('/api/v1/links', { key: alice.key, json: { url: URL, ...json } });
      expect([name, response.status]).toStrictEqual([name, 400]);
      const { error } = await jsonOf(response, 400);
      expect([name, error.code, error.field]).toStrictEqual([name, code, field]);
    }
    const tags = await server.api('/api/v1/links', { key: alice.key, json: { url: URL, tags: ['ok', bad] } });
    expect((await expectError(tags, 400, 'validation_error')).field).toBe('tags.1');
  });

  it.each(BAD)('is refused in updates, bulk, checks, webhooks and queries: %j', async (bad) => {
    const update = { method: 'PATCH', key: alice.key, json: { title: bad } };
    await expectError(await server.api(`/api/v1/links/${linkId}`, update), 400, 'invalid_request');
    const bulk = { key: alice.key, json: { urls: [URL], title: bad } };
    expect((await server.api('/api/v1/bulk', bulk)).status).toBe(400);
    const check = await server.api(
      `/api/v1/check?alias=${encodeURIComponent(bad.replace(/[\ud800-\udfff]/gu, ''))}%00`,
    );
    await expectError(check, 400, 'slug_invalid');
    const hook = { key: alice.key, json: { url: `http://127.0.0.1:9/${bad}`, events: ['link.created'] } };
    await expectError(await server.api('/api/v1/webhooks', hook), 400, 'invalid_url');
    const encoded = encodeURIComponent(bad.replace(/[\ud800-\udfff]/gu, '')) + '%00';
    await expectError(
      await server.api(`/api/v1/links?tag=${encoded}`, { key: alice.key }),
      400,
      'invalid_request',
    );
    await expectError(await server.api(`/api/shorten?url=${URL}${encoded}`), 400, 'invalid_url');
    const alias = await server.api(`/api/shorten?url=${URL}&alias=ab${encoded}cd`);
    expect((await expectError(alias, 400, 'slug_invalid')).field).toBe('alias');
  });

  it('is a plain 404 in a path: a slug, its JSON, QR code and preview, an id', async () => {
    for (const path of [
      '/%00',
      '/%00.json',
      '/%00.png',
      '/%00.svg',
      '/%00+',
      '/a%00b.json',
      '/%ED%A0%80.json',
    ]) {
      expect([path, (await server.api(path)).status]).toStrictEqual([path, 404]);
    }
    for (const path of [
      `/api/v1/links/%00`,
      `/api/v1/links/%00/stats`,
      '/api/v1/webhooks/%00',
      '/api/v1/keys/%00',
    ]) {
      const response = await server.api(path, {
        key: alice.key,
        method: /keys|webhooks/.test(path) ? 'DELETE' : 'GET',
      });
      expect([path, response.status]).toStrictEqual([path, 404]);
    }
  });

  it('is refused in MCP tool arguments as a tool error, never a failure of the server', async () => {
    for (const bad of BAD) {
      const response = await server.api('/mcp', {
        headers: { accept: 'application/json, text/event-stream' },
        json: {
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'shorten_url', arguments: { url: URL, title: bad } },
        },
      });
      const body = await jsonOf(response, 200);
      expect(body.result.isError).toBe(true);
      expect(body.result.structuredContent.error).toMatchObject({ code: 'invalid_request', field: 'title' });
    }
    expect(server.logs.filter((line) => line.includes('"level":"error"'))).toStrictEqual([]);
  });
});
