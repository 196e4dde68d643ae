// `node bench/profile-creation.mjs [amount] [--bulk] [--cold] [--no-prof]`: creates `amount` links (default
// 20,000) through `POST /api/v1/links` (one per request, 50 connections; `--bulk`: `POST /api/v1/bulk` with
// 200 URLs, 10 connections) with an API key on the real server started with --cpu-prof, after a quarter
// of that as warm-up (none with `--cold`, as the benchmark measures), and leaves the profile in
// $TMPDIR/shortener-profiles (open it in Chrome DevTools, or `node bench/lib/profile-top.mjs <file>`).
// Prints links/s, latency and the server's CPU-µs per link. `PROFILE_NODE_FLAGS` adds node flags to the
// server (`--perf-basic-prof` for `perf record` with `--no-prof`). For finding hot spots, not for the
// benchmark's numbers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { loadRound } from './lib/load.mjs';
import { cpuSeconds, createKey, startBenchServer, stop } from './lib/processes.mjs';

const amount = Number(process.argv[2]?.startsWith('--') ? 20_000 : (process.argv[2] ?? 20_000));
const bulk = process.argv.includes('--bulk');
const profiles = join(tmpdir(), 'shortener-profiles');
const dir = mkdtempSync(join(tmpdir(), 'shortener-profile-'));
const dbPath = join(dir, 'bench.db');
const key = await createKey(dbPath);
const profiling = !process.argv.includes('--no-prof');
const flags = profiling ? ['--cpu-prof', `--cpu-prof-dir=${profiles}`] : [];
if (process.env.PROFILE_NODE_FLAGS) flags.push(...process.env.PROFILE_NODE_FLAGS.split(' '));
const server = await startBenchServer(dbPath, 's.bench', {}, flags);
const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
const body = bulk
  ? JSON.stringify({ urls: Array.from({ length: 200 }, (_, i) => `https://example.com/bulk/${i}`) })
  : '{"url":"https://example.com/created"}';
const round = (n) =>
  loadRound({
    url: server.url,
    amount: n,
    connections: bulk ? 10 : 50,
    expect: bulk ? 200 : 201,
    requests: [{ method: 'POST', path: bulk ? '/api/v1/bulk' : '/api/v1/links', headers, body }],
  });
const perRequest = bulk ? 200 : 1;
const requests = Math.ceil(amount / perRequest);
if (!process.argv.includes('--cold')) await round(Math.ceil(requests / 4));
const cpu = cpuSeconds(server.pid);
const r = await round(requests);
const spent = cpuSeconds(server.pid) - cpu;
const us = (spent * 1e6) / (requests * perRequest);
process.stdout.write(
  `${Math.round(r.rps * perRequest)} links/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ` +
    `${us.toFixed(1)} CPU-µs per link (server CPU ${Math.round((100 * spent) / r.seconds)}%, ` +
    `client ${Math.round(r.clientCpu * 100)}%)\n`,
);
await stop(server);
rmSync(dir, { recursive: true, force: true });
if (profiling) process.stdout.write(`profile written to ${profiles}\n`);
