import { buildOpenApiDocument } from '@shortener/adapter-http';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '@shortener/app';
import { createContract } from './contract.js';
import type { Exchange } from './contract.js';

// The checker the whole HTTP suite runs through must itself find what the document does not describe.

const doc = buildOpenApiDocument(loadConfig({}).service) as Record<string, unknown>;
const check = createContract(doc);
const LINK_ID = '3f2b8c1e-6a4d-4f7b-9c2e-8d1a5b6c7e90';

function exchange(overrides: Partial<Exchange> & { json?: unknown }): Exchange {
  const { json, ...rest } = overrides;
  const headers = new Headers(json === undefined ? {} : { 'content-type': 'application/json' });
  return {
    method: 'GET',
    target: '/healthz',
    requestHeaders: {},
    requestBody: undefined,
    status: 200,
    headers,
    body: Buffer.from(json === undefined ? '' : JSON.stringify(json)),
    ...rest,
  };
}

const error = { error: { code: 'not_found', message: 'No such link.' } };

describe('the OpenAPI contract checker', () => {
  it('passes what the document describes', () => {
    expect(check(exchange({ json: { status: 'ok' } }))).toEqual([]);
    expect(check(exchange({ target: `/api/v1/links/${LINK_ID}`, status: 404, json: error }))).toEqual([]);
    const allow = new Headers({ allow: 'GET, HEAD', 'content-type': 'application/json' });
    const body = Buffer.from(JSON.stringify({ error: { code: 'invalid_request', message: 'No.' } }));
    expect(check(exchange({ method: 'PUT', status: 405, headers: allow, body }))).toEqual([]);
  });

  it('finds a status, a body, a media type and a header the document does not describe', () => {
    expect(check(exchange({ status: 418, json: { status: 'ok' } }))).toEqual([
      expect.stringContaining('status 418 is not in the document'),
    ]);
    expect(check(exchange({ json: { status: 'fine' } }))[0]).toMatch(/body: .*allowed values/);
    const html = exchange({
      headers: new Headers({ 'content-type': 'text/html' }),
      body: Buffer.from('<p>'),
    });
    expect(check(html)[0]).toMatch(/media type text\/html is not one of application\/json/);
    const redirect = exchange({ target: '/abc123', status: 302 });
    expect(check(redirect)[0]).toMatch(/required header Location is missing/);
  });

  it('finds a method answered with something else than 405 and Allow', () => {
    expect(check(exchange({ method: 'PUT', status: 200, json: { status: 'ok' } }))[0]).toMatch(
      /a method the document does not list/,
    );
    expect(check(exchange({ method: 'PUT', status: 405, json: error }))[0]).toMatch(/no Allow header/);
  });

  it('finds a request the document calls invalid that still succeeded', () => {
    const created = exchange({
      method: 'POST',
      target: '/api/v1/links',
      requestBody: JSON.stringify({ url: 'https://example.com', max_clicks: 0 }),
      status: 201,
      headers: new Headers({ 'content-type': 'application/json', location: `/api/v1/links/${LINK_ID}` }),
    });
    expect(check(created).join('\n')).toMatch(/calls the request invalid \(.*must be >= 1/);
  });
});
