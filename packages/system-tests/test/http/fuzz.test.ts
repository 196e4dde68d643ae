import { Agent, request } from 'node:http';
import { seededFloats } from '@shortener/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink, startTestServer } from './harness.js';
import type { Json, TestServer } from './harness.js';

// A seeded fuzz of the real server (decisions §9: a client's fault is never a 5xx): odd methods, paths,
// headers and bodies. SHORTENER_FUZZ_SEED replays a run; SHORTENER_FUZZ_REQUESTS sets its length.

const SEED = Number(process.env.SHORTENER_FUZZ_SEED ?? 20261123);
const REQUESTS = Number(process.env.SHORTENER_FUZZ_REQUESTS ?? 1000);
const CONCURRENCY = 4;

const METHODS = [
  ...['GET', 'GET', 'GET', 'GET', 'POST', 'POST', 'POST', 'POST', 'HEAD', 'HEAD', 'PATCH', 'DELETE'],
  ...['PUT', 'OPTIONS', 'PROPFIND', 'TRACE', 'MKCOL', 'COPY', 'LOCK', 'SEARCH', 'PURGE', 'CONNECT'],
];

const STRANGE = ['', 'a', '%ff', '%00', '..%2f..%2fetc%2fpasswd', '%E2%82%AC', 'x'.repeat(300), '+', '.json']
  .concat(['.png', '.svg', 'ABC', '_-', '%2B', '"><svg>', "'", 'null', '0', '-1', '1e400', '[]'])
  // text PostgreSQL refuses (NUL) and UTF-8 of a lone surrogate (decoded to U+FFFD, or refused)
  .concat(['a%00b', '%ED%A0%80', '%00.json', '%00.png', '%00%2B']);

/** Text no store may see as it is: NUL (PostgreSQL refuses it) and lone UTF-16 surrogates. */
const MALFORMED = ['\u0000', 'a\u0000b', 'a\ud800b', '\udc00', 'x\ud83d', '\ud800\u0000'];
/** Fields of the API's bodies that carry free text to a store. */
const TEXT_FIELDS = ['title', 'alias', 'utm_source', 'utm_campaign', 'password', 'domain', 'url', 'name'];

type Pick = <T>(items: readonly T[]) => T;

function pathOf(pick: Pick, slugs: readonly string[], random: () => number): string {
  const word = () => pick(STRANGE);
  const query = () =>
    random() < 0.5
      ? ''
      : `?${pick(['lang', 'days', 'size', 'fg', 'slug', 'url', 'q', 'limit', 'cursor', 'a'])}=${word()}`;
  const uuid = '00000000-0000-4000-8000-000000000000';
  const paths = [
    () => `/${pick(slugs)}`,
    () => `/${pick(slugs)}${pick(['+', '.json', '.png', '.svg', '%2B'])}`,
    () => `/${word()}`,
    () => `/api/v1/links${pick(['', `/${uuid}`, `/${word()}`, `/${uuid}/stats`, '/claim'])}`,
    () => `/api/v1/${pick(['check', 'bulk', 'keys', 'links', 'nothing', 'webhooks', 'tags'])}`,
    () => `/api/v1/${pick(['links', 'webhooks', 'keys', 'tags'])}/${word()}${pick(['', '/stats', '/test'])}`,
    () => `/api/shorten`,
    () => pick(['/mcp', '/healthz', '/openapi.json', '/llms.txt', '/', '/assets/app.css', '//', '/./x']),
    () => `/${word()}/${word()}/${word()}`,
  ];
  return pick(paths)() + query();
}

