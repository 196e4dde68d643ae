import { RESERVED_SLUGS } from '@shortener/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink, expectError, startTestServer, tempFile } from './harness.js';
import type { Json, TestServer } from './harness.js';

// Creation input the service refuses (decisions §3, §5 and §6): always 400 with the code of the rule.

let server: TestServer;
/** A server with public short domains and base URL, so that self-references are not private hosts. */
let publicServer: TestServer;

beforeAll(async () => {
  [server, publicServer] = await Promise.all([
    startTestServer({ RATE_LIMIT_ANON_HOUR: '10000', RATE_LIMIT_ANON_DAY: '10000' }),
    startTestServer({
      SHORT_DOMAINS: 'https://s.example,http://t.example:8080',
      PUBLIC_BASE_URL: 'https://go.example',
      BLOCKLIST_FILE: tempFile('blocklist.txt', '# phishing\nbad.example\n\nmalware.test\n'),
      RESERVED_SLUGS: 'pricing,blog',
    }),
  ]);
});
afterAll(() => Promise.all([server.close(), publicServer.close()]));

const create = (target: TestServer, body: Json) => target.api('/api/v1/links', { json: body });
const DAY = 86_400_000;

describe('URL rules', () => {
  it.each([
    ['a scheme without a host', 'http://'],
    ['credentials in the URL', 'https://user:secret@example.com/'],
    ['a space in the host', 'https://exa mple.com/'],
    ['an empty label', 'https://example..com/'],
    ['more than 4096 characters', `https://example.com/${'a'.repeat(4100)}`],
  ])('refuses %s with invalid_url', async (_name, url) => {
    const error = await expectError(await create(server, { url }), 400, 'invalid_url');
    expect(error.field).toBe('url');
  });

  it.each([
    'ftp://example.com/file',
    'javascript:alert(1)',
    'mailto:someone@example.com',
    'file:///etc/passwd',
  ])('refuses %s with unsupported_scheme', async (url) => {
    await expectError(await create(server, { url }), 400, 'unsupported_scheme');
  });

  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://10.1.2.3/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://100.64.0.1/',
    'http://[fd12:3456::1]/',
    'http://[fe80::1]/',
    'http://0.0.0.0/',
    'http://224.0.0.1/',
    'http://localhost/',
    'http://localhost:8080/admin',
    'http://app.localhost/',
    'http://printer.local/',
    'http://db.internal/',
    'http://nas.home.arpa/',
  ])('refuses the private host of %s with private_host', async (url) => {
    await expectError(await create(server, { url }), 400, 'private_host');
  });

  it('treats the default short domains (localhost, 127.0.0.1) as private hosts first', async () => {
    await expectError(await create(server, { url: `http://${server.hostA}/x` }), 400, 'private_host');
    await expectError(await create(server, { url: `http://${server.hostB}/x` }), 400, 'private_host');
  });

  it.each([
    ['the default short domain', 'https://s.example/abc'],
    ['the second short domain', 'http://t.example:8080/abc'],
    ['the base URL', 'https://go.example/api/v1/links'],
    ['a short domain without its scheme', 's.example/abc'],
    ['a short domain in upper case', 'HTTPS://S.EXAMPLE/abc'],
  ])('refuses a link to %s with self_reference', async (_name, url) => {
    await expectError(await create(publicServer, { url }), 400, 'self_reference');
  });

  it('does not count another port of a short host as a self-reference', async () => {
    await createLink(publicServer, { url: 'http://t.example:9090/abc' });
  });

  it.each(['https://bad.example/login', 'https://www.bad.example/', 'http://a.b.malware.test/x'])(
    'refuses %s, on the BLOCKLIST_FILE or under a domain on it, with unsafe_url',
    async (url) => {
      await expectError(await create(publicServer, { url }), 400, 'unsafe_url');
    },
  );

  it('lets through a domain that only ends like a blocked one', async () => {
    await createLink(publicServer, { url: 'https://notbad.example/' });
  });
});

