import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sleep } from '../src/http.js';
import { createHttpClient, retryDelay } from '../src/http.js';
import { failure } from './collect.js';
import type { StandIn } from './stand-ins/loopback.js';
import { startStandIn } from './stand-ins/loopback.js';

describe('the HTTP client of the remote sources', () => {
  let server: StandIn;
  beforeAll(async () => {
    server = await startStandIn((request) => {
      if (request.path === '/moved')
        return { status: 301, headers: { location: 'https://elsewhere.example/api' } };
      if (request.path === '/text') return { status: 200, type: 'text/html', body: '<html>' };
      if (request.path === '/busy') return { status: 429, headers: { 'retry-after': '0' } };
      return { status: 200, body: { ok: true } };
    });
  });
  afterAll(() => server.close());
  const client = (sleep: Sleep = async () => {}) =>
    createHttpClient('Test', { url: `${server.url}/`, fetch, sleep }, { 'X-Key': 'secret-key' });

  it('does not follow a redirect, which would carry the key elsewhere, and says where it led', async () => {
    const error = await failure(client().getJson('/moved'));
    expect(error.message).toBe(
      'Test answered 301 Moved Permanently to GET /moved: a redirect to https://elsewhere.example/api: give the address it leads to',
    );
    expect(server.requests.filter((request) => request.path === '/moved')).toHaveLength(1);
  });

  it('says when an answer is not JSON', async () => {
    await expect(client().getJson('/text')).rejects.toThrow('Test did not answer JSON to GET /text');
  });

  it('gives up on a server that keeps answering 429, after waiting eight times', async () => {
    const waits: number[] = [];
    const error = await failure(
      client(async (ms) => {
        waits.push(ms);
      }).getJson('/busy'),
    );
    expect(error.message).toBe('Test answered 429 Too Many Requests to GET /busy: the request failed');
    expect(waits).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(error.message).not.toContain('secret-key');
  });

  it('waits as Retry-After says, in seconds or as a date, else doubles from a second, at most a minute', () => {
    expect(retryDelay('3', 0)).toBe(3000);
    expect(retryDelay('Thu, 01 Jan 2026 00:00:10 GMT', 0, Date.parse('2026-01-01T00:00:00Z'))).toBe(10_000);
    expect([0, 1, 2, 10].map((attempt) => retryDelay(null, attempt))).toEqual([1000, 2000, 4000, 60_000]);
    expect(retryDelay('3600', 0)).toBe(60_000);
  });
});
