// `npm run bench -- --store postgres --nodes 1,2,3 [--quick]`: issue 17's benchmark. Seeds a SQLite
// database and moves it to a new PostgreSQL schema with `shortener migrate` (as an operator would), then
// for each node count N starts N `shortener serve` processes on that schema and one Redis, loads them
// all at once (one load generator per node, as a load balancer spreads the connections), and measures:
// redirects per second in all and per node, p50/p99, CPU-µs per redirect of each node, PostgreSQL
// commits and WAL bytes per second, Redis commands per second, and the cache-miss case. The gates of
// decisions §11 are checked in the same run: a change made on one node served by the last within a
// second, max_clicks exact across the nodes, and after every node stops gracefully, clicks recorded =
// redirects served. On a 2-core machine N nodes share two cores with PostgreSQL, Redis and the load
// generators: read it as a correctness run plus the cost per redirect of each node, not as a scaling
// curve; on a machine with a core per node the same method shows the scaling.
import { randomBytes } from 'node:crypto';
import { Agent, get as httpGet } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { dropPostgresSchema, openPostgresStores } from '@shortener/store-postgres';
import pg from 'pg';
import { createClient } from 'redis';
import { BROWSER_UA, LOAD_GENERATOR, loadRound, median, rotation } from './load.mjs';
import {
  benchServerEnv,
  cpuSeconds,
  freePort,
  run,
  seed,
  startBaseline,
  startServer,
  stop,
} from './processes.mjs';
import { NODES_SECTION, machine, printSection, withSection } from './report.mjs';
import { spreadSlugs } from './redirects.mjs';

const HOST = 's.bench';
const BIN = 'packages/app/bin/shortener.js';
const CONNECTIONS = 48;
const HOT_SLUGS = 1000;

/** The node counts of `--nodes 1,2,3`. */
export function nodeCounts(argv) {
  const index = argv.indexOf('--nodes');
  const text = index > 0 ? argv[index + 1] : '1,2,3';
  const counts = String(text)
    .split(',')
    .map((n) => Number(n.trim()));
  if (counts.length === 0 || counts.some((n) => !Number.isInteger(n) || n < 1 || n > 16))
    throw new Error('--nodes takes node counts such as 1,2,3 (each 1-16)');
  return counts;
}

/** Runs the multi-node benchmark; returns the results (also printed through `log`). */
export async function runNodes({ counts, quick, log }) {
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  const plan = quick
    ? { links: 30_000, cold: 25_000, rounds: 2, amount: 30_000, coldAmount: 25_000, warmup: 30_000 }
    : { links: 100_000, cold: 50_000, rounds: 3, amount: 100_000, coldAmount: 50_000, warmup: 100_000 };
  log(
    `multi-node benchmark (${quick ? 'quick' : 'full'}): STORE=postgres, REDIS_URL, ${counts.join(', ')} ` +
      `node(s), ${plan.links.toLocaleString('en')} links, ${LOAD_GENERATOR}, ${CONNECTIONS} connections in all`,
  );
  await run(process.execPath, ['node_modules/typescript/bin/tsc', '-b']);
  const dir = mkdtempSync(join(tmpdir(), 'shortener-nodes-'));
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const stores = openPostgresStores({ connectionString: databaseUrl, schema });
  await stores.ready();
  await stores.close();
  const url = `${databaseUrl}${databaseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const sql = new pg.Client({ connectionString: url });
  const redis = createClient({ url: redisUrl });
  const results = { plan, counts, schema, runs: [] };
  let baseline = null;
  try {
    await Promise.all([sql.connect(), redis.connect()]);
    printSection(log, 'seeding');
    const dbPath = join(dir, 'seed.db');
    const seeded = await seed('links', dbPath, HOST, 0, plan.links);
    const migrated = Date.now();
    // the source is the SQLite file: a REDIS_URL or STORE exported for the nodes would refuse it
    await run(process.execPath, [BIN, 'migrate', '--to', url], {
      STORE: '',
      REDIS_URL: '',
      DB_PATH: dbPath,
      SHORT_DOMAINS: `http://${HOST}`,
    });
    log(
      `  ${plan.links.toLocaleString('en')} links seeded into SQLite in ${Math.round(seeded.ms)} ms, moved ` +
        `to PostgreSQL by \`shortener migrate\` in ${Date.now() - migrated} ms`,
    );
    baseline = await startBaseline();
    const hot = rotation(spreadSlugs(plan.links, HOT_SLUGS), HOST);
    const bare = await loadRound({
      url: baseline.url,
      requests: hot,
      amount: plan.amount,
      connections: CONNECTIONS,
      expect: 302,
    });
    results.baseline = { rps: bare.rps, p99: bare.p99 };
    log(`  bare node:http baseline: ${fmt(bare.rps)} req/s, p99 ${bare.p99.toFixed(2)} ms`);
    let servedBefore = 0;
    for (const n of counts) {
      const measured = await runWith(n, { url, redisUrl, plan, hot, sql, redis, log, servedBefore });
      servedBefore = measured.clicksAfter;
      results.runs.push(measured);
    }
  } finally {
    if (baseline) await stop(baseline);
    await sql.end().catch(() => {});
    if (redis.isOpen) redis.destroy();
    await dropPostgresSchema({ connectionString: databaseUrl, schema }).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
  printSummary(log, results);
  return results;
}

