import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_UA, createLink, eventually, expectError, freePort, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

// GET /metrics (issue 15): off by default, Prometheus text with METRICS=true, or on METRICS_PORT.

let server: TestServer;
let separate: TestServer;
let metricsPort: number;

beforeAll(async () => {
  metricsPort = await freePort();
  [server, separate] = await Promise.all([
    startTestServer({ METRICS: 'true', RATE_LIMIT_ANON_HOUR: '3', TRUST_PROXY: '1' }),
    startTestServer({ METRICS_PORT: String(metricsPort) }),
  ]);
});
afterAll(() => Promise.all([server.close(), separate.close()]));

const scrape = async (url: string) => {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
};

/** The value of one sample, e.g. `shortener_redirects_total{outcome="redirect"}`; 0 when absent. */
function sample(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

describe('/metrics on the main port (METRICS=true)', () => {
  it('counts redirects, cache look-ups, refusals, latencies and flushes as they happen', async () => {
    const before = await scrape(`${server.origin}/metrics`);
    const link = await createLink(
      server,
      { url: 'https://example.com/m' },
      { headers: { 'x-forwarded-for': '198.51.100.1' } },
    );
    for (let i = 0; i < 3; i++) {
      expect((await server.visit(link.short_url, { headers: { 'user-agent': BROWSER_UA } })).status).toBe(
        302,
      );
    }
    expect((await server.visit(`http://${server.hostA}/no-such-link`)).status).toBe(404);
    const create = () =>
      server.api('/api/v1/links', {
        json: { url: 'https://example.com/' },
        headers: { 'x-forwarded-for': '198.51.100.2' },
      });
    for (let i = 0; i < 3; i++) expect((await create()).status).toBe(201);
    await expectError(await create(), 429, 'rate_limited');

    const after = await eventually(async () => {
      const text = await scrape(`${server.origin}/metrics`);
      expect(sample(text, 'shortener_visits_flushed_total')).toBeGreaterThanOrEqual(3);
      return text;
    });
    const grew = (name: string) => sample(after, name) - sample(before, name);
    expect(grew('shortener_redirects_total{outcome="redirect"}')).toBe(3);
    expect(grew('shortener_redirects_total{outcome="not_found"}')).toBe(1);
    expect(
      grew('shortener_link_cache_lookups_total{result="hit"}') +
        grew('shortener_link_cache_lookups_total{result="miss"}'),
    ).toBe(4);
    expect(grew('shortener_rate_limited_total{limit="creation"}')).toBe(1);
    expect(grew('shortener_http_request_duration_seconds_count{family="api"}')).toBe(5);
    expect(grew('shortener_http_request_duration_seconds_count{family="redirect"}')).toBe(4);
    expect(sample(after, 'shortener_visit_flush_duration_seconds_count')).toBeGreaterThan(0);
    expect(after).toMatch(/^shortener_visits_buffered \d+$/m);
    expect(after).toMatch(/^shortener_visits_dropped_total 0$/m);
    expect(after).toMatch(/^process_cpu_seconds_total /m);
    expect(after).toMatch(/^nodejs_eventloop_lag_seconds /m);
    // no address and no slug anywhere
    expect(after).not.toContain(link.slug as string);
    expect(after).not.toMatch(/198\.51\.100|127\.0\.0\.1/);
  });

  it('reserves the alias `metrics`', async () => {
    await expectError(
      await server.api('/api/v1/links', {
        json: { url: 'https://example.com/', alias: 'metrics' },
        headers: { 'x-forwarded-for': '198.51.100.3' },
      }),
      400,
      'slug_reserved',
    );
  });
});

describe('/metrics with another method', () => {
  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])(
    'answers %s /metrics with 405, Allow: GET, HEAD and the error object',
    async (method) => {
      const response = await server.api('/metrics', {
        method,
        headers: { 'x-forwarded-for': '198.51.100.4' },
      });
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      await expectError(response, 405, 'invalid_request');
    },
  );

  it('answers HEAD /metrics like GET, without a body', async () => {
    const response = await server.api('/metrics', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('matches /metrics on the path alone, whatever the query string', async () => {
    for (const path of ['/metrics?x=1', '/metrics?', '/metrics?lang=de&a=b']) {
      const response = await server.api(path);
      expect([path, response.status]).toStrictEqual([path, 200]);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    }
  });

  it('answers the same on METRICS_PORT', async () => {
    const url = `http://127.0.0.1:${metricsPort}/metrics`;
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await fetch(url, { method });
      expect(response.headers.get('allow'), method).toBe('GET, HEAD');
      await expectError(response, 405, 'invalid_request');
    }
    const head = await fetch(url, { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });
});

describe('/metrics on METRICS_PORT', () => {
  it('serves the metrics on their own port, and nothing else there', async () => {
    const text = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(text).toContain('shortener_redirects_total');
    expect((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status).toBe(404);
  });

  it('leaves /metrics on the main port to links', async () => {
    const link = await createLink(separate, { url: 'https://example.com/', alias: 'metrics' });
    expect((await separate.visit(link.short_url)).status).toBe(302);
  });
});

describe('/metrics without METRICS', () => {
  it('is not there', async () => {
    const plain = await startTestServer();
    try {
      expect((await plain.visit(`http://${plain.hostA}/metrics`)).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
