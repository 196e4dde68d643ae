// `npm run bench [-- --quick] [-- --autocannon] [-- --pin] [-- --out file.md] [-- --json file]`: the
// benchmark of issue 8. Starts the real server (SQLite, analytics on, a temporary database) and a bare
// node:http baseline in the same run, seeds links, loads `GET /{slug}` in alternating server/baseline
// rounds (with wrk when installed, else autocannon), measures creation, statistics and QR codes, then
// checks after a graceful shutdown that every redirect served was recorded as a click. Never part of
// `npm test`. `--pin` places the processes on CPUs (bench/lib/cpus.mjs); `--json` also writes the raw
// results. See docs/benchmarks.md for the method and the last full run. `--soak [SECONDS]` (default 600)
// or `--soak-minutes N` runs the endurance soak instead (bench/lib/soak.mjs), which says whether memory
// stays flat; `--store postgres [--nodes 1,2,3]` the multi-node run on
// PostgreSQL and Redis (bench/lib/nodes.mjs, `DATABASE_URL` and `REDIS_URL`, loopback by default);
// `--against REF` this build against another commit in one run (bench/lib/against.mjs).
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { PLACEMENT, placeThisProcess } from './lib/cpus.mjs';
import { LOAD_GENERATOR } from './lib/load.mjs';
import { loadCold, seedAndLoad, seedLinks } from './lib/redirects.mjs';
import { createLink, measureRules, measured } from './lib/routing.mjs';
import { rotation } from './lib/load.mjs';
import { measureCreation, measureImport, measureQr, measureStats, openObserver } from './lib/measure.mjs';
import {
  createKey,
  rssMb,
  run,
  seed,
  seedingNow,
  startBaseline,
  startBenchServer,
  stop,
} from './lib/processes.mjs';
import { machine, printSection, writeReport } from './lib/report.mjs';
import { printTargets, targetRows } from './lib/targets.mjs';
import { nodeCounts, runNodes, writeNodesSection } from './lib/nodes.mjs';
import { runSoak } from './lib/soak.mjs';
import { runAgainst } from './lib/against.mjs';
import { postgresPair, runWebhookLoad } from './lib/webhook-load.mjs';

const quick = process.argv.includes('--quick');
const outIndex = process.argv.indexOf('--out');
const out = outIndex > 0 ? process.argv[outIndex + 1] : quick ? null : 'docs/benchmarks.md';
const jsonIndex = process.argv.indexOf('--json');
const json = jsonIndex > 0 ? process.argv[jsonIndex + 1] : null;

/**
 * The knobs of a full and a quick run. `cold` distinct slugs (more than the 20,000 links the link cache
 * holds) over each of `coldSizes` make the cache-miss case, run for `coldRounds` rounds (issue 43: at
 * 100,000 and at 1,000,000 links).
 */
const PLAN = quick
  ? { sizes: [1_000, 100_000], rounds: 3, seconds: 2, warmup: 20_000, creations: 5_000 }
  : { sizes: [1_000, 1_000_000], rounds: 5, seconds: 6, warmup: 50_000, creations: 30_000 };
Object.assign(
  PLAN,
  quick
    ? { cold: 50_000, coldSizes: [100_000], coldRounds: 1 }
    : { cold: 50_000, coldSizes: [100_000, 1_000_000], coldRounds: 3 },
);
const SHORT_HOST = 's.bench';
const STATS_VISITS = 1_000_000;
/** Webhooks of the events round (issue 59), over three accounts; half of them never answer. */
const WEBHOOKS = 50;
/**
 * `VISIT_EVENT_SECONDS` of the events round: 5 s, not the default minute, so that a round of load sees
 * several windows close and their deliveries go out while it runs (twelve times the default's work).
 */
const WEBHOOK_WINDOW_SECONDS = 5;
/** Rows of the import round: decisions §17 wants 100,000 in under 30 s on SQLite. */
const IMPORT_ROWS = 100_000;
const STATS_TAIL = 100_000;
/** How long the hot redirect is loaded alone, and again while the import runs (issue 39). */
const IMPORT_ROUND_SECONDS = 5;
/** The links of the account whose statistics are read (issue 40). */
const STATS_ACCOUNT_LINKS = 10_000;

const log = (line) => process.stdout.write(`${line}\n`);

/**
 * Waits (at most 2 minutes) until the server's compactor has folded the visit log the cache-miss case
 * left (some 50,000 entries): folded while the next size is seeded, it kept the checkpointer from
 * restarting the WAL (2.4 GB), and the next rounds paid for both.
 */
async function logFolded(observer) {
  const started = performance.now();
  while (observer.logSize() > 100 && performance.now() - started < 120_000) await sleep(200);
  log(
    `  visit log folded in ${((performance.now() - started) / 1000).toFixed(1)} s (${observer.logSize()} entries left)`,
  );
}

