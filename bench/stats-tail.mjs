// `node bench/stats-tail.mjs <db> <linkId> <visits> [--per-flush N]`: the statistics reads of a link
// whose last `visits` visits are still in the visit log, not folded (issue 29). Appends them as the
// recorder would, in flushes of N visits of today (default 10,000: 100,000 visits are then ten log
// entries, ten seconds of 10,000 visits a second on one link, five times what the compactor leaves
// unfolded; 15 countries, 100 referrers, 4 devices, 7 browsers, a new visitor per visit: the most `unique`
// counts the log can carry), then times the three store reads `getStats` makes (total by day, sums by key,
// unique by day over 30 days), in process and without HTTP, with no compactor running. Prints one JSON
// line: p50 and p99 in ms, the tail's entries and visitors, the total read. Run it on a database no
// server is folding (the benchmark runs it after the shutdown).
import { randomBytes } from 'node:crypto';
import process from 'node:process';
import { addDays, dayOf } from '@shortener/core';
import { openSqliteStores } from '@shortener/store-sqlite';

const perFlushAt = process.argv.indexOf('--per-flush');
const PER_FLUSH = perFlushAt > 0 ? Number(process.argv[perFlushAt + 1]) : 10_000;
const READS = 500;
const [dbPath, linkId, rawVisits] = process.argv.slice(2);
const visits = Number(rawVisits ?? 100_000);
const stores = openSqliteStores(dbPath);
const today = dayOf(Date.now());

/** One flush of `count` visits: counters summed per key, as the recorder's aggregate writes them. */
function flushOf(first, count) {
  const counters = new Map();
  const add = (dimension, key) => {
    const id = `${dimension}\u0000${key}`;
    const prior = counters.get(id);
    if (prior) prior.count++;
    else counters.set(id, { linkId, day: today, dimension, key, count: 1 });
  };
  const visitors = [];
  for (let i = first; i < first + count; i++) {
    add('total', new Date().toISOString().slice(11, 13));
    add('country', `C${i % 15}`);
    add('referrer', `site${i % 100}.example`);
    add('device', `d${i % 4}`);
    add('browser', `b${i % 7}`);
    visitors.push({ linkId, day: today, hash: randomBytes(16).toString('hex') });
  }
  return { clicks: [{ linkId, count, lastClickAt: Date.now() }], counters: [...counters.values()], visitors };
}

try {
  const started = performance.now();
  for (let first = 0; first < visits; first += PER_FLUSH)
    await stores.visits.record(flushOf(first, Math.min(PER_FLUSH, visits - first)));
  const appendMs = performance.now() - started;
  const from = addDays(today, -29);
  const read = () =>
    Promise.all([
      stores.visits.countsByDay(linkId, 'total', from, today),
      stores.visits.countsByKey(linkId, from, today),
      stores.visits.countsByDay(linkId, 'unique', from, today),
    ]);
  const [totals] = await read();
  const times = [];
  for (let i = 0; i < READS; i++) {
    const at = performance.now();
    await read();
    times.push(performance.now() - at);
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  const total = totals.reduce((sum, c) => sum + c.count, 0);
  const entries = Math.ceil(visits / PER_FLUSH);
  process.stdout.write(
    `${JSON.stringify({ visits, entries, visitors: visits, total, appendMs, p50: at(0.5), p99: at(0.99) })}\n`,
  );
} finally {
  await stores.close();
}
