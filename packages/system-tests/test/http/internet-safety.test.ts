import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSER_UA,
  createLink,
  errorOf,
  eventually,
  expectError,
  jsonOf,
  startTestServer,
  uniqueAlias,
} from './harness.js';
import type { Json, TestServer } from './harness.js';

// Decisions §9 on the real server: the client address behind proxies, /mcp's Origin check, 405 for every
// method a path does not take, and the security headers of the pages.

let server: TestServer;
let proxied: TestServer;

beforeAll(async () => {
  [server, proxied] = await Promise.all([
    startTestServer({ MCP_ALLOWED_ORIGINS: 'https://agent.example' }),
    startTestServer({ TRUST_PROXY: '1', RATE_LIMIT_ANON_HOUR: '2', RATE_LIMIT_IPV6_PREFIX: '64' }),
  ]);
});
afterAll(() => Promise.all([server.close(), proxied.close()]));

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const MCP_ACCEPT = { accept: 'application/json, text/event-stream' };
const mcp = (headers: Record<string, string>, target = server) =>
  target.visit(`http://${target.hostA}/mcp`, {
    json: initialize,
    headers: { accept: 'application/json, text/event-stream', ...headers },
  });

describe('/mcp Origin validation', () => {
  it('refuses a foreign Origin with 403 and a JSON-RPC error, also with a matching Host', async () => {
    const response = await server.visit('http://evil.example.com/mcp', {
      json: initialize,
      headers: { accept: 'application/json, text/event-stream', origin: 'http://evil.example.com' },
    });
    expect(response.status).toBe(403);
    const body = (await response.json()) as Json;
    expect(body).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 }, id: null });
    expect(body.result).toBeUndefined();
    expect((await mcp({ origin: 'null' })).status).toBe(403);
  });

  it("accepts {base_url}'s origin, a short domain's, a listed one, and no Origin at all", async () => {
    for (const origin of [
      new URL(server.baseUrl).origin,
      `http://${server.hostB}`,
      'https://agent.example',
    ]) {
      const response = await mcp({ origin });
      expect(response.status, origin).toBe(200);
      expect(((await response.json()) as Json).result.serverInfo.name).toBe('shortener');
    }
    expect((await mcp({})).status).toBe(200);
  });
});

