// `node bench/profile.mjs [seconds]`: loads `GET /{slug}` on the real server started with --cpu-prof and
// leaves the profile in $TMPDIR/shortener-profiles (open it in Chrome DevTools). For finding hot spots,
// not for numbers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { loadRound, rotation } from './lib/load.mjs';
import { freePort, seed, startServer, stop } from './lib/processes.mjs';
import { spreadSlugs } from './lib/redirects.mjs';

const seconds = Number(process.argv[2] ?? 5);
const profiles = join(tmpdir(), 'shortener-profiles');
const dir = mkdtempSync(join(tmpdir(), 'shortener-profile-'));
const dbPath = join(dir, 'bench.db');
await seed('links', dbPath, 's.bench', 0, 1000);
const port = await freePort();
const server = await startServer(
  {
    PORT: String(port),
    DB_PATH: dbPath,
    SHORT_DOMAINS: 'http://s.bench',
    LOG_LEVEL: 'warn',
  },
  ['--cpu-prof', `--cpu-prof-dir=${profiles}`],
);
const requests = rotation(spreadSlugs(1000, 1000), 's.bench');
const warm = await loadRound({ url: server.url, requests, amount: 20_000, expect: 302 });
const r = await loadRound({ url: server.url, requests, amount: Math.round(warm.rps * seconds), expect: 302 });
process.stdout.write(`${Math.round(r.rps)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms\n`);
await stop(server);
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`profile written to ${profiles}\n`);