/** The server's WAL limit (store-sqlite's DEFAULT_WAL_LIMIT_BYTES): a log this small needs no restart. */
const WAL_LIMIT_MB = 16;

/**
 * Samples the size of the database's WAL every 100 ms: `results.walMaxMb` is the largest while the
 * server served load, `results.walSeedMaxMb` the largest while the benchmark's own seeding process wrote
 * (its transactions of 10,000 links or 100,000 visits, not the server's) and until the server's
 * checkpointer has restarted the log that left (the file shrinks, or is within the server's limit; at
 * most 10 s: after a seeding that kept failing its restarts, the checkpointer tries again only every
 * few seconds). Returns the stop.
 */
function watchWal(dbPath, results) {
  results.walMaxMb = 0;
  results.walSeedMaxMb = 0;
  let seedEndedAt = 0;
  let restartedSinceSeed = true;
  let lastMb = 0;
  const timer = setInterval(() => {
    let mb = 0;
    try {
      mb = statSync(`${dbPath}-wal`).size / 2 ** 20;
    } catch {
      // no WAL file at this moment
    }
    if (seedingNow()) {
      seedEndedAt = Date.now();
      restartedSinceSeed = false;
    } else if (mb < lastMb || mb <= WAL_LIMIT_MB) restartedSinceSeed = true;
    lastMb = mb;
    const sinceSeed = Date.now() - seedEndedAt;
    if (sinceSeed < 1000 || (!restartedSinceSeed && sinceSeed < 10_000))
      results.walSeedMaxMb = Math.max(results.walSeedMaxMb, mb);
    else results.walMaxMb = Math.max(results.walMaxMb, mb);
  }, 100);
  return () => clearInterval(timer);
}
const soakIndex = process.argv.indexOf('--soak');
const soakMinutesIndex = process.argv.indexOf('--soak-minutes');

