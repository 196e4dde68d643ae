// `node bench/profile.mjs [seconds] [--links N] [--slugs N] [--db seeded.db] [--no-prof]`: loads
// `GET /{slug}` on the real server started with --cpu-prof and leaves the profile in
// $TMPDIR/shortener-profiles (open it in Chrome DevTools). `--links` (default 1,000) links are seeded, or
// a copy of `--db` (a database bench/seed.mjs filled with that many) is used; `--slugs` (default 1,000)
// distinct slugs rotate, so `--links 1000000 --slugs 50000` profiles the cache-miss case. Prints req/s,
// p99 and the server's CPU-µs per redirect. For finding hot spots, not for the benchmark's numbers.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { loadRound, rotation } from './lib/load.mjs';
import { cpuSeconds, freePort, seed, startServer, stop } from './lib/processes.mjs';
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
const dbPath = join(dir, 'bench.db');
if (seeded) copyFileSync(seeded, dbPath);
else await seed('links', dbPath, 's.bench', 0, links);
const port = await freePort();
const flags = process.argv.includes('--no-prof') ? [] : ['--cpu-prof', `--cpu-prof-dir=${profiles}`];
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
const requests = rotation(spreadSlugs(links, slugs), 's.bench');
const warm = await loadRound({ url: server.url, requests, amount: 20_000, expect: 302 });
const cpu = cpuSeconds(server.pid);
const amount = Math.round(warm.rps * seconds);
const r = await loadRound({ url: server.url, requests, amount, expect: 302 });
const us = ((cpuSeconds(server.pid) - cpu) * 1e6) / amount;
process.stdout.write(
  `${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ${us.toFixed(1)} CPU-µs per redirect\n`,
);
await stop(server);
rmSync(dir, { recursive: true, force: true });
if (flags.length > 0) process.stdout.write(`profile written to ${profiles}\n`);
