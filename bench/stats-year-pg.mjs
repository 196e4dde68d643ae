// `node bench/stats-year-pg.mjs` (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test): the
// one-link part of bench/stats-zones.mjs on PostgreSQL, in process and without HTTP: a link with a year
// of visits (every hour of 367 days, 15 countries, 20 referrers, 4 devices, 7 browsers a day, written
// folded as the compactor leaves them) read over 366 days in Europe/Vienna 200 times, in a schema of its
// own, dropped after. Prints one JSON line: p50 and p99 in ms.
import { randomBytes } from 'node:crypto';
import process from 'node:process';
import pg from 'pg';
import { dayOf, getStats } from '@shortener/core';
import { openPostgresStores } from '@shortener/store-postgres';
import { aLink, aServiceConfig } from '@shortener/testkit';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const READS = 200;
const admin = new pg.Pool({ connectionString: url, max: 1 });
const schema = `bench_${randomBytes(6).toString('hex')}`;
const stores = openPostgresStores({ connectionString: url, schema });
await stores.ready();
try {
  const link = aLink();
  await stores.links.insertMany([link]);
  const keyed = (dimension, keys, name, visits) =>
    Array.from({ length: keys }, (_, k) => `('${dimension}', '${name(k)}', ${Math.ceil(visits / keys)})`);
  const values = [
    ...Array.from({ length: 24 }, (_, h) => `('total', '${String(h).padStart(2, '0')}', 120)`),
    ...keyed('country', 15, (k) => `C${k}`, 2880),
    ...keyed('referrer', 20, (k) => `site${k}.example`, 2880),
    ...keyed('device', 4, (k) => `d${k}`, 2880),
    ...keyed('browser', 7, (k) => `b${k}`, 2880),
  ];
  await admin.query(
    `INSERT INTO ${schema}.visit_counters (link_id, day, dimension, key, count)
     SELECT $2, to_char($1::date - d, 'YYYY-MM-DD'), c.dimension, c.key, c.count
     FROM generate_series(0, 366) d, (VALUES ${values.join(', ')}) AS c(dimension, key, count)`,
    [dayOf(Date.now()), link.id],
  );
  await admin.query(`ANALYZE ${schema}.visit_counters`);
  const deps = { ...stores, clock: { now: () => Date.now() }, config: aServiceConfig() };
  const caller = { accountId: null, editToken: null };
  const ms = [];
  for (let i = 0; i < READS; i++) {
    const start = performance.now();
    const result = await getStats(deps, link.id, { days: 365, tz: 'Europe/Vienna' }, caller);
    if (!result.ok) throw new Error(result.error.message);
    ms.push(performance.now() - start);
  }
  ms.sort((a, b) => a - b);
  const at = (q) => Number(ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(2));
  process.stdout.write(`${JSON.stringify({ link_year_vienna_pg: { p50: at(0.5), p99: at(0.99) } })}\n`);
} finally {
  await stores.close();
  await admin.query(`DROP SCHEMA ${schema} CASCADE`);
  await admin.end();
}