function headersOf(pick: Pick, random: () => number): Record<string, string> {
  const all: [string, () => string][] = [
    [
      'accept',
      () =>
        pick(['application/json', 'text/html', '*/*', 'application/json, text/event-stream', 'x/y;q=abc']),
    ],
    [
      'content-type',
      () =>
        pick([
          'application/json',
          'application/x-www-form-urlencoded',
          'text/plain',
          'multipart/form-data; boundary=x',
          'application/xml',
          ';;;',
          'application/json; charset=latin1',
        ]),
    ],
    [
      'authorization',
      () =>
        pick([
          'Bearer shk_' + 'a'.repeat(32),
          'Bearer',
          'Basic Zm9vOmJhcg==',
          'Bearer ' + 'x'.repeat(500),
          'bearer  shk_',
        ]),
    ],
    ['x-edit-token', () => pick(['et_' + 'b'.repeat(32), '', 'x'.repeat(200), 'et_'])],
    ['origin', () => pick(['http://evil.example', 'null', 'http://localhost', 'file://'])],
    [
      'x-forwarded-for',
      () => pick(['203.0.113.9', 'garbage', '1.2.3.4, 5.6.7.8', '::1', ', ,', '999.1.1.1']),
    ],
    ['x-forwarded-proto', () => pick(['https', 'gopher', 'http, https'])],
    ['accept-language', () => pick(['de;q=0.9,fr;q=abc', '*', 'xx-YY', ';q=1', 'es-ES,es;q=0.9'])],
    ['referer', () => pick(['https://example.com/a', 'not a url', 'android-app://x', 'http://[::1]/'])],
    [
      'user-agent',
      () => pick(['curl/8', 'Googlebot/2.1', '', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)']),
    ],
    ['if-none-match', () => pick(['"x"', '*', 'W/"y"'])],
    ['range', () => pick(['bytes=0-1', 'bytes=-', 'lines=1-2'])],
    ['upgrade', () => pick(['websocket', 'h2c'])],
    ['cf-ipcountry', () => pick(['DE', 'XX', '<>', 'T1'])],
  ];
  const headers: Record<string, string> = {};
  for (const [name, value] of all) if (random() < 0.25) headers[name] = value();
  if (headers.upgrade !== undefined) headers.connection = 'upgrade';
  return headers;
}

function bodyOf(pick: Pick, random: () => number): string | undefined {
  const bodies = [
    () => undefined,
    () => '{}',
    () =>
      JSON.stringify({
        url: pick(['https://example.com/', 'javascript:alert(1)', 'x', '', 42]),
        alias: pick(['ab', 'a', 'api', 'x'.repeat(50), null]),
        max_clicks: pick([0, 1, -1, 'two', 1e20]),
        expires_in_days: pick([0, 0.01, 'x', 1e9]),
      }),
    () =>
      JSON.stringify({
        urls: pick([
          ['https://example.com/'],
          'https://a.example\nhttps://b.example',
          [1, 2],
          'x'.repeat(100),
        ]),
      }),
    () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: pick(['initialize', 'tools/list', 'tools/call', 'nope']),
        params: pick([
          {},
          { name: 'shorten_url', arguments: { url: 'https://example.com/' } },
          { name: 'qr_code', arguments: { slug: 'x', size: 'huge' } },
          null,
        ]),
      }),
    () => JSON.stringify([{ jsonrpc: '2.0', method: 'tools/list' }, 1, null]),
    () => JSON.stringify({ url: 'https://example.com/', [pick(TEXT_FIELDS)]: pick(MALFORMED) }),
    () => JSON.stringify({ url: 'https://example.com/', tags: ['ok', pick(MALFORMED)] }),
    () =>
      JSON.stringify({
        url: 'https://example.com/',
        rules: [{ query: { [pick(MALFORMED)]: pick(MALFORMED) }, url: 'https://example.com/r' }],
      }),
    () => JSON.stringify({ url: `https://example.com/${pick(MALFORMED)}`, events: [pick(MALFORMED)] }),
    () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: {
          name: pick(['shorten_url', 'link_info', 'link_stats', 'check_alias']),
          arguments: {
            url: 'https://example.com/',
            slug: pick(MALFORMED),
            alias: pick(MALFORMED),
            title: pick(MALFORMED),
          },
        },
      }),
    () => '{"unterminated": ',
    () => '['.repeat(20000) + ']'.repeat(20000),
    () => 'password=' + 'x'.repeat(Math.floor(random() * 100)),
    () => Buffer.from(Array.from({ length: 64 }, () => Math.floor(random() * 256))).toString('latin1'),
    () => JSON.stringify({ __proto__: { polluted: true }, constructor: { prototype: { x: 1 } } }),
    () => JSON.stringify({ edit_tokens: Array.from({ length: 5 }, () => 'et_x') }),
  ];
  return pick(bodies)();
}

interface Outcome {
  readonly status: number | null;
  readonly failure: string | null;
}

function send(
  port: number,
  agent: Agent,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Outcome> {
  const bytes = body === undefined ? undefined : Buffer.from(body, 'latin1');
  // node:http frames no body of a GET, HEAD or DELETE by itself: the server would read it as the next request
  const framed = bytes === undefined ? headers : { ...headers, 'content-length': String(bytes.length) };
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: framed, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? null, failure: null }));
      res.on('error', (error) => resolve({ status: res.statusCode ?? null, failure: String(error) }));
    });
    req.on('error', (error) => resolve({ status: null, failure: String(error) }));
    // node:http hands the answer to a CONNECT to this event, not to the response callback
    req.on('connect', (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? null, failure: null });
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no answer within 10 s')));
    req.end(bytes);
  });
}

let server: TestServer;
let link: Json;

beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: '1', COUNTRY_HEADER: 'cf-ipcountry' });
  link = await createLink(server, { url: 'https://example.com/fuzz' });
  await createLink(server, { url: 'https://example.com/', alias: 'fuzz-pw', password: 'hunter22' });
  await createLink(server, { url: 'https://example.com/', alias: 'fuzz-capped', max_clicks: 3 });
});
afterAll(() => server.close());

describe(`fuzzing the server (seed ${SEED})`, () => {
  it(`answers ${REQUESTS} odd requests without a 5xx or a dropped connection, and serves on`, async () => {
    const random = seededFloats(SEED);
    const pick: Pick = (items) => items[Math.floor(random() * items.length)]!;
    const slugs = [link.slug as string, 'fuzz-pw', 'fuzz-capped', 'zz'];
    const cases = Array.from({ length: REQUESTS }, () => ({
      method: pick(METHODS),
      path: pathOf(pick, slugs, random),
      headers: headersOf(pick, random),
      body: bodyOf(pick, random),
    }));
    const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const statuses = new Map<string, number>();
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const index = next++;
        const { method, path, headers, body } = cases[index]!;
        // the links live on <domain_a>: ask for it by name, as a browser following a short URL would
        const named = { host: server.hostA, ...headers };
        const outcome = await send(server.port, agent, method, path, named, body);
        const key = String(outcome.status ?? 'none');
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (outcome.failure !== null || outcome.status === null || outcome.status >= 500) {
          failures.push(
            `#${index} ${method} ${path} ${JSON.stringify(headers)} → ${outcome.status} ${outcome.failure ?? ''}`,
          );
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    agent.destroy();
    console.log(
      `fuzz seed ${SEED}: ${REQUESTS} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`,
    );
    expect(failures.slice(0, 10), `${failures.length} requests failed`).toEqual([]);

    expect((await server.api('/healthz')).status).toBe(200);
    expect((await server.visit(link.short_url as string)).status).toBe(302);
  }, 120_000);
});
