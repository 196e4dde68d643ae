import { describe, expect, it } from 'vitest';
import { createLink, expectError, jsonOf } from './harness.js';
import type { Json } from './harness.js';
import { createAccounts, startFileServer } from './file-server.js';

const server = await startFileServer({ RATE_LIMIT_ANON_HOUR: '1000', RATE_LIMIT_ANON_DAY: '1000' });
const [erin, frank] = await createAccounts(server, 'erin', 'frank');

const bulk = (json: Json, key?: string) => server.api('/api/v1/bulk', { json, ...(key ? { key } : {}) });
const claim = (tokens: unknown, key?: string) =>
  server.api('/api/v1/links/claim', { json: { edit_tokens: tokens }, ...(key ? { key } : {}) });
const listIds = async (key: string): Promise<string[]> =>
  ((await jsonOf(await server.api('/api/v1/links?limit=200', { key }))).links as Json[]).map(
    (l) => l.id as string,
  );
const remaining = async (): Promise<number> => {
  const response = await server.api('/api/v1/links', { json: { url: 'https://example.com/probe' } });
  expect(response.status).toBe(201);
  return Number(response.headers.get('ratelimit-remaining'));
};
const urls = (n: number, prefix = 'https://example.com/bulk') =>
  Array.from({ length: n }, (_, i) => `${prefix}/${i}`);