/** One node count: start, warm, load (hot and cold), the gates, graceful stop, clicks compared. */
async function runWith(n, { url, redisUrl, plan, hot, sql, redis, log, servedBefore }) {
  printSection(log, `${n} node(s)`);
  const nodes = [];
  for (let i = 0; i < n; i++) {
    const port = await freePort();
    nodes.push(
      await startServer({
        ...benchServerEnv(port, HOST),
        STORE: 'postgres',
        DATABASE_URL: url,
        REDIS_URL: redisUrl,
      }),
    );
  }
  const run = { nodes: n, rounds: [] };
  let served = 0;
  try {
    // every node at once, each with its share of the connections
    const loadAll = async (requests, amount) => {
      const cpu = nodes.map((node) => cpuSeconds(node.pid));
      const before = await counters(sql, redis);
      const started = performance.now();
      const rounds = await Promise.all(
        nodes.map((node) =>
          loadRound({
            url: node.url,
            requests,
            amount: Math.round(amount / n),
            connections: Math.max(1, Math.round(CONNECTIONS / n)),
            expect: 302,
          }),
        ),
      );
      const seconds = (performance.now() - started) / 1000;
      const after = await counters(sql, redis);
      const redirects = rounds.map((r) => r.statuses[302] ?? 0);
      served += redirects.reduce((a, b) => a + b, 0);
      const unexpected = rounds.reduce(
        (sum, r) =>
          sum + Object.entries(r.statuses).reduce((s, [code, c]) => s + (code === '302' ? 0 : c), 0),
        0,
      );
      return {
        rps: rounds.reduce((sum, r) => sum + r.rps, 0),
        perNode: rounds.map((r) => r.rps),
        p50: Math.max(...rounds.map((r) => r.p50)),
        p99: Math.max(...rounds.map((r) => r.p99)),
        cpuUs: nodes.map((node, i) => ((cpuSeconds(node.pid) - cpu[i]) * 1e6) / Math.max(1, redirects[i])),
        commitsPerSecond: (after.commits - before.commits) / seconds,
        walBytesPerSecond: (after.walBytes - before.walBytes) / seconds,
        redisOpsPerSecond: (after.redisOps - before.redisOps) / seconds,
        unexpected,
      };
    };
    await loadAll(hot, plan.warmup);
    for (let round = 1; round <= plan.rounds; round++) {
      const r = await loadAll(hot, plan.amount);
      run.rounds.push(r);
      log(
        `  round ${round}: ${fmt(r.rps)} req/s (${r.perNode.map(fmt).join(' + ')}), p50 ${r.p50.toFixed(2)} ms, ` +
          `p99 ${r.p99.toFixed(2)} ms, CPU-µs/redirect ${r.cpuUs.map((c) => c.toFixed(1)).join(' / ')}; ` +
          `PostgreSQL ${fmt(r.commitsPerSecond)} commits/s, ${fmt(r.walBytesPerSecond / 1024)} KiB WAL/s; ` +
          `Redis ${fmt(r.redisOpsPerSecond)} commands/s`,
      );
    }
    const cold = await loadAll(rotation(spreadSlugs(plan.links, plan.cold), HOST), plan.coldAmount);
    run.cold = cold;
    log(
      `  cache-miss case (${fmt(plan.cold)} distinct slugs): ${fmt(cold.rps)} req/s, p99 ${cold.p99.toFixed(2)} ms, ` +
        `CPU-µs/redirect ${cold.cpuUs.map((c) => c.toFixed(1)).join(' / ')}, ${fmt(cold.commitsPerSecond)} commits/s`,
    );
    const propagated = await propagation(nodes);
    run.propagationMs = propagated.ms;
    served += propagated.served;
    log(`  a change on node 1 served by node ${n}: after ${run.propagationMs} ms (gate: < 1,000)`);
    const capped = await cappedAcross(nodes);
    run.capped = capped;
    served += capped.served;
    log(
      `  max_clicks 100 under ${capped.sent} concurrent visits over ${n} node(s): ${capped.served} × 302, ` +
        `${capped.gone} × 410, clicks ${capped.clicks} (gate: exactly 100)`,
    );
  } finally {
    run.exits = await Promise.all(nodes.map((node) => stop(node)));
  }
  const { rows } = await sql.query('SELECT coalesce(sum(clicks), 0)::bigint AS clicks FROM links');
  run.clicksAfter = Number(rows[0].clicks);
  run.served = served;
  run.lost = servedBefore + served - run.clicksAfter;
  run.unexpected = run.rounds.reduce((s, r) => s + r.unexpected, 0) + run.cold.unexpected;
  log(
    `  after SIGTERM to every node: ${fmt(served)} redirects served, ${fmt(run.clicksAfter - servedBefore)} ` +
      `clicks recorded, ${run.lost} lost (gate: 0); exits ${run.exits.map((e) => e.code).join(', ')}`,
  );
  return run;
}

