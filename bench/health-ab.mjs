// `node bench/health-ab.mjs BASE_CHECKOUT [ROUNDS] [SECONDS]`: a same-run A/B of the hot redirect while
// link health checks run (decisions §23, issue 56): a built checkout of a commit before link health
// against this build with HEALTH_CHECKS=off and with the checks running flat out (20,000 links on 30 local
// destination sites, HEALTH_HOST_GAP_MS=100, HEALTH_CHECK_HOURS=1, so every round overlaps checks). wrk
// rounds alternate between the three servers (1 thread, 50 connections, `--latency`). Never part of
// `npm test`; docs/health.md has the last numbers.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { abRounds } from './lib/ab-rounds.mjs';

const here = fileURLToPath(new URL('..', import.meta.url));
if (process.argv[2] === undefined) {
  process.stderr.write('usage: node bench/health-ab.mjs BASE_CHECKOUT [ROUNDS] [SECONDS]\n');
  process.exit(2);
}
const rounds = Number(process.argv[3] ?? 4);
const seconds = Number(process.argv[4] ?? 5);
const SITES = 30;
// enough that the checks are still under way during every round (they pace themselves below the requests)
const LINKS = Number(process.env.HEALTH_AB_LINKS ?? 20_000);

// the destinations: answer HEAD after 5 ms, counting what they were asked
let asked = 0;
const sites = await Promise.all(
  Array.from({ length: SITES }, async () => {
    const site = createServer((_req, res) => {
      asked += 1;
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), 5);
    });
    await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
    return { site, url: `http://127.0.0.1:${site.address().port}` };
  }),
);

const common = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  MALLOC_ARENA_MAX: '2',
  ALLOW_PRIVATE_HOSTS: 'true',
  RATE_LIMIT_KEY_HOUR: '1000000',
};
const variants = [
  { name: 'base (no link health)', dir: process.argv[2], port: 4201, env: {} },
  { name: 'this build, checks off', dir: here, port: 4202, env: { HEALTH_CHECKS: 'off' } },
  {
    name: 'this build, checks running',
    dir: here,
    port: 4203,
    env: { HEALTH_CHECKS: 'on', HEALTH_HOST_GAP_MS: '100', HEALTH_CHECK_HOURS: '1' },
  },
];

const bin = 'packages/app/bin/shortener.js';
for (const v of variants) {
  v.db = join(mkdtempSync(join(tmpdir(), 'health-ab-')), 'shortener.db');
  const env = { ...process.env, ...common, ...v.env, DB_PATH: v.db, PORT: String(v.port) };
  execFileSync(process.execPath, [bin, 'accounts', 'create', 'bench'], { cwd: v.dir, env, stdio: 'ignore' });
  v.key = execFileSync(process.execPath, [bin, 'keys', 'create', 'bench', '--name', 'bench'], {
    cwd: v.dir,
    env,
    encoding: 'utf8',
  }).trim();
  v.child = spawn(process.execPath, ['--no-memory-reducer', '--max-old-space-size=512', bin, 'serve'], {
    cwd: v.dir,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
await sleep(4000);
for (const v of variants) {
  const api = (path, body) =>
    fetch(`http://127.0.0.1:${v.port}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${v.key}` },
      body: JSON.stringify(body),
    });
  const made = await api('/api/v1/links', { url: 'https://example.com/bench', alias: 'bench' });
  if (made.status !== 201) throw new Error(`${v.name}: ${made.status} ${await made.text()}`);
  if (v.env.HEALTH_CHECKS !== 'on') continue;
  // the benchmark's own link is never checked: its destination is not reachable from here
  for (let i = 0; i < LINKS; i += 100) {
    const urls = Array.from({ length: 100 }, (_, j) => `${sites[(i + j) % SITES].url}/page-${i + j}`);
    const bulk = await api('/api/v1/bulk', { urls });
    if (bulk.status !== 200) throw new Error(`${v.name}: bulk ${bulk.status} ${await bulk.text()}`);
  }
}
await sleep(6000); // the first round of checks under way
const askedAt = Date.now();
const askedBefore = asked;
// the destinations asked during each round: how far the checks give way to the redirects
const during = () => {
  const [from, at] = [asked, Date.now()];
  return () => `destinations asked ${((asked - from) / ((Date.now() - at) / 1000)).toFixed(1)}/s`;
};
await abRounds(variants, { rounds, seconds, path: '/bench', during, freezeOthers: true });
const checksPerSecond = ((asked - askedBefore) / ((Date.now() - askedAt) / 1000)).toFixed(1);
for (const v of variants) v.child.kill('SIGTERM');
for (const { site } of sites) site.close();
process.stdout.write(`destinations asked during the rounds: ${checksPerSecond} a second\n`);
