import { HTTP_STATUS } from '@shortener/adapter-http';
import { ERROR_CODES } from '@shortener/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink, errorOf, expectError, expectSane, jsonOf, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const MIB = 1024 * 1024;

describe('HTTP_STATUS', () => {
  // decisions §6, one row per code
  const expected: [string, number][] = [
    ['invalid_url', 400],
    ['unsupported_scheme', 400],
    ['private_host', 400],
    ['self_reference', 400],
    ['unsafe_url', 400],
    ['slug_invalid', 400],
    ['slug_reserved', 400],
    ['slug_taken', 400],
    ['domain_invalid', 400],
    ['too_many', 400],
    ['invalid_request', 400],
    ['validation_error', 400],
    ['unauthorized', 401],
    ['forbidden', 403],
    ['not_found', 404],
    ['idempotency_key_in_use', 409],
    ['domain_taken', 409],
    ['domain_in_use', 409],
    ['last_owner', 409],
    ['idempotency_key_reused', 422],
    ['rate_limited', 429],
    ['internal_error', 500],
    ['unavailable', 503],
  ];

  it.each(expected)('maps %s to %i', (code, status) => {
    expect(HTTP_STATUS[code as keyof typeof HTTP_STATUS]).toBe(status);
  });

  it('has a status for every error code and no other entries', () => {
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...ERROR_CODES].sort());
    expect(expected.map(([code]) => code).sort()).toEqual([...ERROR_CODES].sort());
  });
});

describe('request bodies', () => {
  it('refuses a body over 1 MiB with 413 invalid_request', async () => {
    const body = JSON.stringify({ url: 'https://example.com/', title: 'x'.repeat(MIB) });
    const response = await server.api('/api/v1/links', {
      body,
      headers: { 'content-type': 'application/json' },
    });
    await expectError(response, 413, 'invalid_request');
  });

  it('refuses a chunked body over 1 MiB without Content-Length with 413 invalid_request', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 2 * MIB) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${server.origin}/api/v1/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expectSane(response);
    await expectError(response, 413, 'invalid_request');
    // the unread rest of the body must not wedge the next request
    expect(await jsonOf(await server.api('/healthz'))).toEqual({ status: 'ok' });
  });

  it('accepts a body just under 1 MiB as far as size goes', async () => {
    const body = JSON.stringify({ url: 'https://example.com/', title: 'x'.repeat(MIB - 100) });
    const response = await server.api('/api/v1/links', {
      body,
      headers: { 'content-type': 'application/json' },
    });
    await expectError(response, 400, 'invalid_request'); // the title is too long, the size is fine
  });

  it.each(['application/xml', 'multipart/form-data; boundary=x', 'image/png'])(
    'refuses a body sent as %s with 415 and the error object',
    async (type) => {
      const response = await server.api('/api/v1/links', {
        body: '{"url":"https://example.com/"}',
        headers: { 'content-type': type },
      });
      await expectError(response, 415, 'invalid_request');
    },
  );

  it('refuses malformed JSON with 400 invalid_request', async () => {
    for (const body of ['{"url":', "{'url':'https://example.com'}", '{"url":"https://example.com/"}}']) {
      const response = await server.api('/api/v1/links', {
        body,
        headers: { 'content-type': 'application/json' },
      });
      await expectError(response, 400, 'invalid_request');
    }
  });

  it('refuses a missing body with 400 invalid_request', async () => {
    await expectError(await server.api('/api/v1/links', { method: 'POST' }), 400, 'invalid_request');
    const empty = await server.api('/api/v1/links', {
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    await expectError(empty, 400, 'invalid_request');
  });

  it('answers body errors on PATCH, bulk and claim the same way', async () => {
    const link = await createLink(server, { url: 'https://example.com/' });
    const xml = { 'content-type': 'application/xml' };
    const patchXml = await server.api(`/api/v1/links/${link.id}`, {
      method: 'PATCH',
      body: '<title/>',
      headers: xml,
      token: link.edit_token,
    });
    await expectError(patchXml, 415, 'invalid_request');
    const bulk = await server.api('/api/v1/bulk', {
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    await expectError(bulk, 400, 'invalid_request');
    const patchEmpty = await server.api(`/api/v1/links/${link.id}`, {
      method: 'PATCH',
      token: link.edit_token,
    });
    await expectError(patchEmpty, 400, 'invalid_request');
  });
});

describe('routing', () => {
  it('answers GET /healthz with 200 {status: "ok"}', async () => {
    const response = await server.api('/healthz');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await jsonOf(response)).toEqual({ status: 'ok' });
  });

  it('serves the OpenAPI 3.1 document, version 1.0.0, and llms.txt', async () => {
    const doc = await jsonOf(await server.api('/openapi.json'));
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/links', '/api/shorten']));
    const llms = await server.api('/llms.txt');
    expect(llms.status).toBe(200);
    expect((await llms.text()).length).toBeGreaterThan(0);
  });

  it.each([
    ['GET', '/api/v1/nope'],
    ['GET', '/api/v2/links'],
    ['POST', '/api/v1/unknown'],
    ['GET', '/api/v1/links/00000000-0000-4000-8000-000000000000/unknown'],
    ['GET', '/api/unknown'],
  ])('answers %s %s with 404 and the error object', async (method, path) => {
    await expectError(await server.api(path, { method }), 404, 'not_found');
  });

  it.each([
    ['PUT', '/api/v1/links'],
    ['DELETE', '/api/v1/links'],
    ['PATCH', '/api/v1/links'],
    ['POST', '/api/v1/links/00000000-0000-4000-8000-000000000000'],
    ['PUT', '/api/v1/links/00000000-0000-4000-8000-000000000000'],
    ['POST', '/api/v1/links/00000000-0000-4000-8000-000000000000/stats'],
    ['POST', '/api/v1/check'],
    ['GET', '/api/v1/bulk'],
    ['POST', '/api/shorten'],
    ['POST', '/healthz'],
    ['POST', '/openapi.json'],
    ['POST', '/docs'],
    ['POST', '/llms.txt'],
  ])('answers %s %s with 405 and the error object', async (method, path) => {
    const response = await server.api(path, { method });
    expect(response.status).toBe(405);
    await errorOf(response);
  });

  it.each([
    ['a bad percent-encoding', '/%ff'],
    ['a bad percent-encoding in an id', '/api/v1/links/%zz'],
    ['a 5000-character path', `/${'a'.repeat(5000)}`],
    ['a repeated query parameter', '/api/v1/check?slug=a&slug=b'],
    ['an array query parameter', '/api/v1/check?slug[]=a'],
    ['a repeated url', '/api/shorten?url=https://example.com/&url=https://example.org/'],
    ['an encoded path traversal', '/..%2f..%2fetc%2fpasswd'],
    ['an unknown .json query', '/abc.json?x=1'],
    ['an overflowing number', '/api/v1/links/00000000-0000-4000-8000-000000000000/stats?days=1e400'],
  ])('answers %s without a server error', async (_name, path) => {
    const response = await server.api(path);
    expect(response.status).toBeGreaterThanOrEqual(200);
    if (
      (response.headers.get('content-type') ?? '').startsWith('application/json') &&
      response.status >= 400
    ) {
      await errorOf(response);
    }
  });

  it('never sets a cookie nor answers 5xx (checked on every response of the suite)', async () => {
    const response = await server.api('/healthz');
    expectSane(response);
  });
});
