import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppConfig, RunningServer, Services } from '@shortener/app';
import { createJsonLogger, loadConfig, runCli, startServer } from '@shortener/app';
import { expect } from 'vitest';
import { openTestStore } from './test-store.js';
import { createContract } from './contract.js';
import type { Exchange } from './contract.js';

/**
 * The HTTP test harness: the real `shortener` server (composition root, SQLite file, the raw redirect
 * path and Koa) started in-process on a free loopback port, and small clients for its API and its short
 * domains. Every response passes {@link expectSane}: no 5xx and no cookie, anywhere in the suite; and
 * every exchange keeps the server's own `/openapi.json` (contract.ts), so the whole suite keeps the
 * document honest.
 */

/** JSON as the tests read it. */
export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Options of one request. */
export interface RequestOptions {
  readonly method?: string;
  /** Sent as `application/json` unless `body` is given. */
  readonly json?: unknown;
  /** A raw body (with `headers` choosing its content type). */
  readonly body?: string;
  /** `Authorization: Bearer <key>`. */
  readonly key?: string;
  /** `X-Edit-Token`. */
  readonly token?: string;
  readonly headers?: Record<string, string>;
}

/** An account with a live API key. */
export interface TestAccount {
  readonly accountId: string;
  readonly keyId: string;
  readonly key: string;
}

/** A running test server. */
export interface TestServer {
  /** `http://127.0.0.1:<port>`: where the API is called. */
  readonly origin: string;
  readonly port: number;
  readonly config: AppConfig;
  /** Host of <domain_a> (the default short domain) and <domain_b>. */
  readonly hostA: string;
  readonly hostB: string;
  /** {base_url}. */
  readonly baseUrl: string;
  /** The SQLite file. */
  readonly dbPath: string;
  /** Log lines the server wrote (JSON, every level). */
  readonly logs: string[];
  /** A request to `origin` + `path`, with fetch (`redirect: 'manual'`). */
  api(path: string, options?: RequestOptions): Promise<Response>;
  /**
   * A request to an absolute URL on one of the server's names (a short URL, say): sent to the server's
   * socket with the URL's host as `Host`, as a DNS entry pointing the short domain here would.
   */
  visit(url: string, options?: RequestOptions): Promise<Response>;
  /** Runs a `shortener` operator command against the server's database; returns the `--json` output. */
  cli(...args: string[]): Promise<Json>;
  /** `accounts create` + `keys create`. */
  createAccount(name: string): Promise<TestAccount>;
  close(): Promise<void>;
}

/** Environment overrides of one test server (decisions §1 variables). */
export type TestEnv = Record<string, string>;

const STORE_VARIABLES = ['STORE', 'DB_PATH', 'DATABASE_URL', 'REDIS_URL'];
const storeVariablesOf = (env: TestEnv): TestEnv =>
  Object.fromEntries(Object.entries(env).filter(([name]) => STORE_VARIABLES.includes(name)));

/**
 * Starts the real server on a free loopback port with a temporary SQLite database; `overrides` replace
 * bindings of the composition root (a clock a test moves, say).
 */
export async function startTestServer(
  env: TestEnv = {},
  overrides: Partial<Services> = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'shortener-http-'));
  const dbPath = join(dir, 'shortener.db');
  const store = await openTestStore(dbPath);
  const logs: string[] = [];
  const logger = createJsonLogger({ level: 'debug', stream: { write: (line) => logs.push(line) } });
  let running: RunningServer | null = null;
  let config: AppConfig | null = null;
  // PORT=0 would leave the default short domains at `localhost:0`: pick a free port first, and try
  // again in the unlikely case another process takes it in between.
  for (let attempt = 0; running === null; attempt++) {
    const port = await freePort();
    // no background health checks unless a test asks: they would look up the tests' example.com names
    const quiet = { HEALTH_CHECKS: 'off' };
    config = loadConfig({ PORT: String(port), HOST: '127.0.0.1', ...quiet, ...store.env, ...env });
    try {
      running = await startServer(config, { logger, ...overrides });
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'EADDRINUSE' || attempt >= 5) throw error;
    }
  }
  const server = running;
  const cfg = config as AppConfig;
  const origin = server.url;
  const port = Number(new URL(origin).port);
  const [domainA, domainB] = cfg.service.shortDomains;
  // the operator commands open the server's store: the test's own when `env` names one
  const cliEnv = { ...store.env, ...storeVariablesOf(env) };
  // over a connection of its own that closes: the suite counts the server's connections
  const served = await rawRequest(port, `${origin}/openapi.json`, {}, () => undefined);
  const contract = createContract((await served.json()) as Json);
  const keepsContract = (exchange: Exchange) =>
    expect(contract(exchange), 'the OpenAPI document').toEqual([]);

  const cli = async (...args: string[]): Promise<Json> => {
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      stdout: { write: (text: string) => out.push(text) },
      stderr: { write: (text: string) => err.push(text) },
      env: cliEnv,
    };
    const code = await runCli([...args, '--json'], io);
    if (code !== 0) throw new Error(`shortener ${args.join(' ')} failed (${code}): ${err.join('')}`);
    return JSON.parse(out.join('')) as Json;
  };

  return {
    origin,
    port,
    config: cfg,
    hostA: domainA?.host ?? '',
    hostB: domainB?.host ?? '',
    baseUrl: cfg.service.baseUrl,
    dbPath,
    logs,
    async api(path, options = {}) {
      const body = bodyOf(options);
      const method = options.method ?? (body === undefined ? 'GET' : 'POST');
      const requestHeaders = headersOf(options);
      const response = await fetch(`${origin}${path}`, {
        method,
        headers: requestHeaders,
        redirect: 'manual',
        ...(body === undefined ? {} : { body }),
      });
      expectSane(response);
      keepsContract({
        method,
        target: path,
        requestHeaders,
        requestBody: body,
        status: response.status,
        headers: response.headers,
        body: Buffer.from(await response.clone().arrayBuffer()),
      });
      return response;
    },
    visit: (url, options = {}) => rawRequest(port, url, options, keepsContract),
    cli,
    async createAccount(name) {
      const account = await cli('accounts', 'create', name);
      const key = await cli('keys', 'create', name);
      return { accountId: String(account.id), keyId: String(key.id), key: String(key.key) };
    },
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
      await store.drop();
      // a thrown error would have been a 500, which expectSane already refuses; this catches the rest
      const errors = logs.filter((line) => (JSON.parse(line) as Json).level === 'error');
      expect(errors, 'the server logged errors').toEqual([]);
    },
  };
}

