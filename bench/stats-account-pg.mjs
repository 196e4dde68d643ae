// `node bench/stats-account-pg.mjs [links] [reads|fold]` (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test):
// the account part of bench/stats-zones.mjs on PostgreSQL, in process and without HTTP: an account of
// `links` links (default 10,000) with 30 days of visits each (two hours and one key per dimension a day,
// written folded as the compactor leaves them), read over 30 days in Europe/Vienna (GET /api/v1/stats)
// 200 times from the sums per account, and 20 times summing every link's counters (the store without
// `ofAccount`, as before migration 16: the baseline). Then the fold of 100,000 visits over 1,000 links, in
// the compactor's chunks of 100 log entries: anonymous links with migration 16's triggers and without
// them (the baseline), and links of one account. Each in a schema of its own, dropped after. Prints one
// JSON line: p50 and p99 of the reads in ms, the folds' times in ms, and the ratios (one part when named).
import { randomBytes } from 'node:crypto';
import process from 'node:process';
import pg from 'pg';
import { dayOf, getStatsAcross } from '@shortener/core';
import { openPostgresStores } from '@shortener/store-postgres';
import { aLink, anAccount, aServiceConfig } from '@shortener/testkit';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const LINKS = Number(process.argv[2] ?? 10_000);
// enough reads that the p99 is not simply the slowest one
const READS = 200;
const FOLDED_VISITS = 100_000;
const FOLDED_LINKS = 1000;
// the compactor's chunk (packages/app/src/compaction.ts) and a flush of the recorder's size
const COMPACT_CHUNK = 100;
const FLUSH = 1000;

const admin = new pg.Pool({ connectionString: url, max: 1 });

/** Stores on a new schema; `drop` closes them and drops it. */
async function freshStores() {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const stores = openPostgresStores({ connectionString: url, schema });
  await stores.ready();
  const drop = async () => {
    await stores.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  };
  return { stores, schema, drop };
}

async function insertLinks(stores, links) {
  for (let i = 0; i < links.length; i += 1000) await stores.links.insertMany(links.slice(i, i + 1000));
}

/** The ms one call of `read` takes (a failed read ends the run). */
async function timed(read) {
  const start = performance.now();
  const result = await read();
  if (!result.ok) throw new Error(result.error.message);
  return performance.now() - start;
}

/** The p50 and p99 of `ms`, rounded to 0.01 ms. */
function percentiles(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const [p50, p99] = [0.5, 0.99].map(
    (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))],
  );
  return { p50: Number(p50.toFixed(2)), p99: Number(p99.toFixed(2)) };
}

async function accountReads() {
  const { stores, schema, drop } = await freshStores();
  try {
    const account = anAccount();
    await stores.accounts.createAccount(account);
    await insertLinks(
      stores,
      Array.from({ length: LINKS }, () => aLink({ accountId: account.id })),
    );
    const today = dayOf(Date.now());
    // 30 days of every link, server-side: totals at 09 and 17 UTC, one key of each keyed dimension
    await admin.query(
      `INSERT INTO ${schema}.visit_counters (link_id, day, dimension, key, count)
       SELECT l.id, to_char($1::date - d, 'YYYY-MM-DD'), c.dimension, c.key, c.count
       FROM ${schema}.links l, generate_series(0, 29) d,
         (VALUES ('total', '09', 2), ('total', '17', 1), ('country', 'C0', 3), ('referrer', 'site0.example', 3),
           ('device', 'd0', 3), ('browser', 'b0', 3)) AS c(dimension, key, count)`,
      [today],
    );
    await admin.query(`VACUUM ANALYZE`);
    const caller = { accountId: account.id, editToken: null };
    const reads = async (visits, count) => {
      const deps = { ...stores, visits, clock: { now: () => Date.now() }, config: aServiceConfig() };
      const ms = [];
      for (let i = 0; i < count; i++)
        ms.push(await timed(() => getStatsAcross(deps, null, { days: 30, tz: 'Europe/Vienna' }, caller)));
      return percentiles(ms);
    };
    const { ofAccount, ...summingLinks } = stores.visits;
    const sums = await reads(stores.visits, READS);
    const baseline = ofAccount === undefined ? sums : await reads(summingLinks, 20);
    return { sums, summing_links: baseline, p99_ratio: Number((sums.p99 / baseline.p99).toFixed(3)) };
  } finally {
    await drop();
  }
}

/**
 * Milliseconds to fold `FOLDED_VISITS` visits recorded into the visit log, over links of an account when
 * `owned`, else anonymous ones, without the triggers of the sums per account when `bare`.
 */
async function fold({ owned, bare }) {
  const { stores, schema, drop } = await freshStores();
  try {
    const account = anAccount();
    await stores.accounts.createAccount(account);
    if (bare) {
      for (const kind of ['added', 'changed', 'removed'])
        await admin.query(`DROP TRIGGER IF EXISTS account_sums_${kind} ON ${schema}.visit_counters`);
    }
    const links = Array.from({ length: FOLDED_LINKS }, () => aLink({ accountId: owned ? account.id : null }));
    await insertLinks(stores, links);
    const today = dayOf(Date.now());
    for (let start = 0; start < FOLDED_VISITS; start += FLUSH) {
      const counters = Array.from({ length: FLUSH }, (_, i) => {
        const n = start + i;
        const linkId = links[(n * 7919) % links.length].id;
        const hour = String(n % 24).padStart(2, '0');
        return [
          ['total', hour],
          ['country', `C${n % 15}`],
          ['referrer', `site${n % 20}.example`],
          ['device', `d${n % 4}`],
          ['browser', `b${n % 7}`],
        ].map(([dimension, key]) => ({ linkId, day: today, dimension, key, count: 1 }));
      }).flat();
      await stores.visits.record({ clicks: [], visitors: [], counters });
    }
    const start = performance.now();
    while ((await stores.visits.compact(COMPACT_CHUNK)) > 0);
    return Number((performance.now() - start).toFixed(0));
  } finally {
    await drop();
  }
}

const part = process.argv[3];
const account30 = part === 'fold' ? undefined : await accountReads();
let folds;
if (part !== 'reads') {
  const bare = await fold({ owned: false, bare: true });
  const anonymous = await fold({ owned: false, bare: false });
  const owned = await fold({ owned: true, bare: false });
  folds = { anonymous_bare: bare, anonymous, owned, anonymous_ratio: Number((anonymous / bare).toFixed(3)) };
}
process.stdout.write(
  `${JSON.stringify({ links: LINKS, account_30_days: account30, fold_100k_visits_ms: folds })}\n`,
);
await admin.end();
