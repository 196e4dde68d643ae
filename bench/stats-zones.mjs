// `node bench/stats-zones.mjs [links]`: the statistics reads of issue 40 on SQLite, in process and
// without HTTP: one link with a year of visits (every hour of 366 days, 1,054,080 visits, 15 countries,
// 20 referrers, 4 devices, 7 browsers a day) read over 366 days in Europe/Vienna, and an account of
// `links` links (default 10,000) with 30 days of visits each (two hours and one key per dimension a day),
// read over 30 days (GET /api/v1/stats). The
// counters are written folded, as the compactor leaves them. Prints one JSON line: p50 and p99 in ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import BetterSqlite3 from 'better-sqlite3';
import { addDays, dayOf, getStats, getStatsAcross } from '@shortener/core';
import { MIGRATIONS, openSqliteStores, sumCounterWeeks } from '@shortener/store-sqlite';
import { aLink, anAccount, aServiceConfig } from '@shortener/testkit';

const LINKS = Number(process.argv[2] ?? 10_000);
// enough reads that the p99 is not simply the slowest one
const READS = 200;
const dir = mkdtempSync(join(tmpdir(), 'stats-zones-'));
const path = join(dir, 'bench.db');
const stores = openSqliteStores(path);
const account = anAccount();
await stores.accounts.createAccount(account);
const links = Array.from({ length: LINKS }, () => aLink({ accountId: account.id }));
for (let i = 0; i < links.length; i += 1000) await stores.links.insertMany(links.slice(i, i + 1000));
const today = dayOf(Date.now());

const raw = new BetterSqlite3(path);
// seeded without the triggers that keep the sums per account, which are then made at once the way
// migration 20 makes them from the counters an older database holds (and the triggers put back)
const accountSums = MIGRATIONS.find((m) => m.version === 20).sql;
for (const name of ['added', 'changed', 'removed']) raw.exec(`DROP TRIGGER account_counters_${name}`);
const insert = raw.prepare(
  'INSERT INTO visit_counters (link_id, day, dimension, key, count) VALUES (?, ?, ?, ?, ?)',
);
const keyed = (linkId, day, visits, spread) => {
  const each = (dimension, keys, name) => {
    for (let k = 0; k < keys; k++) insert.run(linkId, day, dimension, name(k), Math.ceil(visits / keys));
  };
  each('country', spread ? 15 : 1, (k) => `C${k}`);
  each('referrer', spread ? 20 : 1, (k) => `site${k}.example`);
  each('device', spread ? 4 : 1, (k) => `d${k}`);
  each('browser', spread ? 7 : 1, (k) => `b${k}`);
};
raw.transaction(() => {
  const [busy] = links;
  for (let i = 0; i < 367; i++) {
    const day = addDays(today, -i);
    for (let h = 0; h < 24; h++) insert.run(busy.id, day, 'total', String(h).padStart(2, '0'), 120);
    keyed(busy.id, day, 2880, true);
  }
  for (const link of links.slice(1)) {
    for (let i = 0; i < 30; i++) {
      const day = addDays(today, -i);
      insert.run(link.id, day, 'total', '09', 2);
      insert.run(link.id, day, 'total', '17', 1);
      keyed(link.id, day, 3, false);
    }
  }
})();
raw.exec(accountSums);
// and the triggers as migration 22 left them (they ask the owned links' index)
raw.exec(MIGRATIONS.find((m) => m.version === 22).sql);
// the weeks that are over summed, as the server does beside its folds (migration 023)
sumCounterWeeks(raw);
raw.close();

const deps = { ...stores, clock: { now: () => Date.now() }, config: aServiceConfig() };
const caller = { accountId: account.id, editToken: null };
async function time(read) {
  const ms = [];
  for (let i = 0; i < READS; i++) {
    const start = performance.now();
    const result = await read();
    if (!result.ok) throw new Error(result.error.message);
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  const at = (q) => Number(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(2));
  return { p50: at(0.5), p99: at(0.99) };
}
const year = await time(() => getStats(deps, links[0].id, { days: 365, tz: 'Europe/Vienna' }, caller));
const account30 = await time(() => getStatsAcross(deps, null, { days: 30, tz: 'Europe/Vienna' }, caller));
process.stdout.write(
  `${JSON.stringify({ links: LINKS, link_year_vienna: year, account_30_days: account30 })}\n`,
);
await stores.close();
rmSync(dir, { recursive: true, force: true });