/** Writes a file into a fresh temporary folder (e.g. a `BLOCKLIST_FILE`); returns its path. */
export function tempFile(name: string, content: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'shortener-http-')), name);
  writeFileSync(path, content);
  return path;
}

/**
 * Where a cookie may be set (decisions §10): signing in (password, passkey, invite, sign-up) and out
 * (`/logout`, or ending the session in use in settings, which clears it), and the account switcher's
 * choice (decisions §21).
 */
const SIGN_IN_PATHS =
  /^\/(?:login(?:\/passkey|\/oidc(?:\/callback)?)?|logout|account\/(?:switch|signup|invite\/[^/]+(?:\/passkey)?|settings\/(?:confirm|sessions\/[^/]+\/end)))$/;

/**
 * The assertion every response of the suite passes: never a server error, and never a cookie but the
 * session cookie of signing in or out.
 */
export function expectSane(response: Response): void {
  expect(response.status, `${response.url} answered ${response.status}`).toBeLessThan(500);
  if (response.headers.getSetCookie().length === 0) return;
  expect(new URL(response.url).pathname, `${response.url} set a cookie`).toMatch(SIGN_IN_PATHS);
}

/** Reads an error response: the error object of interface §2.6 with a non-empty message. */
export async function errorOf(
  response: Response,
): Promise<{ code: string; message: string; field?: string }> {
  expect(response.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  const body = (await response.json()) as Json;
  expect(Object.keys(body)).toEqual(['error']);
  expect(typeof body.error.code).toBe('string');
  expect(typeof body.error.message).toBe('string');
  expect(body.error.message.length).toBeGreaterThan(0);
  return body.error as { code: string; message: string; field?: string };
}

/** Asserts an error response's status and code; returns the error. */
export async function expectError(response: Response, status: number, code: string) {
  const error = await errorOf(response);
  expect({ status: response.status, code: error.code }).toEqual({ status, code });
  return error;
}

/** Reads a JSON success response with the given status. */
export async function jsonOf(response: Response, status = 200): Promise<Json> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  return JSON.parse(text) as Json;
}

/** Polls `check` until it returns without throwing (e.g. statistics after the once-a-second flush). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** User-Agents: a browser, and link-preview crawlers (known bots). */
export const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
export const BOT_UAS = ['Slackbot-LinkExpanding 1.0', 'facebookexternalhit/1.1'];

function headersOf(options: RequestOptions): Record<string, string> {
  return {
    ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
    ...(options.key === undefined ? {} : { authorization: `Bearer ${options.key}` }),
    ...(options.token === undefined ? {} : { 'x-edit-token': options.token }),
    ...options.headers,
  };
}

function bodyOf(options: RequestOptions): string | undefined {
  return options.body ?? (options.json === undefined ? undefined : JSON.stringify(options.json));
}

/** A port nothing listens on right now (another process may take it before it is used). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * One request over node:http (fetch cannot set `Host`), returned as a fetch Response. `keepsContract`
 * checks the exchange against the OpenAPI document (a no-op where the document does not speak: an
 * account's own domain, decisions §20); a 5xx fails either way.
 */
export function rawRequest(
  port: number,
  url: string,
  options: RequestOptions,
  keepsContract: (exchange: Exchange) => void,
): Promise<Response> {
  const target = new URL(url);
  const body = bodyOf(options);
  const method = options.method ?? (body === undefined ? 'GET' : 'POST');
  const requestHeaders = { host: target.host, 'user-agent': 'node', ...headersOf(options) };
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path: `${target.pathname}${target.search}`,
        headers: requestHeaders,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
            headers.append(res.rawHeaders[i] ?? '', res.rawHeaders[i + 1] ?? '');
          }
          const status = res.statusCode ?? 0;
          const empty = method === 'HEAD' || status === 204 || status === 304;
          const received = Buffer.concat(chunks);
          const response = new Response(empty ? null : received, { status, headers });
          Object.defineProperty(response, 'url', { value: url });
          try {
            expectSane(response);
            const path = `${target.pathname}${target.search}`;
            keepsContract({
              method,
              target: path,
              requestHeaders,
              requestBody: body,
              status,
              headers,
              body: received,
            });
            resolve(response);
          } catch (error) {
            reject(error as Error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** `POST /api/v1/links` that must succeed; returns the Link. */
export async function createLink(
  server: TestServer,
  body: Json,
  options: RequestOptions = {},
): Promise<Json> {
  return jsonOf(await server.api('/api/v1/links', { ...options, json: body }), 201);
}

/** A long random alias, unique per call. */
export function uniqueAlias(prefix = 't'): string {
  return `${prefix}-${Math.random().toString(36).slice(2, 10)}`;
}