async function main() {
  if (soakIndex > 0 || soakMinutesIndex > 0) return soak();
  if (process.argv.includes('--store')) return nodes();
  if (process.argv.includes('--against')) return against();
  const started = Date.now();
  placeThisProcess();
  log(
    `benchmark (${quick ? 'quick' : 'full'}) on ${machine().summary}; load generator: ${LOAD_GENERATOR}; ` +
      (PLACEMENT.pinned
        ? `servers on CPU ${PLACEMENT.server}, load generator on CPU ${PLACEMENT.others}`
        : 'CPU placement left to the scheduler'),
  );
  await run(process.execPath, ['node_modules/typescript/bin/tsc', '-b']);
  const dir = mkdtempSync(join(tmpdir(), 'shortener-bench-'));
  const dbPath = join(dir, 'bench.db');
  const results = {
    plan: PLAN,
    quick,
    machine: machine(),
    loadGenerator: LOAD_GENERATOR,
    placement: PLACEMENT,
    seeding: [],
    redirects: [],
  };
  let server = null;
  let baseline = null;
  try {
    const key = await createKey(dbPath);
    server = await startBenchServer(dbPath, SHORT_HOST);
    baseline = await startBaseline();
    results.rssStartMb = rssMb(server.pid);
    const stopWalWatch = watchWal(dbPath, results);
    const observer = openObserver(dbPath);
    const ctx = { server, baseline, observer, plan: PLAN, host: SHORT_HOST, dbPath, log, results };

    // 1. redirects at the first size
    await seedAndLoad(ctx, 0, PLAN.sizes[0]);
    results.rssSmallMb = rssMb(server.pid);

    // 2. creation, statistics of a link with 1M visits, QR codes
    printSection(log, 'creation (API key, limits raised)');
    results.creation = await measureCreation(server.url, key, PLAN.creations);
    log(`  POST /api/v1/links, 50 connections: ${fmt(results.creation.single.linksPerSecond)} links/s`);
    log(
      `  POST /api/v1/bulk (200 URLs), 10 connections: ${fmt(results.creation.bulk.linksPerSecond)} links/s`,
    );

    printSection(log, `statistics of a link with ${STATS_VISITS.toLocaleString('en')} visits`);
    const statsLink = await createOwnedLink(server.url, key);
    results.statsSeed = await seed('visits', dbPath, statsLink.id, STATS_VISITS);
    log(`  recorded ${STATS_VISITS} visits through VisitStore.record in ${fmt(results.statsSeed.ms)} ms`);
    results.stats = await measureStats(server.url, key, statsLink.id, quick ? 200 : 1000);
    log(`  total ${results.stats.total}; p50 ${ms(results.stats.p50)}, p99 ${ms(results.stats.p99)}`);

    printSection(log, `import of ${IMPORT_ROWS.toLocaleString('en')} CSV rows (POST /api/v1/imports)`);
    // the hot redirect alone, then while the import runs: an import must not hold the redirect path
    await createLink(server.url, key, { url: 'https://example.com/hot', alias: 'bench-hot' });
    const hot = rotation(['/bench-hot'], SHORT_HOST);
    const hotRound = async (amount) => {
      const r = await measured(server, hot, amount);
      results.redirects.push({ target: 'server', links: 'import', served: r.served });
      return r;
    };
    // rounds of about 5 s: the import's pace over its course, not only its first half second
    const warm = await hotRound(PLAN.warmup);
    const amount = Math.round(warm.rps * IMPORT_ROUND_SECONDS);
    results.importAlone = await hotRound(amount);
    results.import = await measureImport(server.url, key, IMPORT_ROWS, () => hotRound(amount));
    results.import.ratio = results.import.load.rps / results.importAlone.rps;
    log(
      `  hot redirect ${Math.round(results.importAlone.rps)} req/s alone, ` +
        `${Math.round(results.import.load.rps)} during the import (ratio ${results.import.ratio.toFixed(2)})`,
    );
    log(
      `  ${results.import.state}: ${fmt(results.import.imported)} imported in ${results.import.seconds.toFixed(1)} s`,
    );

    // the cost of five redirect rules, as a ratio to a plain link in the same run (issue 27)
    results.rules = await measureRules(ctx, key);

    // issue 59: 50 webhooks on link.visited, half never answering, cost the hot redirect under 10%
    printSection(log, `the hot redirect with ${WEBHOOKS} webhooks on link.visited, against none`);
    results.webhooks = await webhookRound();

    printSection(log, 'QR codes');
    results.qr = await measureQr(server.url, SHORT_HOST, 'b0', quick ? 500 : 2000);
    for (const [format, r] of Object.entries(results.qr))
      log(`  ${format}: ${r.skipped ?? `${fmt(r.rps)} req/s, p99 ${ms(r.p99)}`}`);

    // 3. the cache-miss case at the sizes under the large one, then redirects at the large size, its
    // cache-miss case, and the memory it takes
    let seededTo = PLAN.sizes[0];
    for (const size of PLAN.coldSizes.filter((s) => s < PLAN.sizes[1])) {
      await seedLinks(ctx, seededTo, size);
      seededTo = size;
      await loadCold(ctx, size, PLAN.cold);
      await logFolded(observer);
    }
    await seedAndLoad(ctx, seededTo, PLAN.sizes[1]);
    results.rssLargeMb = rssMb(server.pid);
    if (PLAN.coldSizes.includes(PLAN.sizes[1])) {
      await loadCold(ctx, PLAN.sizes[1], PLAN.cold);
      results.rssColdMb = rssMb(server.pid);
    }
    log(
      `  server RSS: start ${fmt(results.rssStartMb)} MB, ${fmt(results.rssLargeMb)} MB at ${PLAN.sizes[1]} links`,
    );

    // 4. graceful shutdown: every redirect served is a recorded click
    stopWalWatch();
    log(
      `  WAL at most ${fmt(results.walMaxMb)} MB while the server served, ${fmt(results.walSeedMaxMb)} MB while the benchmark seeded`,
    );
    const exit = await stop(server);
    server = null;
    results.exit = exit;
    results.clicksRecorded = observer.clicks(statsLink.id);
    observer.close();
    results.redirectsServed = results.redirects.reduce(
      (sum, r) => sum + (r.target === 'server' ? r.served : 0),
      0,
    );
    printSection(log, 'clicks after SIGTERM');
    log(
      `  302s served ${results.redirectsServed}, clicks recorded ${results.clicksRecorded}, exit ${exit.code}`,
    );

    // statistics with the last 100,000 visits still in the visit log (issue 29), no compactor running
    printSection(
      log,
      `statistics of that link with an unfolded tail of ${STATS_TAIL.toLocaleString('en')} visits`,
    );
    results.statsTail = JSON.parse(
      await run(process.execPath, ['bench/stats-tail.mjs', dbPath, statsLink.id, String(STATS_TAIL)]),
    );
    log(
      `  total ${results.statsTail.total}; store reads of getStats p50 ${ms(results.statsTail.p50)}, ` +
        `p99 ${ms(results.statsTail.p99)} (${results.statsTail.entries} log entries, ${results.statsTail.visitors} new visitors)`,
    );
    // statistics in a time zone over a year, and of an account of 10,000 links (issue 40)
    printSection(
      log,
      `statistics in a time zone, and of an account of ${STATS_ACCOUNT_LINKS.toLocaleString('en')} links`,
    );
    results.statsZones = JSON.parse(
      await run(process.execPath, ['bench/stats-zones.mjs', String(STATS_ACCOUNT_LINKS)]),
    );
    const zones = results.statsZones;
    log(
      `  a year of a link in Europe/Vienna: p50 ${ms(zones.link_year_vienna.p50)}, p99 ${ms(zones.link_year_vienna.p99)}; ` +
        `30 days of the account: p50 ${ms(zones.account_30_days.p50)}, p99 ${ms(zones.account_30_days.p99)}`,
    );
    results.seconds = (Date.now() - started) / 1000;
    printSection(log, 'targets');
    printTargets(log, targetRows(results));
    log(`\nfinished in ${fmt(results.seconds)} s`);
    if (json) writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
    if (out) {
      writeReport(out, results);
      log(`written to ${out}`);
    }
  } finally {
    if (server) await stop(server);
    if (baseline) await stop(baseline);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `--soak [SECONDS]` (default 600: long enough for the memory verdict's middle and last thirds to come
 * after warm-up) or `--soak-minutes N`: the endurance run of bench/lib/soak.mjs instead of the benchmark.
 */
async function soak() {
  const seconds = soakSeconds();
  if (!Number.isInteger(seconds) || seconds < 5)
    throw new Error('--soak takes a number of seconds (5 or more), --soak-minutes a number of minutes');
  const summary = await runSoak({
    seconds,
    out: seconds >= 60 ? (outIndex > 0 ? out : 'docs/benchmarks.md') : null,
    log,
  });
  if (json) writeFileSync(json, `${JSON.stringify(summary, null, 2)}\n`);
  if (summary.memory.flat === false || Object.keys(summary.unexpected).length > 0) process.exitCode = 1;
}

function soakSeconds() {
  if (soakMinutesIndex > 0) return Math.round(Number(process.argv[soakMinutesIndex + 1]) * 60);
  const given = process.argv[soakIndex + 1];
  return given === undefined || given.startsWith('--') ? 600 : Number(given);
}

/** The events round of issue 59 (bench/lib/webhook-load.mjs), on SQLite unless `startPair` says otherwise. */
function webhookRound(options = {}) {
  return runWebhookLoad({
    rounds: quick ? 3 : 6,
    seconds: quick ? 3 : 5,
    links: 1000,
    webhooks: WEBHOOKS,
    windowSeconds: WEBHOOK_WINDOW_SECONDS,
    log: (line) => log(`  ${line}`),
    ...options,
  });
}

/**
 * `--against REF [--rounds N] [--only TEXT]` (the figures whose name holds TEXT, e.g. `cold`): this build against commit REF in one run (bench/lib/against.mjs), written
 * to the "Against another build" section of docs/benchmarks.md (or `--out`) unless `--quick`.
 */
async function against() {
  const ref = process.argv[process.argv.indexOf('--against') + 1];
  if (ref === undefined || ref.startsWith('--'))
    throw new Error('--against takes a commit (a hash, a tag, HEAD~3)');
  const roundsIndex = process.argv.indexOf('--rounds');
  const rounds = roundsIndex > 0 ? Number(process.argv[roundsIndex + 1]) : undefined;
  if (rounds !== undefined && !(Number.isInteger(rounds) && rounds >= 2))
    throw new Error('--rounds takes a whole number of rounds, 2 or more');
  const onlyIndex = process.argv.indexOf('--only');
  const only = onlyIndex > 0 ? process.argv[onlyIndex + 1] : undefined;
  placeThisProcess();
  await runAgainst({ ref, quick, rounds, only, out: outIndex > 0 ? out : undefined, log });
}

/** `--store postgres --nodes 1,2,3`: the multi-node run of bench/lib/nodes.mjs instead of the benchmark. */
async function nodes() {
  const store = process.argv[process.argv.indexOf('--store') + 1];
  if (store !== 'postgres') throw new Error('--store takes postgres (SQLite is the default benchmark)');
  const results = await runNodes({ counts: nodeCounts(process.argv), quick, log });
  // issue 59: the events round again, each side two nodes of one PostgreSQL schema
  printSection(log, `the hot redirect with ${WEBHOOKS} webhooks on link.visited, two nodes on PostgreSQL`);
  const postgres = postgresPair(2);
  try {
    results.webhooks = await webhookRound({ startPair: postgres.pair });
  } finally {
    await postgres.drop();
  }
  if (json) writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  const path = outIndex > 0 ? out : quick ? null : 'docs/benchmarks.md';
  if (path) {
    writeNodesSection(path, results);
    log(`written to ${path}`);
  }
  if (!results.gatesHeld) process.exitCode = 1;
}

async function createOwnedLink(url, key) {
  const response = await fetch(`${url}/api/v1/links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ url: 'https://example.com/popular', alias: 'popular' }),
  });
  if (response.status !== 201) throw new Error(`creating the stats link: ${response.status}`);
  return response.json();
}

const fmt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : String(n));
const ms = (n) => `${n.toFixed(2)} ms`;

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exitCode = 1;
});
