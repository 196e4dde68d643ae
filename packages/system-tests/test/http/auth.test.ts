import { describe, expect, it } from 'vitest';
import { createLink, expectError, jsonOf } from './harness.js';
import type { Json, RequestOptions } from './harness.js';
import { startFileServer } from './file-server.js';

const server = await startFileServer();
const dana = await server.createAccount('dana');
const link = await createLink(server, { url: 'https://example.com/auth' }, { key: dana.key });

/** Every API endpoint with a valid request; `:id` stands for the id of `link`. */
const ENDPOINTS: [string, string, RequestOptions][] = [
  ['POST', '/api/v1/links', { json: { url: 'https://example.com/' } }],
  ['GET', '/api/v1/links', {}],
  ['GET', '/api/v1/links/:id', {}],
  ['PATCH', '/api/v1/links/:id', { json: { title: 'x' } }],
  ['DELETE', '/api/v1/links/:id', {}],
  ['GET', '/api/v1/links/:id/stats', {}],
  ['GET', '/api/v1/check?slug=free-alias', {}],
  ['POST', '/api/v1/bulk', { json: { urls: ['https://example.com/'] } }],
  ['POST', '/api/v1/links/claim', { json: { edit_tokens: [] } }],
  ['GET', '/api/shorten?url=https://example.com/', {}],
];

const call = (method: string, path: string, options: RequestOptions, key: string) =>
  server.api(path.replace(':id', link.id as string), { ...options, method, key });

describe('API keys', () => {
  it('are shk_ followed by 32 base62 characters', () => {
    expect(dana.key).toMatch(/^shk_[0-9A-Za-z]{32}$/);
  });

  it('authenticate with the Bearer scheme in any case', async () => {
    const page = await jsonOf(
      await server.api('/api/v1/links', { headers: { authorization: `bearer ${dana.key}` } }),
    );
    expect(page.links.map((l: Json) => l.id)).toContain(link.id);
  });

  it.each([
    ['another scheme', (key: string) => `Basic ${key}`],
    ['no scheme', (key: string) => key],
    ['Bearer without a key', () => 'Bearer'],
    ['Bearer with two values', (key: string) => `Bearer ${key} ${key}`],
    ['a truncated key', (key: string) => `Bearer ${key.slice(0, -1)}`],
    ['a key with a wrong prefix', (key: string) => `Bearer shx_${key.slice(4)}`],
    ['an unknown well-formed key', () => `Bearer shk_${'A'.repeat(32)}`],
  ])('refuses a header with %s with 401 unauthorized, never as anonymous', async (_name, header) => {
    const headers = { authorization: header(dana.key) };
    const create = await server.api('/api/v1/links', { json: { url: 'https://example.com/' }, headers });
    await expectError(create, 401, 'unauthorized');
    await expectError(await server.api('/api/v1/links', { headers }), 401, 'unauthorized');
  });

  it.each(ENDPOINTS)('refuses a bad key on %s %s with 401 unauthorized', async (method, path, options) => {
    const response = await call(method, path, options, `shk_${'b'.repeat(32)}`);
    await expectError(response, 401, 'unauthorized');
  });

  it('stop working once revoked, everywhere, while the account’s other keys go on', async () => {
    const revoked = await server.cli('keys', 'create', 'dana');
    const spare = await server.cli('keys', 'create', 'dana');
    const key = String(revoked.key);
    await createLink(server, { url: 'https://example.com/before' }, { key });

    const result = await server.cli('keys', 'revoke', String(revoked.id));
    expect(result).toMatchObject({ revoked: true });
    for (const [method, path, options] of ENDPOINTS) {
      await expectError(await call(method, path, options, key), 401, 'unauthorized');
    }
    const stillOk = await server.api(`/api/v1/links/${link.id}`, { key: String(spare.key) });
    expect((await jsonOf(stillOk)).id).toBe(link.id);
  });
});

describe('API keys under concurrent use', () => {
  it('answers a hundred requests at once with a key, and a hundred with 401 once another process revoked it', async () => {
    const made = await server.cli('keys', 'create', 'dana');
    const key = String(made.key);
    const hundred = async () =>
      (await Promise.all(Array.from({ length: 100 }, () => call('GET', '/api/v1/links', {}, key)))).map(
        (r) => r.status,
      );
    // the server keeps the key's look-up between requests: these are served from it
    expect(await hundred()).toEqual(Array.from({ length: 100 }, () => 200));
    // another connection (the CLI's) revokes it: the next look-up must not trust what was kept
    expect(await server.cli('keys', 'revoke', String(made.id))).toMatchObject({ revoked: true });
    expect(await hundred()).toEqual(Array.from({ length: 100 }, () => 401));
    // and the account's own key goes on
    expect((await server.api('/api/v1/links', { key: dana.key })).status).toBe(200);
  });
});

describe('edit tokens', () => {
  it('are et_ followed by 32 base62 characters and work for their link only', async () => {
    const mine = await createLink(server, { url: 'https://example.com/mine' });
    const theirs = await createLink(server, { url: 'https://example.com/theirs' });
    expect(mine.edit_token).toMatch(/^et_[0-9A-Za-z]{32}$/);
    expect(mine.edit_token).not.toBe(theirs.edit_token);
    expect((await jsonOf(await server.api(`/api/v1/links/${mine.id}`, { token: mine.edit_token }))).id).toBe(
      mine.id,
    );
    const cross = await server.api(`/api/v1/links/${theirs.id}`, { token: mine.edit_token });
    await expectError(cross, 403, 'forbidden');
  });

  it('give no access to a link created with a key', async () => {
    const anyToken = (await createLink(server, { url: 'https://example.com/t' })).edit_token as string;
    await expectError(await server.api(`/api/v1/links/${link.id}`, { token: anyToken }), 403, 'forbidden');
  });

  it('do not replace an API key for listing or claiming', async () => {
    const anonymous = await createLink(server, { url: 'https://example.com/anon' });
    await expectError(
      await server.api('/api/v1/links', { token: anonymous.edit_token }),
      401,
      'unauthorized',
    );
    const claim = await server.api('/api/v1/links/claim', {
      json: { edit_tokens: [anonymous.edit_token] },
      token: anonymous.edit_token,
    });
    await expectError(claim, 401, 'unauthorized');
  });

  it('refuse a made-up token with 403 and an unknown link with 404', async () => {
    const anonymous = await createLink(server, { url: 'https://example.com/anon' });
    const fake = `et_${'z'.repeat(32)}`;
    await expectError(await server.api(`/api/v1/links/${anonymous.id}`, { token: fake }), 403, 'forbidden');
    const unknown = '00000000-0000-4000-8000-0000000000ef';
    await expectError(await server.api(`/api/v1/links/${unknown}`, { token: fake }), 404, 'not_found');
  });
});