describe('alias rules', () => {
  it.each(['a', 'x'.repeat(41), 'has space', 'dots.are.out', 'ümlaut', 'slash/no', 'emoji-🙂'])(
    'refuses the alias %j with slug_invalid',
    async (alias) => {
      await expectError(await create(server, { url: 'https://example.com/', alias }), 400, 'slug_invalid');
    },
  );

  it('accepts aliases of 2 and of 40 characters', async () => {
    const two = `${String.fromCharCode(97 + Math.floor(Math.random() * 26))}${Math.floor(Math.random() * 10)}`;
    await createLink(server, { url: 'https://example.com/', alias: two });
    await createLink(server, { url: 'https://example.com/', alias: `a_-${Date.now()}`.padEnd(40, 'z') });
  });

  it.each([...RESERVED_SLUGS, 'API'])('refuses the reserved alias %s with slug_reserved', async (alias) => {
    await expectError(await create(server, { url: 'https://example.com/', alias }), 400, 'slug_reserved');
  });

  it("refuses the operator's extra reserved slugs with slug_reserved", async () => {
    const response = await create(publicServer, { url: 'https://example.com/', alias: 'pricing' });
    await expectError(response, 400, 'slug_reserved');
  });

  it('refuses an alias already used on the domain with slug_taken', async () => {
    await createLink(server, { url: 'https://example.com/', alias: 'taken-once' });
    const again = await create(server, { url: 'https://example.org/', alias: 'Taken-Once' });
    await expectError(again, 400, 'slug_taken');
  });

  it('refuses a domain that is not a short domain with domain_invalid', async () => {
    const response = await create(server, { url: 'https://example.com/', domain: 'evil.example' });
    await expectError(response, 400, 'domain_invalid');
  });
});

describe('other fields', () => {
  const future = new Date(Date.now() + DAY).toISOString();
  const past = new Date(Date.now() - DAY).toISOString();

  it.each<[string, Json]>([
    ['a title over 200 characters', { title: 't'.repeat(201) }],
    ['a password of 3 characters', { password: 'abc' }],
    ['a password of 65 characters', { password: 'p'.repeat(65) }],
    ['expires_in_days 0', { expires_in_days: 0 }],
    ['expires_in_days under 0.01', { expires_in_days: 0.009 }],
    ['expires_in_days over 3650', { expires_in_days: 3651 }],
    ['expires_in_days as a string', { expires_in_days: '5' }],
    ['both expires_in_days and expires_at', { expires_in_days: 1, expires_at: future }],
    ['expires_at in the past', { expires_at: past }],
    ['expires_at that is not a date-time', { expires_at: 'tomorrow' }],
    ['max_clicks 0', { max_clicks: 0 }],
    ['max_clicks 1.5', { max_clicks: 1.5 }],
    ['public_stats as a string', { public_stats: 'yes' }],
    ['an unknown field', { colour: 'blue' }],
  ])('refuses %s with invalid_request', async (_name, extra) => {
    await expectError(
      await create(server, { url: 'https://example.com/', ...extra }),
      400,
      'invalid_request',
    );
  });

  it.each<[string, Json | unknown[] | string | null]>([
    ['a body without url', { title: 'no url' }],
    ['an empty url', { url: '' }],
    ['a url that is not a string', { url: 42 }],
    ['a JSON array', ['https://example.com/']],
    ['a JSON string', 'https://example.com/'],
    ['JSON null', null],
  ])('refuses %s with invalid_request', async (_name, body) => {
    const response = await server.api('/api/v1/links', { body: JSON.stringify(body), headers: json });
    await expectError(response, 400, 'invalid_request');
  });

  it('accepts the boundaries: title of 200, passwords of 4 and 64, expiry of 0.01 and 3650 days', async () => {
    await createLink(server, { url: 'https://example.com/', title: 't'.repeat(200) });
    await createLink(server, { url: 'https://example.com/', password: 'abcd' });
    await createLink(server, { url: 'https://example.com/', password: 'p'.repeat(64) });
    await createLink(server, { url: 'https://example.com/', expires_in_days: 0.01 });
    await createLink(server, { url: 'https://example.com/', expires_in_days: 3650 });
    await createLink(server, { url: 'https://example.com/', max_clicks: 1 });
  });
});

const json = { 'content-type': 'application/json' };