describe('POST /api/v1/bulk', () => {
  it('creates one link per URL of an array, in input order, each anonymous link with its own edit token', async () => {
    const input = ['https://example.com/a', 'example.org/b', 'https://example.net/c'];
    const { results } = await jsonOf(await bulk({ urls: input }));
    expect(results).toHaveLength(3);
    expect(results.map((r: Json) => [r.index, r.input, r.ok])).toEqual([
      [0, input[0], true],
      [1, input[1], true],
      [2, input[2], true],
    ]);
    expect(results.map((r: Json) => r.link.url)).toEqual([
      'https://example.com/a',
      'https://example.org/b',
      'https://example.net/c',
    ]);
    const tokens = results.map((r: Json) => r.link.edit_token as string);
    expect(new Set(tokens).size).toBe(3);
    for (const result of results as Json[]) {
      expect(result.link.edit_token).toMatch(/^et_[0-9A-Za-z]{32}$/);
      const read = await server.api(`/api/v1/links/${result.link.id}`, { token: result.link.edit_token });
      expect((await jsonOf(read)).id).toBe(result.link.id);
    }
  });

  it('reads one URL per line from a string and ignores blank lines', async () => {
    const text =
      'https://example.com/one\n\n   \r\nhttps://example.com/two\r\n\thttps://example.com/three  \n\n';
    const { results } = await jsonOf(await bulk({ urls: text }));
    expect(results.map((r: Json) => [r.index, r.input, r.ok])).toEqual([
      [0, 'https://example.com/one', true],
      [1, 'https://example.com/two', true],
      [2, 'https://example.com/three', true],
    ]);
  });

  it('reports each failing URL with its error next to the ones that were created', async () => {
    const input = [
      'https://example.com/fine',
      'http://192.168.0.1/',
      'ftp://example.com/',
      'http://',
      'https://example.com/ok',
    ];
    const response = await bulk({ urls: input });
    const { results } = await jsonOf(response);
    expect(results.map((r: Json) => r.ok)).toEqual([true, false, false, false, true]);
    expect(results.map((r: Json) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(results.map((r: Json) => r.input)).toEqual(input);
    const failures = (results as Json[]).filter((r) => !r.ok);
    expect(failures.map((r) => r.error.code)).toEqual(['private_host', 'unsupported_scheme', 'invalid_url']);
    for (const failure of failures) {
      expect(failure).not.toHaveProperty('link');
      expect(typeof failure.error.message).toBe('string');
      expect(failure.error.message.length).toBeGreaterThan(0);
    }
    for (const success of (results as Json[]).filter((r) => r.ok))
      expect(success).not.toHaveProperty('error');
  });

  it('applies domain and expires_in_days to every link', async () => {
    const { results } = await jsonOf(await bulk({ urls: urls(2), domain: server.hostB, expires_in_days: 3 }));
    for (const result of results as Json[]) {
      expect(result.link.domain).toBe(server.hostB);
      expect(Date.parse(result.link.expires_at)).toBeGreaterThan(Date.now() + 3 * 86_400_000 - 60_000);
    }
  });

  it('saves links made with a key to the account, without edit tokens', async () => {
    const { results } = await jsonOf(await bulk({ urls: urls(2, 'https://example.com/keyed') }, erin.key));
    for (const result of results as Json[]) expect(result.link).not.toHaveProperty('edit_token');
    const ids = await listIds(erin.key);
    for (const result of results as Json[]) expect(ids).toContain(result.link.id);
  });

  it('takes 20 URLs anonymously and refuses 21 with 400 too_many, creating nothing', async () => {
    expect((await jsonOf(await bulk({ urls: urls(20) }))).results).toHaveLength(20);
    const before = await remaining();
    await expectError(await bulk({ urls: urls(21) }), 400, 'too_many');
    await expectError(await bulk({ urls: urls(21).join('\n') }), 400, 'too_many');
    expect(await remaining()).toBe(before - 1); // only the probe itself was counted
  });

  it('takes 200 URLs with a key and refuses 201 with too_many, creating nothing', async () => {
    const before = (await listIds(frank.key)).length;
    await expectError(await bulk({ urls: urls(201) }, frank.key), 400, 'too_many');
    expect((await listIds(frank.key)).length).toBe(before);
    const { results } = await jsonOf(await bulk({ urls: urls(200) }, frank.key));
    expect((results as Json[]).filter((r) => r.ok)).toHaveLength(200);
    expect((await listIds(frank.key)).length).toBe(before + 200);
  });

  it('refuses a malformed request with 400', async () => {
    await expectError(await bulk({}), 400, 'invalid_request');
    await expectError(await bulk({ urls: 42 }), 400, 'invalid_request');
    await expectError(await bulk({ urls: [1, 2] }), 400, 'invalid_request');
    await expectError(await bulk({ urls: ['https://example.com/'], extra: true }), 400, 'invalid_request');
    await expectError(
      await bulk({ urls: ['https://example.com/'], expires_in_days: 0 }),
      400,
      'invalid_request',
    );
    await expectError(
      await bulk({ urls: ['https://example.com/'], domain: 'evil.example' }),
      400,
      'domain_invalid',
    );
  });

  it('refuses what /openapi.json says it takes no fewer than: 1 URL, and no more than 200', async () => {
    await expectError(await bulk({ urls: [] }), 400, 'invalid_request');
    await expectError(await bulk({ urls: '' }), 400, 'invalid_request');
    const doc = await jsonOf(await server.api('/openapi.json'));
    const branches = doc.components.schemas.BulkRequest.properties.urls.anyOf as Json[];
    expect(branches.find((b) => b.type === 'array')).toMatchObject({ minItems: 1, maxItems: 200 });
    expect(branches.find((b) => b.type === 'string')).toMatchObject({ minLength: 1 });
  });
});

describe('POST /api/v1/links/claim', () => {
  it('requires an API key: 401 unauthorized without one', async () => {
    const link = await createLink(server, { url: 'https://example.com/unclaimed' });
    await expectError(await claim([link.edit_token]), 401, 'unauthorized');
    // the token still works
    expect((await server.api(`/api/v1/links/${link.id}`, { token: link.edit_token })).status).toBe(200);
  });

  it('attaches the links of the given edit tokens to the account and answers how many', async () => {
    const first = await createLink(server, { url: 'https://example.com/c1' });
    const second = await createLink(server, { url: 'https://example.com/c2' });
    const body = await jsonOf(await claim([first.edit_token, second.edit_token], erin.key));
    expect(body).toEqual({ claimed: 2 });

    const ids = await listIds(erin.key);
    expect(ids).toEqual(expect.arrayContaining([first.id, second.id]));
    const owned = await jsonOf(await server.api(`/api/v1/links/${first.id}`, { key: erin.key }));
    expect(owned.id).toBe(first.id);
  });

  it('makes a claimed edit token stop working', async () => {
    const link = await createLink(server, { url: 'https://example.com/c3' });
    await jsonOf(await claim([link.edit_token], erin.key));
    const token = { token: link.edit_token as string };
    await expectError(await server.api(`/api/v1/links/${link.id}`, token), 403, 'forbidden');
    const patch = await server.api(`/api/v1/links/${link.id}`, {
      method: 'PATCH',
      json: { title: 'x' },
      ...token,
    });
    await expectError(patch, 403, 'forbidden');
    await expectError(
      await server.api(`/api/v1/links/${link.id}`, { method: 'DELETE', ...token }),
      403,
      'forbidden',
    );
  });

  it('skips unknown, repeated and already-claimed tokens', async () => {
    const link = await createLink(server, { url: 'https://example.com/c4' });
    const unknown = [`et_${'q'.repeat(32)}`, 'not-even-a-token'];
    expect(await jsonOf(await claim([...unknown, link.edit_token, link.edit_token], frank.key))).toEqual({
      claimed: 1,
    });
    expect(await jsonOf(await claim([link.edit_token], frank.key))).toEqual({ claimed: 0 });
    expect(await jsonOf(await claim([link.edit_token], erin.key))).toEqual({ claimed: 0 });
    expect((await server.api(`/api/v1/links/${link.id}`, { key: frank.key })).status).toBe(200);
    expect((await server.api(`/api/v1/links/${link.id}`, { key: erin.key })).status).toBe(403);
    expect(await jsonOf(await claim([], frank.key))).toEqual({ claimed: 0 });
  });

  it('takes 1000 tokens and refuses 1001 with 400 too_many', async () => {
    const tokens = (n: number) => Array.from({ length: n }, (_, i) => `et_${String(i).padStart(32, '0')}`);
    expect(await jsonOf(await claim(tokens(1000), erin.key))).toEqual({ claimed: 0 });
    const link = await createLink(server, { url: 'https://example.com/c5' });
    await expectError(await claim([...tokens(1000), link.edit_token], erin.key), 400, 'too_many');
    // nothing was claimed
    expect((await server.api(`/api/v1/links/${link.id}`, { token: link.edit_token })).status).toBe(200);
  });

  it('refuses a malformed body with 400 invalid_request', async () => {
    await expectError(await claim('et_abc', erin.key), 400, 'invalid_request');
    await expectError(
      await server.api('/api/v1/links/claim', { json: {}, key: erin.key }),
      400,
      'invalid_request',
    );
    await expectError(
      await server.api('/api/v1/links/claim', { method: 'POST', key: erin.key }),
      400,
      'invalid_request',
    );
  });
});
