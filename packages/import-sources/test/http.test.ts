import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sleep } from '../src/http.js';
import { createHttpClient, retryDelay } from '../src/http.js';
import { failure } from './collect.js';
import type { StandIn, StandInRequest } from './stand-ins/loopback.js';
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

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as AddressInfo;
  await new Promise((resolve) => listener.close(resolve));
  return port;
}

describe('a remote source that drops connections or fails with 5xx (decisions §25)', () => {
  let server: StandIn;
  let idle: StandIn;
  /** Requests of each path so far, so a path fails its first few times only. */
  const seen = new Map<string, number>();
  /** `/flaky-N-M`: its first N requests cut, the M after those answered 503; `/down` always 503. */
  const failing = (request: StandInRequest): 'close' | number | null => {
    const count = (seen.get(request.path) ?? 0) + 1;
    seen.set(request.path, count);
    if (request.path === '/down') return 503;
    if (request.path === '/cut') return 'close';
    const [, cut = 0, busy = 0] = (/^\/flaky-(\d+)-(\d+)$/.exec(request.path) ?? []).map(Number);
    return count <= cut ? 'close' : count <= cut + busy ? 503 : null;
  };
  beforeAll(async () => {
    server = await startStandIn(() => ({ status: 200, body: { ok: true } }), { failing });
    // it closes a keep-alive connection idle for more than 100 ms, as a real one does after 5 s
    idle = await startStandIn(() => ({ status: 200, body: { ok: true } }), { idleCloseMs: 100 });
  });
  afterAll(async () => {
    await server.close();
    await idle.close();
  });
  const host = () => new URL(server.url).host;
  const client = (waits: number[] = [], url = server.url) =>
    createHttpClient(
      'Test',
      {
        url,
        fetch,
        retryBaseMs: 1,
        sleep: async (ms) => void waits.push(ms),
      },
      {},
    );

  it('tries a request again on a connection the server closed while it stood idle', async () => {
    const http = client([], idle.url);
    expect(await http.getJson('/first')).toEqual({ ok: true });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // fetch sends the next request on the kept connection, which the server has closed meanwhile
    expect(await http.getJson('/second')).toEqual({ ok: true });
  });

  it('tries again after cut connections and 5xx, waiting twice as long each time', async () => {
    const waits: number[] = [];
    expect(await client(waits).getJson('/flaky-2-2')).toEqual({ ok: true });
    expect(waits).toEqual([1, 2, 4, 8]);
    expect(seen.get('/flaky-2-2')).toBe(5);
  });

  it('gives up after 5 retries, naming the host and what failed', async () => {
    const waits: number[] = [];
    const cut = await failure(client(waits).getJson('/cut'));
    expect(cut.message).toBe(`${host()}: connection closed by the server (after 5 retries)`);
    expect(waits).toEqual([1, 2, 4, 8, 16]);
    expect(seen.get('/cut')).toBe(6);
    const down = await failure(client().getJson('/down'));
    expect(down.message).toBe(
      `${host()}: Test answered 503 Service Unavailable to GET /down: the request failed (after 5 retries)`,
    );
    const closed = await closedPort();
    const refused = await failure(
      createHttpClient('Test', { url: `http://127.0.0.1:${closed}`, fetch, retryBaseMs: 1 }, {}).getJson('/'),
    );
    expect(refused.message).toBe(`127.0.0.1:${closed}: connection refused (after 5 retries)`);
  });

  it('the default waits are 0.5, 1, 2, 4 and 8 s', async () => {
    const waits: number[] = [];
    const http = createHttpClient(
      'Test',
      { url: server.url, fetch, sleep: async (ms) => void waits.push(ms) },
      {},
    );
    await failure(http.getJson('/down'));
    expect(waits).toEqual([500, 1000, 2000, 4000, 8000]);
  });
});
