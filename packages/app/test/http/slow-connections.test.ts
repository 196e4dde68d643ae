import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink, startTestServer, uniqueAlias } from './harness.js';
import type { Json, TestServer } from './harness.js';
import { redirectRate } from './load.js';

// Issue 20: ~20,000 slow connections from one host used every file descriptor and /healthz failed for
// ~50 s with nothing logged. The attackers below come from other loopback addresses (127.0.0.2, .3)
// than the measured clients (127.0.0.1), as they would from another host.

/** Connections that send a request's start and then a header line every 300 ms, never the end. */
interface SlowClients {
  /** Milliseconds from the start to each connection's close, for the closed ones. */
  readonly closedAfter: number[];
  readonly sockets: Socket[];
  stop(): void;
}

async function openSlow(
  port: number,
  count: number,
  localAddress: string,
  silent = false,
): Promise<SlowClients> {
  const started = performance.now();
  const closedAfter: number[] = [];
  const sockets = Array.from({ length: count }, () => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    socket.on('error', () => undefined);
    socket.on('close', () => closedAfter.push(performance.now() - started));
    socket.on('data', () => undefined);
    if (!silent) socket.once('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'));
    return socket;
  });
  const trickle = setInterval(() => {
    if (!silent) for (const socket of sockets) if (socket.writable) socket.write('X-Slow: 1\r\n');
  }, 300);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return {
    closedAfter,
    sockets,
    stop() {
      clearInterval(trickle);
      for (const socket of sockets) socket.destroy();
    },
  };
}

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check() && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

const refusals = (server: TestServer): Json[] =>
  server.logs.map((line) => JSON.parse(line) as Json).filter((line) => line.msg === 'connections refused');

describe('slow connections', () => {
  let server: TestServer;
  let slug: string;
  beforeAll(async () => {
    server = await startTestServer({
      HTTP_HEADERS_TIMEOUT_MS: '2500',
      HTTP_REQUEST_TIMEOUT_MS: '3000',
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '200',
    });
    slug = uniqueAlias('slow');
    await createLink(server, { url: 'https://example.com/slow', alias: slug });
  });
  afterAll(() => server.close());

  it('are capped per address, cut off after the headers timeout, and leave redirects and /healthz answering', async () => {
    const unloaded = await redirectRate(server.port, server.hostA, `/${slug}`, 1000);
    const attack = await openSlow(server.port, 1000, '127.0.0.2');
    // 800 are refused on arrival, 200 admitted and kept busy by the trickle
    await until(() => attack.closedAfter.length >= 800);
    const attacked = await redirectRate(server.port, server.hostA, `/${slug}`, 1000);
    expect((await server.api('/healthz')).status).toBe(200);
    expect(attack.closedAfter.length).toBe(800);
    expect(attacked).toBeGreaterThan(unloaded * 0.8);
    // the admitted ones are cut off by the 2.5 s headers timeout, not before
    await until(() => attack.closedAfter.length === 1000, 5000);
    const admitted = attack.closedAfter.slice(800);
    expect(Math.min(...admitted)).toBeGreaterThan(2400);
    expect(Math.max(...admitted)).toBeLessThan(2500 + 1500);
    attack.stop();
  }, 30_000);

  it('cuts off connections that never send a byte after the headers timeout', async () => {
    const silent = await openSlow(server.port, 50, '127.0.0.3', true);
    await until(() => silent.closedAfter.length === 50, 5000);
    expect(Math.min(...silent.closedAfter)).toBeGreaterThan(2400);
    silent.stop();
  });

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
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(flood.closedAfter.length).toBe(50);
    expect(refusals(server)).toMatchObject([{ server_cap: 1, max_connections: 100 }]);
    flood.stop();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await server.api('/healthz')).status).toBe(200);
    await server.close();
  });
});
