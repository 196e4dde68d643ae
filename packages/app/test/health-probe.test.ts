import { execFileSync } from 'node:child_process';
import { promises as dns } from 'node:dns';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProbeResult } from '@shortener/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createHealthProbe } from '../src/health-probe.js';
import type { HealthProbeOptions } from '../src/health-probe.js';
import type { Resolve } from '../src/public-address.js';
import { startDnsServer } from './dns-server.js';
import type { TestDnsServer } from './dns-server.js';

// The probe of link health (decisions §23) against real servers on loopback: 127.0.0.1 is the "site" of
// the plain cases and, where private addresses are refused, the "internal" host no probe may reach;
// 127.0.0.2 (same port) plays a public host there. Nothing leaves loopback.

const USER_AGENT = 'shortener-health/1.0 (+https://s.example)';
const MB = 1024 * 1024;

interface Site {
  server: Server;
  /** Requests received, as `METHOD /path`. */
  seen: string[];
  /** User-Agent headers received. */
  agents: string[];
}

let port: number;
let site: Site;
let outside: Site;
let tlsPort: number;
let tlsServer: Server;
let tlsCert: string;
let tlsDir: string;
let bigSent = 0;
let bigFinished = false;
let bigClosed: Promise<void> = Promise.resolve();

/** The routes both loopback servers answer. */
function handle(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? '/';
  const chain = /^\/chain\/(\d+)$/.exec(path);
  if (chain !== null) {
    const left = Number(chain[1]);
    if (left === 0) res.writeHead(200).end();
    else res.writeHead(302, { location: `/chain/${left - 1}` }).end();
    return;
  }
  switch (path) {
    case '/ok':
    case '/agent':
      res.writeHead(200, { 'content-type': 'text/plain' }).end('fine');
      return;
    case '/moved':
      res.writeHead(301, { location: '/ok' }).end();
      return;
    case '/missing':
      res.writeHead(404).end('not here');
      return;
    case '/broken':
      res.writeHead(500).end('oops');
      return;
    case '/no-head':
      if (req.method === 'HEAD') res.writeHead(405, { allow: 'GET' }).end();
      else res.writeHead(200).end('fine');
      return;
    case '/no-location':
      res.writeHead(302).end();
      return;
    case '/hang':
      return;
    case '/reset':
      req.socket.destroy();
      return;
    case '/to-internal-literal':
      res.writeHead(302, { location: `http://127.0.0.1:${port}/ok` }).end();
      return;
    case '/to-internal-name':
      res.writeHead(307, { location: `http://internal.test:${port}/ok` }).end();
      return;
    case '/to-denied':
      res.writeHead(302, { location: '/denied' }).end();
      return;
    case '/to-ftp':
      res.writeHead(302, { location: 'ftp://127.0.0.1/file' }).end();
      return;
    case '/big':
      if (req.method === 'HEAD') res.writeHead(405).end();
      else streamMegabyte(res);
      return;
    default:
      res.writeHead(404).end();
  }
}

/** 1 MB in 8 KB pieces, 2 ms apart (about 0.3 s in all), stopping when the client goes. */
function streamMegabyte(res: ServerResponse): void {
  bigSent = 0;
  bigFinished = false;
  bigClosed = new Promise((resolve) => res.on('close', resolve));
  res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(MB) });
  const piece = Buffer.alloc(8 * 1024, 0x61);
  const next = () => {
    if (res.destroyed) return;
    if (bigSent >= MB) {
      bigFinished = true;
      res.end();
      return;
    }
    res.write(piece);
    bigSent += piece.length;
    setTimeout(next, 2);
  };
  next();
}

async function startSite(host: string, at: number): Promise<Site> {
  const seen: string[] = [];
  const agents: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    agents.push(req.headers['user-agent'] ?? '');
    handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at, host, resolve);
  });
  return { server, seen, agents };
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** A resolver from a table (an unknown name does not resolve), counting look-ups by name. */
function tableResolve(table: Record<string, string>, asked: string[] = []): Resolve {
  return async (hostname) => {
    asked.push(hostname);
    const address = table[hostname];
    if (address === undefined) throw Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  };
}

const NAMES = { 'outside.test': '127.0.0.2', 'internal.test': '127.0.0.1', 'probe.test': '127.0.0.1' };

/** The plain cases: private addresses allowed, every URL allowed. */
function probeWith(options: Partial<HealthProbeOptions> = {}) {
  return createHealthProbe({
    userAgent: USER_AGENT,
    allowPrivate: true,
    urlAllowed: () => true,
    resolve: tableResolve(NAMES),
    timeoutMs: 3000,
    ...options,
  });
}

/** Private addresses refused, where only 127.0.0.1 is private (127.0.0.2 plays a public host). */
function guardedProbe(options: Partial<HealthProbeOptions> = {}) {
  return probeWith({ allowPrivate: false, isPrivate: (address) => address === '127.0.0.1', ...options });
}

const answered = (status: number, finalUrl: string): ProbeResult => ({ kind: 'answered', status, finalUrl });
const failed = (reason: Extract<ProbeResult, { kind: 'failed' }>['reason']): ProbeResult => ({
  kind: 'failed',
  reason,
});

