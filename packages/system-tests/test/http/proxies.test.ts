import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programAvailable } from '../required.js';
import { BROWSER_UA, eventually, expectError, freePort, jsonOf, startTestServer } from './harness.js';
import type { Json, TestServer } from './harness.js';

// docs/production.md's nginx and Caddy configurations (deploy/), run for real in front of the real server with
// TRUST_PROXY=1: a client that forges X-Forwarded-For is still counted by its real address.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../../..');
const deployFile = (name: string) => readFileSync(join(ROOT, 'deploy', name), 'utf8');
const REQUIRED = 'SHORTENER_PROXY_TESTS';
const hasNginx = programAvailable('nginx', REQUIRED, 'Install it with `apt-get install nginx`');
const hasCaddy = programAvailable('caddy', REQUIRED, 'Install it with `apt-get install caddy`');

const LIMIT = 3;

/** A proxy in front of a test server: the server's short domains and {base_url} are the proxy's. */
interface Proxied {
  readonly server: TestServer;
  readonly origin: string;
  close(): Promise<void>;
}

async function startBehind(
  start: (proxyPort: number, upstreamPort: number, dir: string) => ChildProcess,
): Promise<Proxied> {
  const proxyPort = await freePort();
  const server = await startTestServer({
    TRUST_PROXY: '1',
    COUNTRY_HEADER: 'x-country-code',
    RATE_LIMIT_ANON_HOUR: String(LIMIT),
    PUBLIC_BASE_URL: `http://127.0.0.1:${proxyPort}`,
    SHORT_DOMAINS: `http://127.0.0.1:${proxyPort},http://localhost:${proxyPort}`,
  });
  const dir = mkdtempSync(join(tmpdir(), 'shortener-proxy-'));
  const child = start(proxyPort, server.port, dir);
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  try {
    await waitForPort(proxyPort, child);
  } catch (error) {
    child.kill('SIGKILL');
    await server.close();
    throw new Error(`${String(error)}\n${output.join('')}`);
  }
  return {
    server,
    origin: `http://127.0.0.1:${proxyPort}`,
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    },
  };
}

/** deploy/nginx.conf inside a minimal main configuration; only addresses change, and one geo entry. */
function startNginx(proxyPort: number, upstreamPort: number, dir: string): ChildProcess {
  const site = deployFile('nginx.conf')
    .replace('server 127.0.0.1:3000;', `server 127.0.0.1:${upstreamPort};`)
    .replace('listen 80;', `listen 127.0.0.1:${proxyPort};`)
    .replace('default "";', 'default "";\n    127.0.0.1 DE;');
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => {
    mkdirSync(join(dir, name));
    return `${name}_temp_path ${join(dir, name)};`;
  });
  const main = `${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
error_log ${join(dir, 'error.log')} warn;
pid ${join(dir, 'nginx.pid')};
events { worker_connections 256; }
http {
${temp.join('\n')}
${site}
}`;
  writeFileSync(join(dir, 'nginx.conf'), main);
  return spawn('nginx', ['-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** deploy/Caddyfile with plain-http site addresses on loopback (no certificates in a test). */
function startCaddy(proxyPort: number, upstreamPort: number, dir: string): ChildProcess {
  const site = deployFile('Caddyfile')
    .replace('sho.example, s.example', `http://localhost:${proxyPort}, http://127.0.0.1:${proxyPort}`)
    .replace('127.0.0.1:3000', `127.0.0.1:${upstreamPort}`);
  writeFileSync(join(dir, 'Caddyfile'), `{\n\tadmin off\n\tauto_https off\n}\n${site}`);
  return spawn('caddy', ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir, HOME: dir },
  });
}

/** A request through the proxy, with `Host` set as a browser on that name would. */
async function through(proxy: Proxied, path: string, init: RequestInit = {}) {
  const response = await fetch(`${proxy.origin}${path}`, { redirect: 'manual', ...init });
  expect(response.status, `${path} answered ${response.status}`).toBeLessThan(500);
  return response;
}

/** Creations through the proxy, each with a different forged X-Forwarded-For: all count as one client. */
async function expectForgeryRefused(proxy: Proxied): Promise<void> {
  const create = (n: number) =>
    through(proxy, '/api/v1/links', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${n}` },
      body: JSON.stringify({ url: `https://example.com/${n}` }),
    });
  for (let n = 1; n <= LIMIT; n++) expect((await create(n)).status).toBe(201);
  for (let n = LIMIT + 1; n <= LIMIT + 5; n++) await expectError(await create(n), 429, 'rate_limited');
}

/** A link made beside the proxy (its own budget), visited through it by one browser forging addresses. */
async function visitWithForgedAddresses(proxy: Proxied): Promise<Json> {
  const link = await jsonOf(
    await proxy.server.api('/api/v1/links', {
      json: { url: 'https://example.com/visited' },
      headers: { 'x-forwarded-for': '198.51.100.77' },
    }),
    201,
  );
  for (let n = 1; n <= 3; n++) {
    const response = await through(proxy, `/${String(link.slug)}`, {
      headers: { 'user-agent': BROWSER_UA, 'x-forwarded-for': `203.0.113.${n}`, 'x-country-code': 'FR' },
    });
    expect(response.status).toBe(302);
  }
  return eventually(async () => {
    const stats = await jsonOf(await proxy.server.api(`/api/v1/links/${String(link.id)}/stats`));
    expect(stats.total).toBe(3);
    return stats;
  });
}

/**
 * The tests of one proxy in front of a test server (`start` launches it): what every proxy must do, a
 * forged X-Forwarded-For counted as the real client, then `more`, the proxy's own.
 */
function describeBehind(
  title: string,
  available: boolean,
  start: Parameters<typeof startBehind>[0],
  more: (proxy: () => Proxied) => void,
): void {
  describe.skipIf(!available)(title, { timeout: 30_000 }, () => {
    let proxy: Proxied;
    beforeAll(async () => {
      proxy = await startBehind(start);
    });
    afterAll(() => proxy?.close());

    it('limits a client that forges X-Forwarded-For by its real address', async () => {
      await expectForgeryRefused(proxy);
    });

    more(() => proxy);
  });
}

describeBehind('behind nginx (deploy/nginx.conf, TRUST_PROXY=1)', hasNginx, startNginx, (proxy) => {
  it("counts one unique visitor, in nginx's country, whatever the client forges", async () => {
    const stats = await visitWithForgedAddresses(proxy());
    expect(stats.unique).toBe(1);
    expect(stats.countries).toEqual([{ key: 'DE', count: 3 }]);
  });

  it('serves the pages and the API through the proxy', async () => {
    expect((await through(proxy(), '/healthz')).status).toBe(200);
    expect((await through(proxy(), '/')).status).toBe(200);
  });
});

describeBehind('behind Caddy (deploy/Caddyfile, TRUST_PROXY=1)', hasCaddy, startCaddy, (proxy) => {
  it('counts one unique visitor whatever the client forges', async () => {
    expect((await visitWithForgedAddresses(proxy())).unique).toBe(1);
  });
});

describe('docs/production.md', () => {
  it('shows the configurations these tests run, word for word', () => {
    const guide = readFileSync(join(ROOT, 'docs/production.md'), 'utf8');
    expect(guide).toContain(deployFile('nginx.conf').trim());
    expect(guide).toContain(deployFile('Caddyfile').trim());
  });
});

/** Resolves once something accepts connections on the port; fails if the child exits first. */
async function waitForPort(port: number, child: ChildProcess, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the proxy exited with ${child.exitCode}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listened on port ${port} within ${timeoutMs} ms`);
}
