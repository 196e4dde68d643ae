// `node bench/slow-connections.mjs [ROUNDS]`: what 1,000 slow connections from one other address cost the
// redirects (issue 20). The real `shortener serve` as a child process (`npx tsc -b` first) with the
// limits of packages/system-tests/test/http/slow-connections.test.ts (a 2.5 s headers timeout, 200 connections
// per address); in each round redirects per second over 4 keep-alive connections for 1 s, unloaded and
// then while 1,000 connections from 127.0.0.2 each send a request's start and a header line every
// 300 ms (800 refused on arrival, 200 held until the timeout). Prints each round and the median ratio
// (attacked / unloaded) against its target, 0.8; exits 1 when it is missed. The ratio lived in that test
// until issue 60: a loaded machine (load 15) failed it. Never part of `npm test`.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { startBenchServer, stop } from './lib/processes.mjs';

const ROUNDS = Number(process.argv[2] ?? 5);
const TARGET = 0.8;
const SHORT_HOST = 's.bench';
const ATTACKERS = 1_000;

/** Redirects per second of `GET /{slug}` over 4 keep-alive connections for `ms`; only 302s count. */
async function redirectRate(port, slug, ms = 1000) {
  const agent = new Agent({ keepAlive: true, maxSockets: 4 });
  const get = () =>
    new Promise((resolve, reject) => {
      const options = { host: '127.0.0.1', port, path: `/${slug}`, headers: { host: SHORT_HOST }, agent };
      request(options, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      })
        .on('error', reject)
        .end();
    });
  const started = performance.now();
  let redirects = 0;
  const loop = async () => {
    while (performance.now() - started < ms) if ((await get()) === 302) redirects++;
  };
  await Promise.all([loop(), loop(), loop(), loop()]);
  agent.destroy();
  return redirects / ((performance.now() - started) / 1000);
}

/** The slow connections, from 127.0.0.2; `stop()` closes them. */
function openSlow(port) {
  const sockets = Array.from({ length: ATTACKERS }, () => {
    const socket = connect({ host: '127.0.0.1', port, localAddress: '127.0.0.2' });
    socket.on('error', () => undefined);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n'); // queued before any trickle line
    return socket;
  });
  const trickle = setInterval(() => {
    for (const socket of sockets) if (socket.writable) socket.write('X-Slow: 1\r\n');
  }, 300);
  return {
    held: () => sockets.filter((socket) => !socket.destroyed).length,
    stop() {
      clearInterval(trickle);
      for (const socket of sockets) socket.destroy();
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'shortener-slow-'));
const server = await startBenchServer(join(dir, 'shortener.db'), SHORT_HOST, {
  HTTP_HEADERS_TIMEOUT_MS: '2500',
  HTTP_REQUEST_TIMEOUT_MS: '3000',
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: '200',
});
try {
  const port = Number(new URL(server.url).port);
  const slug = 'slow';
  const created = await fetch(`${server.url}/api/v1/links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'https://example.com/slow', alias: slug }),
  });
  if (created.status !== 201) throw new Error(`creating the link: ${created.status}`);
  await redirectRate(port, slug, 3000); // warm-up: after 1 s, a cold first round gave a ratio of 2.7
  const ratios = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const unloaded = await redirectRate(port, slug);
    const attack = openSlow(port);
    await sleep(300); // the refusals done, the trickle going
    const attacked = await redirectRate(port, slug);
    const held = attack.held();
    attack.stop();
    ratios.push(attacked / unloaded);
    process.stdout.write(
      `round ${round}: ${unloaded.toFixed(0)} redirects/s unloaded, ${attacked.toFixed(0)} attacked ` +
        `(${held} slow connections held at the end), ratio ${(attacked / unloaded).toFixed(3)}\n`,
    );
    await sleep(500); // the server closes its side of the attack before the next round
  }
  const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)];
  const met = median > TARGET;
  process.stdout.write(`median ratio ${median.toFixed(3)}: target ${TARGET} ${met ? 'met' : 'missed'}\n`);
  process.exitCode = met ? 0 : 1;
} finally {
  await stop(server);
  rmSync(dir, { recursive: true, force: true });
}