beforeAll(async () => {
  site = await startSite('127.0.0.1', 0);
  port = (site.server.address() as AddressInfo).port;
  outside = await startSite('127.0.0.2', port);

  tlsDir = mkdtempSync(join(tmpdir(), 'health-probe-'));
  const key = join(tlsDir, 'key.pem');
  const cert = join(tlsDir, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=probe.test',
      '-addext',
      'subjectAltName=DNS:probe.test',
    ],
    { stdio: 'ignore' },
  );
  tlsCert = readFileSync(cert, 'utf8');
  tlsServer = createHttpsServer({ key: readFileSync(key), cert: tlsCert }, (req, res) => {
    res.writeHead(req.url === '/ok' ? 200 : 404).end();
  });
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  tlsPort = (tlsServer.address() as AddressInfo).port;
});

afterAll(async () => {
  await Promise.all([close(site.server), close(outside.server), close(tlsServer)]);
  rmSync(tlsDir, { recursive: true, force: true });
});

afterEach(() => {
  for (const { seen, agents } of [site, outside]) {
    seen.length = 0;
    agents.length = 0;
  }
});

describe('createHealthProbe: answers', () => {
  it('answers 200 with the URL asked as finalUrl, after one HEAD', async () => {
    const url = `http://127.0.0.1:${port}/ok`;
    expect(await probeWith().probe(url)).toEqual(answered(200, url));
    expect(site.seen).toEqual(['HEAD /ok']);
  });

  it('follows a 301: the answer is the second URL’s', async () => {
    expect(await probeWith().probe(`http://127.0.0.1:${port}/moved`)).toEqual(
      answered(200, `http://127.0.0.1:${port}/ok`),
    );
    expect(site.seen).toEqual(['HEAD /moved', 'HEAD /ok']);
  });

  it('answers 404 and 500 as they are, after HEAD then GET', async () => {
    const missing = `http://127.0.0.1:${port}/missing`;
    const broken = `http://127.0.0.1:${port}/broken`;
    expect(await probeWith().probe(missing)).toEqual(answered(404, missing));
    expect(await probeWith().probe(broken)).toEqual(answered(500, broken));
    expect(site.seen).toEqual(['HEAD /missing', 'GET /missing', 'HEAD /broken', 'GET /broken']);
  });

  it('asks again with GET where HEAD is answered 405', async () => {
    const url = `http://127.0.0.1:${port}/no-head`;
    expect(await probeWith().probe(url)).toEqual(answered(200, url));
    expect(site.seen).toEqual(['HEAD /no-head', 'GET /no-head']);
  });

  it('answers a redirect without Location with its status', async () => {
    const url = `http://127.0.0.1:${port}/no-location`;
    expect(await probeWith().probe(url)).toEqual(answered(302, url));
  });

  it('sends its User-Agent and Accept: */*', async () => {
    let accept: string | undefined;
    const server = createServer((req, res) => {
      accept = req.headers.accept;
      res.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const other = (server.address() as AddressInfo).port;
    try {
      expect(await probeWith().probe(`http://127.0.0.1:${other}/`)).toEqual(
        answered(204, `http://127.0.0.1:${other}/`),
      );
      expect(await probeWith().probe(`http://127.0.0.1:${port}/agent`)).toEqual(
        answered(200, `http://127.0.0.1:${port}/agent`),
      );
      expect(accept).toBe('*/*');
      expect(site.agents).toEqual([USER_AGENT]);
    } finally {
      await close(server);
    }
  });

  it('reads at most 64 KB of a GET’s body, then hangs up', async () => {
    const url = `http://127.0.0.1:${port}/big`;
    const started = Date.now();
    expect(await probeWith().probe(url)).toEqual(answered(200, url));
    const took = Date.now() - started;
    await bigClosed;
    expect(bigFinished).toBe(false);
    expect(bigSent).toBeLessThan(MB / 2);
    expect(took).toBeLessThan(1000);
  });
});

describe('createHealthProbe: failures', () => {
  it('times out on a server that never answers', async () => {
    const started = Date.now();
    expect(await probeWith({ timeoutMs: 300 }).probe(`http://127.0.0.1:${port}/hang`)).toEqual(
      failed('timeout'),
    );
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('counts a reset connection and a closed port as refused', async () => {
    expect(await probeWith().probe(`http://127.0.0.1:${port}/reset`)).toEqual(failed('refused'));
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const closed = (server.address() as AddressInfo).port;
    await close(server);
    expect(await probeWith().probe(`http://127.0.0.1:${closed}/`)).toEqual(failed('refused'));
  });

  it('fails on a certificate it does not trust, and answers when it does', async () => {
    const url = `https://probe.test:${tlsPort}/ok`;
    // only 127.0.0.1 is private here: loopback plays the public host probe.test
    const options = { allowPrivate: false, isPrivate: () => false };
    expect(await probeWith(options).probe(url)).toEqual(failed('tls'));
    expect(await probeWith({ ...options, ca: tlsCert }).probe(url)).toEqual(answered(200, url));
    // the certificate names probe.test, not the address
    expect(await probeWith({ ca: tlsCert }).probe(`https://127.0.0.1:${tlsPort}/ok`)).toEqual(failed('tls'));
  });

  it('counts a failure during the TLS handshake as tls: a plain http server, a hang-up', async () => {
    expect(await probeWith().probe(`https://127.0.0.1:${port}/ok`)).toEqual(failed('tls'));
    const hangUp = createNetServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => hangUp.listen(0, '127.0.0.1', resolve));
    const other = (hangUp.address() as AddressInfo).port;
    try {
      expect(await probeWith().probe(`https://127.0.0.1:${other}/`)).toEqual(failed('tls'));
      // the same hang-up over plain http: the server refused to answer
      expect(await probeWith().probe(`http://127.0.0.1:${other}/`)).toEqual(failed('refused'));
    } finally {
      await new Promise<void>((resolve) => hangUp.close(() => resolve()));
    }
  });

  describe('a real DNS server', () => {
    let server: TestDnsServer;
    let resolve: Resolve;

    beforeAll(async () => {
      server = await startDnsServer();
      server.publish('A', 'known.test', '127.0.0.1');
      const resolver = new dns.Resolver({ timeout: 1000, tries: 1 });
      resolver.setServers([server.address]);
      resolve = async (hostname) =>
        (await resolver.resolve4(hostname)).map((address) => ({ address, family: 4 }));
    });
    afterAll(() => server.close());

    it('fails with dns on a name that does not resolve', async () => {
      expect(await probeWith({ resolve }).probe(`http://nowhere.test:${port}/ok`)).toEqual(failed('dns'));
      expect(server.questions).toContain('A nowhere.test');
      const url = `http://known.test:${port}/ok`;
      expect(await probeWith({ resolve }).probe(url)).toEqual(answered(200, url));
    });
  });
});

describe('createHealthProbe: blocked', () => {
  it('refuses a name resolving to a private address, asking nothing', async () => {
    const probe = probeWith({ allowPrivate: false });
    expect(await probe.probe(`http://internal.test:${port}/ok`)).toEqual(failed('blocked'));
    expect(await probe.probe(`http://127.0.0.1:${port}/ok`)).toEqual(failed('blocked'));
    expect(site.seen).toEqual([]);
  });

  it('refuses a redirect to a private address, by literal or by name', async () => {
    const probe = guardedProbe();
    expect(await probe.probe(`http://outside.test:${port}/to-internal-literal`)).toEqual(failed('blocked'));
    expect(await probe.probe(`http://outside.test:${port}/to-internal-name`)).toEqual(failed('blocked'));
    expect(outside.seen).toEqual(['HEAD /to-internal-literal', 'HEAD /to-internal-name']);
    expect(site.seen).toEqual([]);
  });

  it('refuses a redirect the URL rules refuse, or to another scheme', async () => {
    const probe = probeWith({ urlAllowed: (url) => !url.endsWith('/denied') });
    expect(await probe.probe(`http://127.0.0.1:${port}/to-denied`)).toEqual(failed('blocked'));
    expect(await probe.probe(`http://127.0.0.1:${port}/to-ftp`)).toEqual(failed('blocked'));
    expect(site.seen).toEqual(['HEAD /to-denied', 'HEAD /to-ftp']);
  });

  it('follows 5 redirects, and refuses a sixth', async () => {
    expect(await probeWith().probe(`http://127.0.0.1:${port}/chain/5`)).toEqual(
      answered(200, `http://127.0.0.1:${port}/chain/0`),
    );
    site.seen.length = 0;
    expect(await probeWith().probe(`http://127.0.0.1:${port}/chain/6`)).toEqual(failed('blocked'));
    expect(site.seen).toEqual([6, 5, 4, 3, 2, 1].map((n) => `HEAD /chain/${n}`));
  });

  it('connects to the address it checked: a name rebound to a private address is never reached', async () => {
    // rebind.test is 127.0.0.2 (public) at the first look-up and 127.0.0.1 (private) at every later one
    const asked: string[] = [];
    const rebinding: Resolve = async (hostname) => {
      asked.push(hostname);
      return [{ address: asked.length === 1 ? '127.0.0.2' : '127.0.0.1', family: 4 }];
    };
    // HEAD then GET on one hop: one look-up, both requests to 127.0.0.2
    const url = `http://rebind.test:${port}/no-head`;
    expect(await guardedProbe({ resolve: rebinding }).probe(url)).toEqual(answered(200, url));
    expect(asked).toEqual(['rebind.test']);
    expect(outside.seen).toEqual(['HEAD /no-head', 'GET /no-head']);
    expect(site.seen).toEqual([]);

    // a redirect to the same name is looked up again: now private, so blocked
    asked.length = 0;
    outside.seen.length = 0;
    expect(await guardedProbe({ resolve: rebinding }).probe(`http://rebind.test:${port}/moved`)).toEqual(
      failed('blocked'),
    );
    expect(asked).toEqual(['rebind.test', 'rebind.test']);
    expect(outside.seen).toEqual(['HEAD /moved']);
    expect(site.seen).toEqual([]);
  });
});