/** PostgreSQL's commits and WAL position, and Redis's commands processed so far. */
async function counters(sql, redis) {
  const { rows } = await sql.query(
    `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::bigint AS commits,
            pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint AS wal`,
  );
  const info = await redis.info('stats');
  const ops = Number(/total_commands_processed:(\d+)/.exec(info)?.[1] ?? 0);
  return { commits: Number(rows[0].commits), walBytes: Number(rows[0].wal), redisOps: ops };
}

/** Milliseconds until the last node serves a destination changed through the first one, and its 302s. */
async function propagation(nodes) {
  const created = await post(nodes[0], '/api/v1/links', { url: 'https://example.com/before' });
  const last = nodes.at(-1);
  let served = 0; // each probe is a 302, so a click
  const location = async () => {
    const response = await fetch(`${last.url}/${created.slug}`, {
      redirect: 'manual',
      headers: { host: HOST, 'user-agent': BROWSER_UA },
    });
    if (response.status === 302) served++;
    return response.headers.get('location');
  };
  if ((await location()) !== 'https://example.com/before')
    throw new Error('the last node does not serve the new link');
  const started = performance.now();
  const patched = await fetch(`${nodes[0].url}/api/v1/links/${created.id}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', 'x-edit-token': created.edit_token },
    body: JSON.stringify({ url: 'https://example.com/after' }),
  });
  if (patched.status !== 200) throw new Error(`PATCH answered ${patched.status}`);
  while ((await location()) !== 'https://example.com/after') {
    if (performance.now() - started > 5000) return { ms: Infinity, served };
    await sleep(2);
  }
  return { ms: Math.round(performance.now() - started), served };
}

/** A link with max_clicks 100 visited 400 times at once, spread over the nodes. */
async function cappedAcross(nodes) {
  const created = await post(nodes[0], '/api/v1/links', {
    url: 'https://example.com/capped',
    max_clicks: 100,
  });
  const sent = 400;
  // at most 32 connections per node (a node takes at most 200 from one address at once)
  const agents = nodes.map(() => new Agent({ keepAlive: true, maxSockets: 32 }));
  const visit = (i) =>
    new Promise((resolve, reject) => {
      const node = nodes[i % nodes.length];
      const request = httpGet(
        `${node.url}/${created.slug}`,
        { agent: agents[i % nodes.length], headers: { host: HOST, 'user-agent': BROWSER_UA } },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode));
        },
      );
      request.on('error', reject);
    });
  const statuses = await Promise.all(Array.from({ length: sent }, (_, i) => visit(i)));
  for (const agent of agents) agent.destroy();
  const detail = await fetch(`${nodes[0].url}/api/v1/links/${created.id}`, {
    headers: { 'x-edit-token': created.edit_token },
  }).then((r) => r.json());
  return {
    sent,
    served: statuses.filter((s) => s === 302).length,
    gone: statuses.filter((s) => s === 410).length,
    clicks: detail.clicks,
  };
}

async function post(node, path, body) {
  const response = await fetch(`${node.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}`);
  return response.json();
}

function printSummary(log, results) {
  printSection(log, 'summary');
  log(
    '  nodes | req/s (median round) | per node | p99 ms | CPU-µs/redirect per node | cold req/s | propagation ms | max_clicks | lost clicks',
  );
  for (const run of results.runs) {
    const rps = median(run.rounds.map((r) => r.rps));
    const p99 = median(run.rounds.map((r) => r.p99));
    const cpu = run.rounds[0].cpuUs.map((_, i) => median(run.rounds.map((r) => r.cpuUs[i])).toFixed(1));
    log(
      `  ${run.nodes} | ${fmt(rps)} | ${fmt(rps / run.nodes)} | ${p99.toFixed(2)} | ${cpu.join(' / ')} | ` +
        `${fmt(run.cold.rps)} | ${run.propagationMs} | ${run.capped.served} of ${run.capped.sent} (clicks ${run.capped.clicks}) | ${run.lost}`,
    );
  }
  const gates = results.runs.every(
    (run) =>
      run.propagationMs < 1000 &&
      run.capped.served === 100 &&
      run.capped.clicks === 100 &&
      run.lost === 0 &&
      run.unexpected === 0,
  );
  results.gatesHeld = gates;
  log(
    `  gates (propagation < 1 s, max_clicks exact, 0 lost clicks, only 302s): ${gates ? 'held' : 'NOT HELD'}`,
  );
}

const fmt = (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en') : String(n));

/** Writes the run as the multi-node section of `path` (docs/benchmarks.md), keeping the rest. */
export function writeNodesSection(path, results) {
  const rows = results.runs.map((run) => {
    const rps = median(run.rounds.map((r) => r.rps));
    const p = (pick) => median(run.rounds.map(pick));
    const cpu = run.rounds[0].cpuUs.map((_, i) => p((r) => r.cpuUs[i]).toFixed(1)).join(' / ');
    return (
      `| ${run.nodes} | ${fmt(rps)} | ${fmt(rps / run.nodes)} | ${p((r) => r.p50).toFixed(2)} / ${p((r) => r.p99).toFixed(2)} | ` +
      `${cpu} | ${fmt(p((r) => r.commitsPerSecond))} | ${fmt(p((r) => r.walBytesPerSecond) / 1024)} | ` +
      `${fmt(p((r) => r.redisOpsPerSecond))} | ${fmt(run.cold.rps)} (p99 ${run.cold.p99.toFixed(0)} ms) | ` +
      `${run.propagationMs} | ${run.capped.served} / ${run.capped.clicks} | ${run.lost} |`
    );
  });
  const { plan } = results;
  const section = `${NODES_SECTION}

\`npm run bench -- --store postgres --nodes ${results.counts.join(',')}${plan.links === 30_000 ? ' --quick' : ''}\` on
${machine().summary}, PostgreSQL and Redis on loopback. ${fmt(plan.links)} links (seeded into SQLite and moved with
\`shortener migrate\`); N \`serve\` processes on one schema and one Redis; one load generator per node
(${CONNECTIONS} connections in all, split evenly), ${plan.rounds} rounds of ${fmt(plan.amount)} redirects over
${HOT_SLUGS} hot links; bare node:http on one process: ${fmt(results.baseline.rps)} req/s.

| nodes | req/s (all) | req/s per node | p50 / p99 ms | CPU-µs per redirect, each node | PG commits/s | PG WAL KiB/s | Redis commands/s | cache-miss case | change served elsewhere after ms | max_clicks 100: 302s / clicks | clicks lost |
|---|---|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Gates of decisions §11 in the same run (a change on node 1 served by the last node within a second,
max_clicks exact across the nodes, no click lost after SIGTERM to every node, nothing but 302s):
**${results.gatesHeld ? 'held' : 'NOT held'}**.

How to read it: on this 2-core machine the nodes, PostgreSQL, Redis and the load generators share two
cores, so more nodes cannot mean more redirects per second here; what the table shows is that the rules
hold at every N and what one redirect costs a node (CPU-µs, from /proc). A hot redirect touches neither
PostgreSQL nor Redis (links are cached, visits are flushed once a second per node in one sorted batch);
the cache-miss case reads PostgreSQL once per request. "PG commits/s" counts every transaction of the
database, reads included, and any other client of it. Redis holds only the creation and sign-in limits,
so redirects cost it nothing. On a machine with a core per node the same command measures the scaling.
`;
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  writeFileSync(path, withSection(current, NODES_SECTION, section));
}