describe('methods', () => {
  it.each([
    ['PROPFIND', '/', 'GET, HEAD, POST'],
    ['TRACE', '/abc', 'GET, HEAD, POST'],
    ['MKCOL', '/api/v1/links', 'GET, HEAD, POST'],
    ['PROPFIND', '/mcp', 'POST'],
    ['TRACE', '/healthz', 'GET, HEAD'],
    ['SEARCH', '/no/such/path', 'GET, HEAD'],
    ['PURGE', '/abc.png', 'GET, HEAD, POST'],
  ])('answers %s %s with 405, Allow and the error object', async (method, path, allow) => {
    const response = await server.visit(`http://${server.hostA}${path}`, { method });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe(allow);
    await expectError(response, 405, 'invalid_request');
  });

  it('answers OPTIONS with 204 and Allow', async () => {
    const response = await server.api('/api/v1/links', { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('answers a request line Node cannot parse with 400 and the error object', async () => {
    const answer = await rawExchange(server.port, 'BREW /coffee HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).error.code).toBe('invalid_request');
  });
});

describe('security headers (decisions §9)', () => {
  it('keeps the home page out of frames and sends the origin only to other sites', async () => {
    const response = await server.api('/');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('strict-transport-security')).toBeNull(); // {base_url} is http here
  });

  it('sends no referrer from link pages', async () => {
    const link = await createLink(server, { url: 'https://example.com/', password: 'hunter22' });
    for (const url of [link.short_url, link.preview_url, `http://${server.hostA}/${uniqueAlias()}`]) {
      const response = await server.visit(url);
      expect(response.headers.get('referrer-policy'), url).toBe('no-referrer');
      expect(response.headers.get('x-frame-options'), url).toBe('DENY');
      expect(response.headers.get('content-security-policy'), url).toContain("frame-ancestors 'none'");
    }
  });

  it('counts a click through the password form as direct, not as a visit from the shortener', async () => {
    const link = await createLink(server, { url: 'https://example.com/', password: 'hunter22' });
    const passed = await server.visit(link.short_url, {
      method: 'POST',
      body: 'password=hunter22',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        referer: link.short_url,
        'user-agent': BROWSER_UA,
      },
    });
    expect(passed.status).toBe(302);
    const stats = await eventually(async () => {
      const read = await jsonOf(await server.api(`/api/v1/links/${String(link.id)}/stats`));
      expect(read.total).toBe(1);
      return read;
    });
    expect(stats.referrers).toEqual([{ key: 'direct', count: 1 }]);
  });

  it('sends HSTS when {base_url} is https and the client came over https', async () => {
    const secure = await startTestServer({ PUBLIC_BASE_URL: 'https://sho.example', TRUST_PROXY: '1' });
    try {
      const forwarded = { 'x-forwarded-for': '198.51.100.9' };
      const overHttps = await secure.api('/', { headers: { ...forwarded, 'x-forwarded-proto': 'https' } });
      expect(overHttps.headers.get('strict-transport-security')).toMatch(/^max-age=\d{8}/);
      const overHttp = await secure.api('/', { headers: { ...forwarded, 'x-forwarded-proto': 'http' } });
      expect(overHttp.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await secure.close();
    }
  });

  it('sends HSTS on every answer over https, link pages, error pages and refusals included', async () => {
    const secure = await startTestServer({ PUBLIC_BASE_URL: 'https://sho.example', TRUST_PROXY: '1' });
    try {
      const https = { 'x-forwarded-for': '198.51.100.9', 'x-forwarded-proto': 'https' };
      const hsts = (response: Response) => response.headers.get('strict-transport-security');
      const locked = await createLink(secure, { url: 'https://example.com/', password: 'hunter22' });
      const open = await createLink(secure, { url: 'https://example.com/', max_clicks: 1 });
      const short = (path: string) => `http://${secure.hostA}${path}`;
      const answers: [string, Promise<Response>][] = [
        ['the password form', secure.visit(locked.short_url, { headers: https })],
        [
          'a wrong password',
          secure.visit(locked.short_url, {
            method: 'POST',
            body: 'password=wrong',
            headers: { ...https, 'content-type': 'application/x-www-form-urlencoded' },
          }),
        ],
        ['the short-domain 404 page', secure.visit(short(`/${uniqueAlias()}`), { headers: https })],
        [
          'the 404 error object',
          secure.visit(short(`/${uniqueAlias()}`), {
            headers: { ...https, accept: 'application/json' },
          }),
        ],
        ['a redirect', secure.visit(open.short_url, { headers: { ...https, 'user-agent': BROWSER_UA } })],
        ['a redirect to HEAD', secure.visit(open.short_url, { method: 'HEAD', headers: https })],
        ['a 405', secure.visit(short('/'), { method: 'PROPFIND', headers: https })],
        ['an API error', secure.api('/api/v1/links', { json: { url: 'nope://x' }, headers: https })],
        [
          'a query of too many parameters',
          secure.api(`/api/v1/check?slug=a${'&p=1'.repeat(120)}`, { headers: https }),
        ],
        ['/mcp', secure.api('/mcp', { json: initialize, headers: { ...https, ...MCP_ACCEPT } })],
      ];
      for (const [what, answer] of answers) {
        const response = await answer;
        expect(response.status, what).toBeLessThan(500);
        expect(hsts(response), what).toMatch(/^max-age=\d{8}/);
      }
      expect((await answers[4]![1]).status).toBe(302);
      // over plain http, as the trusted proxy says, none of them
      const http = { 'x-forwarded-for': '198.51.100.9', 'x-forwarded-proto': 'http' };
      for (const url of [locked.short_url, short(`/${uniqueAlias()}`)]) {
        expect(hsts(await secure.visit(url, { headers: http })), url).toBeNull();
      }
    } finally {
      await secure.close();
    }
  });
});

describe('the client address behind one trusted proxy', () => {
  const create = (forwardedFor: string) =>
    proxied.api('/api/v1/links', {
      json: { url: 'https://example.com/' },
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('limits a client by the entry its proxy appended, whatever it forged to the left', async () => {
    const real = '198.51.100.20';
    for (const forged of ['203.0.113.1', '203.0.113.2'])
      expect((await create(`${forged}, ${real}`)).status).toBe(201);
    for (let n = 3; n < 8; n++) {
      await expectError(await create(`203.0.113.${n}, ${real}`), 429, 'rate_limited');
    }
    expect((await create('198.51.100.21')).status).toBe(201); // another client still has its budget
  });

  it('counts IPv6 clients by their /64', async () => {
    await jsonOf(await create('2001:db8:aa:1::1'), 201);
    await jsonOf(await create('2001:db8:aa:1:ffff::2'), 201);
    await expectError(await create('2001:db8:aa:1:1234::3'), 429, 'rate_limited');
    await jsonOf(await create('2001:db8:aa:2::1'), 201);
  });

  it('throttles password tries by the real client too', async () => {
    const link = await createLink(
      proxied,
      { url: 'https://example.com/', password: 'hunter22' },
      {
        headers: { 'x-forwarded-for': '198.51.100.40' },
      },
    );
    const guess = (n: number) =>
      proxied.visit(link.short_url, {
        method: 'POST',
        body: 'password=wrong',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'x-forwarded-for': `203.0.113.${n}, 198.51.100.41`,
        },
      });
    for (let n = 0; n < 10; n++) expect((await guess(n)).status).toBe(401);
    const refused = await guess(10);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    await errorOf(refused);
  });
});

/** Writes raw bytes to the server and reads until it closes the connection. */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}
