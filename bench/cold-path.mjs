// `node bench/cold-path.mjs <seeded.db> [links] [--visits N] [--per-flush N] [--rows-per-write N]
// [--compact-chunk N]`:
// where a cold (cache-miss) redirect's time goes, in process and without HTTP, on a copy of a database
// bench/seed.mjs filled with `links` links (default 1,000,000): the look-up of a slug not seen for a
// while (`findForRedirect`, as the redirect does), the fold of its visit into counters (the recorder),
// the flush that appends it to the visit log (in transactions of N rows, default the server's 2,500 on
// SQLite), with the WAL bytes that flush leaves for the checkpointer, and the compaction that folds the
// log into the counters (on the server, in a worker thread). Every visit is on another link, as in the
// benchmark's cache-miss case.
// Prints CPU-µs per visit for each phase. Build first (`npx tsc -b`).
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setImmediate } from 'node:timers/promises';
import { createUserAgentParser } from '@shortener/adapter-http';
import { createVisitRecorder } from '@shortener/core';
import { openSqliteStores } from '@shortener/store-sqlite';
import { BROWSER_UA } from './lib/load.mjs';
import { spreadSlugs } from './lib/redirects.mjs';

const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const [seeded, rawLinks] = process.argv.slice(2);
if (!seeded) throw new Error('usage: node bench/cold-path.mjs <seeded.db> [links] [--visits N]');
const links = Number(rawLinks?.startsWith('--') ? 1_000_000 : (rawLinks ?? 1_000_000));
const visits = option('--visits', 50_000);
const perFlush = option('--per-flush', 10_000);

const dir = mkdtempSync(join(tmpdir(), 'shortener-cold-'));
const dbPath = join(dir, 'bench.db');
copyFileSync(seeded, dbPath);
const stores = openSqliteStores(dbPath, { backgroundCheckpoints: true });
const walBytes = () => {
  try {
    return statSync(`${dbPath}-wal`).size;
  } catch {
    return 0;
  }
};
const random = { bytes: (n) => new Uint8Array(randomBytes(n)) };
const recorder = createVisitRecorder({
  visits: stores.visits,
  clock: { now: () => Date.now() },
  random,
  userAgents: createUserAgentParser(),
  geo: null,
  rowsPerWrite: option('--rows-per-write', 2_500),
});
const slugs = spreadSlugs(links, visits).map((path) => path.slice(1));
const time = { lookup: 0, fold: 0, flush: 0, compact: 0, wal: 0 };
// CPU time of the process (every thread: the checkpointer's counts with the flush), in ms; the wall
// time of a phase depends on whatever else the machine runs
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
try {
  await recorder.flush(); // the day's salt
  for (let start = 0; start < slugs.length; start += perFlush) {
    const chunk = slugs.slice(start, start + perFlush);
    let t = cpuMs();
    const found = [];
    for (const slug of chunk) found.push(await stores.links.findForRedirect('s.bench', slug));
    time.lookup += cpuMs() - t;
    t = cpuMs();
    for (const [i, link] of found.entries()) {
      const visit = { bot: false, countable: true, ip: `10.0.${i >> 8}.${i & 255}`, userAgent: BROWSER_UA };
      recorder.track({
        linkId: link.id,
        at: Date.now(),
        counted: false,
        visit: { ...visit, referrer: null, country: null },
      });
    }
    await setImmediate(); // the fold runs once per event-loop turn
    time.fold += cpuMs() - t;
    const wal = walBytes();
    t = cpuMs();
    await recorder.flush();
    time.flush += cpuMs() - t;
    time.wal += Math.max(0, walBytes() - wal);
  }
  // the compactor's share, on this connection (the server runs it in a worker thread)
  const t = cpuMs();
  const chunk = option('--compact-chunk', 500);
  while ((await stores.visits.compact(chunk)) > 0);
  time.compact += cpuMs() - t;
  const per = (ms) => ((ms * 1000) / slugs.length).toFixed(1);
  process.stdout.write(
    `${slugs.length.toLocaleString('en')} cold visits over ${links.toLocaleString('en')} links, flushed every ${perFlush.toLocaleString('en')}: ` +
      `CPU-µs per visit: look-up ${per(time.lookup)}, fold ${per(time.fold)}, flush ${per(time.flush)}, ` +
      `compaction ${per(time.compact)}; ` +
      `WAL grew ${(time.wal / slugs.length).toFixed(0)} bytes per visit (at least; the checkpointer truncates it)\n`,
  );
} finally {
  await stores.close();
  rmSync(dir, { recursive: true, force: true });
}
