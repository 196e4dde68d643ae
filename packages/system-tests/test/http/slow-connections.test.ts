import { connect } from 'node:net';
import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink, startTestServer, uniqueAlias } from './harness.js';
import type { Json, TestServer } from './harness.js';
import { getStatus } from './load.js';

// Issue 20: ~20,000 slow connections from one host used every file descriptor and /healthz failed for
// ~50 s with nothing logged. The attackers below come from other loopback addresses (127.0.0.2, .3)
// than the measured clients (127.0.0.1), as they would from another host.
// These tests assert behaviour, with waits that hold on a machine at load 20 (issue 60); what the attack
// costs the redirects (a rate against the unloaded rate) is measured by `node bench/slow-connections.mjs`.

/** The headers timeout of the server under test: long enough for the checks made while the attack is held. */
const HEADERS_TIMEOUT_MS = 4000;

/** How a slow connection ended: milliseconds from the start to its close, and what the server wrote first. */
interface Closed {
  readonly after: number;
  /** The server's first line ('' when it closed without a byte: refused on arrival). */
  readonly answer: string;
}

/** Connections that send a request's start and then a header line every 300 ms, never the end. */
interface SlowClients {
  /** The closed connections, in the order they closed. */
  readonly closed: Closed[];
  /** How many are still open. */
  held(): number;
  stop(): void;
}

async function openSlow(
  port: number,
  count: number,
  localAddress: string,
  silent = false,
): Promise<SlowClients> {
  const started = performance.now();
  const closed: Closed[] = [];
  const sockets = Array.from({ length: count }, () => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let answer = '';
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => (answer ||= chunk.toString('latin1').split('\r\n')[0] ?? ''));
    socket.on('close', () => closed.push({ after: performance.now() - started, answer }));
    // written at once, so it goes first: a trickle line queued before a slow connect would lead the request
    if (!silent) socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    return socket;
  });
  const trickle = setInterval(() => {
    if (!silent) for (const socket of sockets) if (socket.writable) socket.write('X-Slow: 1\r\n');
  }, 300);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    closed,
    held: () => sockets.filter((socket) => !socket.destroyed).length,
    stop() {
      clearInterval(trickle);
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** Waits until `check()` holds, at most `timeoutMs` (generous: a loaded machine is slow, not wrong). */
async function until(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check()) && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The statuses of `count` redirects of `slug`, four at a time over keep-alive connections. */
async function redirectStatuses(server: TestServer, slug: string, count: number): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const statuses: number[] = [];
  let sent = 0;
  const loop = async () => {
    while (sent++ < count)
      statuses.push(await getStatus(agent, server.port, `/${slug}`, { host: server.hostA }));
  };
  await Promise.all([loop(), loop(), loop(), loop()]);
  agent.destroy();
  return statuses;
}

const refusals = (server: TestServer): Json[] =>
  server.logs.map((line) => JSON.parse(line) as Json).filter((line) => line.msg === 'connections refused');

describe('slow connections', () => {
  let server: TestServer;
  let slug: string;
  beforeAll(async () => {
    server = await startTestServer({
      HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
      HTTP_REQUEST_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS + 500),
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '200',
    });
    slug = uniqueAlias('slow');
    await createLink(server, { url: 'https://example.com/slow', alias: slug });
  });
  afterAll(() => server.close());

  it('are capped per address, leave redirects and /healthz answering while held, and are all cut after the headers timeout', async () => {
    const attack = await openSlow(server.port, 1000, '127.0.0.2');
    // 800 are refused on arrival (closed without a byte), 200 admitted and kept busy by the trickle
    await until(() => attack.closed.length >= 800, 20_000);
    const statuses = await redirectStatuses(server, slug, 50);
    const health = (await server.api('/healthz')).status;
    const held = attack.held();
    expect(statuses).toEqual(Array<number>(50).fill(302));
    expect(health).toBe(200);
    // the redirects and /healthz were answered while every admitted connection was held
    expect(held).toBe(200);

    // every slow connection is cut: the admitted ones with a 408 after the headers timeout, not before
    await until(() => attack.closed.length === 1000, 30_000);
    attack.stop();
    const refused = attack.closed.filter((closed) => closed.answer === '');
    const cut = attack.closed.filter((closed) => closed.answer !== '');
    expect([refused.length, cut.length]).toEqual([800, 200]);
    expect(new Set(cut.map((closed) => closed.answer))).toEqual(new Set(['HTTP/1.1 408 Request Timeout']));
    expect(Math.min(...cut.map((closed) => closed.after))).toBeGreaterThan(HEADERS_TIMEOUT_MS - 100);
  }, 60_000);

  it('cuts off connections that never send a byte after the headers timeout', async () => {
    const silent = await openSlow(server.port, 50, '127.0.0.3', true);
    await until(() => silent.closed.length === 50, 30_000);
    silent.stop();
    expect(silent.closed).toHaveLength(50);
    expect(Math.min(...silent.closed.map((closed) => closed.after))).toBeGreaterThan(
      HEADERS_TIMEOUT_MS - 100,
    );
  }, 40_000);

  it('logs refusals at most once per 10 s, with counts and no address', () => {
    const lines = refusals(server);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', address_cap: 1, max_connections_per_address: 200 });
    expect(server.logs.join('\n')).not.toMatch(/127\.0\.0\.[23]/);
  });
});

describe('the connection cap', () => {
  it('refuses connections past HTTP_MAX_CONNECTIONS, logs it, and serves again once they close', async () => {
    const server = await startTestServer({
      HTTP_MAX_CONNECTIONS: '100',
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
    });
    const flood = await openSlow(server.port, 150, '127.0.0.4');
    // the 50 past the cap are dropped on arrival; the 100 admitted are held (the headers timeout is 10 s)
    await until(() => flood.closed.length >= 50, 5_000);
    expect(flood.closed).toHaveLength(50);
    expect(refusals(server)).toMatchObject([{ server_cap: 1, max_connections: 100 }]);
    flood.stop();
    // once the server has seen them close, it takes connections again
    await until(async () => (await server.api('/healthz').catch(() => null))?.status === 200, 20_000);
    expect((await server.api('/healthz')).status).toBe(200);
    await server.close();
  }, 40_000);
});
