// `node bench/compaction.mjs <seeded.db> [links] [--visits N] [--chunk N] [--pause MS] [--worker]
// [--folds N] [--sql TEXT]`:
// what the compaction of cold visits costs, apart from everything else. On a copy of a database
// bench/seed.mjs filled with `links` links (default 1,000,000), `--visits` (default 50,000) cold visits
// (each on another link, as in the benchmark's cache-miss case) are looked up, folded and flushed into
// the visit log once; then that same log is folded `--folds` times (default 3), each on a fresh copy,
// `--chunk` entries a transaction (default the server's 250), `--pause` ms between two (as the server
// pauses; default 0), in the server's worker thread with `--worker`. `--sql` runs on each copy first (e.g.
// `DROP TRIGGER …` to see a trigger's share). Prints CPU-µs per log entry of each fold (every thread of
// this process: the checkpointer's counts, and a last checkpoint of what the fold left in the WAL). Build
// first (`npx tsc -b`).
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setImmediate, setTimeout as sleep } from 'node:timers/promises';
import BetterSqlite3 from 'better-sqlite3';
import { createUserAgentParser } from '@shortener/adapter-http';
import { createVisitRecorder } from '@shortener/core';
import { openSqliteStores } from '@shortener/store-sqlite';
import { BROWSER_UA } from './lib/load.mjs';
import { spreadSlugs } from './lib/redirects.mjs';

const option = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const [seeded, rawLinks] = process.argv.slice(2);
if (!seeded) throw new Error('usage: node bench/compaction.mjs <seeded.db> [links] [--visits N] [--chunk N]');
const links = Number(rawLinks?.startsWith('--') ? 1_000_000 : (rawLinks ?? 1_000_000));
const visits = Number(option('--visits', 50_000));
const chunk = Number(option('--chunk', 250));
const folds = Number(option('--folds', 3));
const pauseMs = Number(option('--pause', 0));
const inWorker = process.argv.includes('--worker');
const sql = option('--sql', null);
const PER_FLUSH = 10_000;

const dir = mkdtempSync(join(tmpdir(), 'shortener-compaction-'));
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** The seeded database with `visits` cold visits flushed into its log, not folded. */
async function flushed() {
  const path = join(dir, 'flushed.db');
  copyFileSync(seeded, path);
  const stores = openSqliteStores(path, {});
  try {
    const recorder = createVisitRecorder({
      visits: stores.visits,
      clock: { now: () => Date.now() },
      random: { bytes: (n) => new Uint8Array(randomBytes(n)) },
      userAgents: createUserAgentParser(),
      geo: null,
      rowsPerWrite: 2_500,
    });
    await recorder.flush(); // the day's salt
    const slugs = spreadSlugs(links, visits).map((p) => p.slice(1));
    for (let start = 0; start < slugs.length; start += PER_FLUSH) {
      const found = [];
      for (const slug of slugs.slice(start, start + PER_FLUSH))
        found.push(await stores.links.findForRedirect('s.bench', slug));
      for (const [i, link] of found.entries()) {
        const ip = `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`;
        const visit = {
          bot: false,
          countable: true,
          ip,
          userAgent: BROWSER_UA,
          referrer: null,
          country: null,
        };
        recorder.track({ linkId: link.id, at: Date.now(), counted: false, visit });
      }
      await setImmediate(); // the fold runs once per event-loop turn
      await recorder.flush();
    }
    return { path, entries: await stores.visits.logSize() };
  } finally {
    await stores.close();
  }
}

try {
  const { path, entries } = await flushed();
  for (let fold = 1; fold <= folds; fold++) {
    const copy = join(dir, `fold-${fold}.db`);
    copyFileSync(path, copy);
    if (sql !== null) {
      const raw = new BetterSqlite3(copy);
      raw.exec(sql);
      raw.close();
    }
    const stores = openSqliteStores(copy, { backgroundCheckpoints: true, backgroundCompaction: inWorker });
    const started = cpuMs();
    let walMb = 0;
    const walTimer = setInterval(() => (walMb = Math.max(walMb, stores.walBytes() / 2 ** 20)), 20);
    while ((await stores.visits.compact(chunk)) > 0) if (pauseMs > 0) await sleep(pauseMs);
    clearInterval(walTimer);
    // what the fold left in the WAL, copied into the database file: the checkpoints' share counts too
    const raw = new BetterSqlite3(copy);
    raw.pragma('wal_checkpoint(PASSIVE)');
    raw.close();
    const perEntry = ((cpuMs() - started) * 1000) / entries;
    await stores.close();
    rmSync(copy, { force: true });
    process.stdout.write(
      `fold ${fold}: ${entries.toLocaleString('en')} log entries of cold visits over ${links.toLocaleString('en')} links, ` +
        `${chunk} a transaction${pauseMs > 0 ? `, ${pauseMs} ms apart` : ''}${inWorker ? ' (worker)' : ''}: ${perEntry.toFixed(1)} CPU-µs an entry, WAL at most ${walMb.toFixed(1)} MB\n`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
