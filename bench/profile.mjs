// `node bench/profile.mjs [seconds] [--links N] [--slugs N] [--db seeded.db] [--no-prof]`: loads
// `GET /{slug}` on the real server started with --cpu-prof and leaves the profile in
// $TMPDIR/shortener-profiles (open it in Chrome DevTools). `--links` (default 1,000) links are seeded, or
// a copy of `--db` (a database bench/seed.mjs filled with that many) is used; `--slugs` (default 1,000)
// distinct slugs rotate, so `--links 1000000 --slugs 50000` profiles the cache-miss case. Prints req/s,
// p99 and the server's CPU-µs per redirect, in all and by thread (the event loop, SQLite's checkpointer
// and visit worker, V8's helpers), the WAL's largest size (sampled every 100 ms) and the server's memory
// (VmRSS, RssAnon, RssFile) at the end. `PROFILE_IMPORT=file.mjs` preloads a module into the server
// (node --import), which gets SIGUSR2 before the server stops (to dump what it observed). For finding hot
// spots, not for the benchmark's numbers.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadRound, rotation } from './lib/load.mjs';
import { cpuSeconds, freePort, seed, startServer, stop, threadCpuSeconds } from './lib/processes.mjs';
import { spreadSlugs } from './lib/redirects.mjs';

const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const seconds = Number(process.argv[2]?.startsWith('--') ? 5 : (process.argv[2] ?? 5));
const links = Number(option('--links', 1000));
const slugs = Number(option('--slugs', 1000));
const seeded = option('--db', null);
const profiles = join(tmpdir(), 'shortener-profiles');
const dir = mkdtempSync(join(tmpdir(), 'shortener-profile-'));
// removed however this ends (its output piped into `head` ends it at the first line)
process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
const dbPath = join(dir, 'bench.db');
if (seeded) copyFileSync(seeded, dbPath);
else await seed('links', dbPath, 's.bench', 0, links);
const port = await freePort();
const flags = process.argv.includes('--no-prof') ? [] : ['--cpu-prof', `--cpu-prof-dir=${profiles}`];
if (process.env.PROFILE_IMPORT) flags.push('--import', process.env.PROFILE_IMPORT);
if (process.env.PROFILE_NODE_FLAGS) flags.push(...process.env.PROFILE_NODE_FLAGS.split(' '));
const server = await startServer(
  {
    PORT: String(port),
    DB_PATH: dbPath,
    SHORT_DOMAINS: 'http://s.bench',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_ANON_HOUR: '1000000000',
    RATE_LIMIT_ANON_DAY: '1000000000',
  },
  flags,
);
let walMaxMb = 0;
const walTimer = setInterval(() => {
  try {
    walMaxMb = Math.max(walMaxMb, statSync(`${dbPath}-wal`).size / 2 ** 20);
  } catch {
    // no WAL now
  }
}, 100);
const requests = rotation(spreadSlugs(links, slugs), 's.bench');
const warm = await loadRound({ url: server.url, requests, amount: 20_000, expect: 302 });
const cpu = cpuSeconds(server.pid);
const threadsBefore = threadCpuSeconds(server.pid);
const amount = Math.round(warm.rps * seconds);
const r = await loadRound({ url: server.url, requests, amount, expect: 302 });
const us = ((cpuSeconds(server.pid) - cpu) * 1e6) / amount;
process.stdout.write(
  `${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ${us.toFixed(1)} CPU-µs per redirect\n`,
);
// per thread: the main thread, the worker threads (SQLite's checkpointer and compactor), V8's and libuv's
const threadLines = [];
for (const [tid, { name, seconds }] of threadCpuSeconds(server.pid)) {
  const perRedirect = ((seconds - (threadsBefore.get(tid)?.seconds ?? 0)) * 1e6) / amount;
  if (perRedirect >= 0.5)
    threadLines.push(`  ${name} (${tid}): ${perRedirect.toFixed(1)} CPU-µs per redirect`);
}
process.stdout.write(`${threadLines.join('\n')}\n`);
const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
const memory = ['VmRSS', 'RssAnon', 'RssFile'].map(
  (field) => status.match(new RegExp(`${field}:\\s+(\\d+)`))?.[0],
);
clearInterval(walTimer);
process.stdout.write(`  WAL at most ${walMaxMb.toFixed(1)} MB\n`);
process.stdout.write(`  memory: ${memory.join(', ').replace(/\s+/g, ' ')} kB\n`);
if (process.env.PROFILE_IMPORT) {
  process.kill(server.pid, 'SIGUSR2');
  await sleep(500);
}
await stop(server);
rmSync(dir, { recursive: true, force: true });
if (flags.length > 0) process.stdout.write(`profile written to ${profiles}\n`);
