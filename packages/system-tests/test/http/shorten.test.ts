import { describe, expect, it } from 'vitest';
import { expectError, jsonOf, uniqueAlias } from './harness.js';
import type { Json } from './harness.js';
import { startFileServer } from './file-server.js';

const server = await startFileServer();
const gina = await server.createAccount('gina');

const shorten = (query: Record<string, string>, key?: string) =>
  server.api(`/api/shorten?${new URLSearchParams(query)}`, key === undefined ? {} : { key });

describe('GET /api/shorten', () => {
  it('answers 201 text/plain with exactly the short URL and the edit token in X-Edit-Token', async () => {
    const response = await shorten({ url: 'https://example.com/plain?q=1' });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const body = await response.text();
    expect(body).toMatch(new RegExp(`^http://${server.hostA.replace('.', '\\.')}/[a-z0-9]{6}$`));
    expect(response.headers.get('x-edit-token')).toMatch(/^et_[0-9A-Za-z]{32}$/);

    const visit = await server.visit(body);
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe('https://example.com/plain?q=1');
  });

  it('gives an edit token that belongs to the new link', async () => {
    const response = await shorten({ url: 'https://example.com/token' });
    const token = response.headers.get('x-edit-token') ?? '';
    const shortUrl = await response.text();
    expect(
      await jsonOf(
        await server.api('/api/v1/links/claim', { json: { edit_tokens: [token] }, key: gina.key }),
      ),
    ).toEqual({ claimed: 1 });
    const links = (await jsonOf(await server.api('/api/v1/links', { key: gina.key }))).links as Json[];
    expect(links.map((l) => l.short_url)).toContain(shortUrl);
  });

  it('takes alias and domain', async () => {
    const alias = uniqueAlias('plain');
    const response = await shorten({
      url: 'example.com/x',
      alias: alias.toUpperCase(),
      domain: server.hostB,
    });
    expect(response.status).toBe(201);
    expect(await response.text()).toBe(`http://${server.hostB}/${alias}`);
  });

  it('saves the link to the account and sends no edit token when a key is given', async () => {
    const response = await shorten({ url: 'https://example.com/keyed' }, gina.key);
    expect(response.status).toBe(201);
    expect(response.headers.get('x-edit-token')).toBeNull();
    const shortUrl = await response.text();
    const links = (await jsonOf(await server.api('/api/v1/links', { key: gina.key }))).links as Json[];
    expect(links.map((l) => l.short_url)).toContain(shortUrl);
  });

  it.each<[string, Record<string, string>, string]>([
    ['a missing url', {}, 'invalid_request'],
    ['an empty url', { url: '' }, 'invalid_request'],
    ['an unknown parameter', { url: 'https://example.com/', colour: 'red' }, 'invalid_request'],
    ['an ftp url', { url: 'ftp://example.com/' }, 'unsupported_scheme'],
    ['a private host', { url: 'http://127.1/' }, 'private_host'],
    ['a malformed url', { url: 'http://' }, 'invalid_url'],
    ['a bad alias', { url: 'https://example.com/', alias: 'x' }, 'slug_invalid'],
    ['a reserved alias', { url: 'https://example.com/', alias: 'admin' }, 'slug_reserved'],
    ['an unknown domain', { url: 'https://example.com/', domain: 'evil.example' }, 'domain_invalid'],
  ])('answers %s with 400 and the JSON error object', async (_name, query, code) => {
    const response = await shorten(query);
    await expectError(response, 400, code);
    expect(response.headers.get('x-edit-token')).toBeNull();
  });

  it('answers a taken alias with 400 slug_taken', async () => {
    const alias = uniqueAlias('dup');
    expect((await shorten({ url: 'https://example.com/1', alias })).status).toBe(201);
    await expectError(await shorten({ url: 'https://example.com/2', alias }), 400, 'slug_taken');
  });
});
