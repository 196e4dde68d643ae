// `npm run bench -- --soak [SECONDS]` (or `--soak-minutes N`): the real server on a SQLite file under
// mixed heavy traffic for SECONDS (bench/lib/soak-traffic.mjs), printing every few seconds the WAL size,
// the server's RSS and V8 heap, /healthz latency, answers per second and the answers no class expects
// (by status), then whether memory stayed flat (bench/lib/soak-memory.mjs). Runs of a minute or more
// replace the "Soak" section of docs/benchmarks.md. Never part of `npm test`.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKey, rssMb, run, seed, startBenchServer, stop } from './processes.mjs';
import { machine } from './report.mjs';
import { heapOf, heapWatch, memoryVerdict } from './soak-memory.mjs';
import { HEADER, describeUnexpected, line, writeSoakSection } from './soak-report.mjs';
import { EXPECTED, createTally, startTraffic } from './soak-traffic.mjs';

const SHORT_HOST = 's.bench';
const LINKS = 1000;
const mb = (bytes) => bytes / 1024 / 1024;
const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** Runs the soak for `seconds`, sampling every `every` seconds; writes `out` when given. */
export async function runSoak({ seconds, every = seconds >= 60 ? 10 : 5, out, log }) {
  await run(process.execPath, ['node_modules/typescript/bin/tsc', '-b']);
  const dir = mkdtempSync(join(tmpdir(), 'shortener-soak-'));
  const dbPath = join(dir, 'soak.db');
  let server = null;
  try {
    const key = await createKey(dbPath);
    // metrics for the heap figures; the proxy trusted so that X-Forwarded-For names the client
    const watch = heapWatch(join(dir, 'heap'));
    const env = { METRICS: 'true', TRUST_PROXY: 'true', ...watch.env };
    server = await startBenchServer(dbPath, SHORT_HOST, env, watch.nodeFlags);
    await seed('links', dbPath, SHORT_HOST, 0, LINKS);
    const hot = await createHotLink(server.url, key);
    const slugs = Array.from({ length: LINKS }, (_, i) => `b${i.toString(36)}`);
    const tally = createTally();
    log(`soak: ${seconds} s of mixed traffic on ${machine().summary}; a line every ${every} s`);
    log(HEADER);
    const traffic = startTraffic({
      url: server.url,
      host: SHORT_HOST,
      key,
      slugs,
      hotSlug: hot.slug,
      statsId: hot.id,
      tally,
    });
    const rows = await sample({ server, dir, dbPath, tally, traffic, seconds, every, log });
    await traffic.stop();
    const exit = await stop(server);
    server = null;
    const summary = summarize(rows, exit);
    log(`\n${summary.text}`);
    log(`memory: ${summary.memory.text}`);
    if (out) writeSoakSection(out, { seconds, every, rows, summary });
    return summary;
  } finally {
    if (server) await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
}

async function createHotLink(url, key) {
  const response = await fetch(`${url}/api/v1/links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ url: 'https://example.com/hot', alias: 'hot', max_clicks: 1_000_000_000 }),
  });
  if (response.status !== 201) throw new Error(`creating the hot link: ${response.status}`);
  return response.json();
}

async function sample({ server, dir, dbPath, tally, traffic, seconds, every, log }) {
  const rows = [];
  const started = performance.now();
  let logBytes = server.stderr().length;
  for (let t = every; t <= seconds; t += every) {
    await sleep(Math.max(0, started + t * 1000 - performance.now()));
    const { counts, healthz } = tally.take();
    const stderr = server.stderr();
    const logLines = stderr.slice(logBytes).split('\n').filter(Boolean).length;
    logBytes = stderr.length;
    const row = {
      t,
      rps: total(counts) / every,
      redirects: REDIRECTS.reduce((sum, kind) => sum + (counts[kind]?.[302] ?? 0), 0) / every,
      creations: CREATIONS.reduce((sum, kind) => sum + (counts[kind]?.[201] ?? 0), 0) / every,
      links: traffic.created(),
      walMb: mb(fileSize(`${dbPath}-wal`)),
      dbMb: mb(fileSize(dbPath)),
      rssMb: rssMb(server.pid),
      heap: await heapOf(server.url, join(dir, 'heap')),
      healthz: percentiles(healthz),
      logLines,
      unexpected: unexpectedOf(counts),
      counts,
    };
    rows.push(row);
    log(line(row));
  }
  return rows;
}

const REDIRECTS = ['redirect', 'fresh_redirect', 'hot_capped'];
const CREATIONS = ['creation', 'creation_anon'];
const fileSize = (path) => (existsSync(path) ? statSync(path).size : 0);
const total = (counts) =>
  Object.values(counts).reduce(
    (sum, byStatus) => sum + Object.values(byStatus).reduce((a, b) => a + b, 0),
    0,
  );

function percentiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: sorted[sorted.length >> 1] ?? NaN, max: sorted[sorted.length - 1] ?? NaN };
}

/** Answers of a status their class does not expect, e.g. `{ "creation 500": 3 }`. */
function unexpectedOf(counts) {
  const found = {};
  for (const [kind, byStatus] of Object.entries(counts)) {
    for (const [status, n] of Object.entries(byStatus)) {
      if (!EXPECTED[kind].includes(Number(status))) found[`${kind} ${status}`] = n;
    }
  }
  return found;
}

function summarize(rows, exit) {
  const max = (pick) => Math.max(...rows.map(pick));
  const sum = (kind, status) => rows.reduce((s, r) => s + (r.counts[kind]?.[status] ?? 0), 0);
  const unexpected = {};
  for (const row of rows)
    for (const [what, n] of Object.entries(row.unexpected)) unexpected[what] = (unexpected[what] ?? 0) + n;
  const summary = {
    walMaxMb: max((r) => r.walMb),
    dbMb: rows[rows.length - 1]?.dbMb ?? 0,
    rssMaxMb: max((r) => r.rssMb),
    rssFirstMb: rows[0]?.rssMb ?? 0,
    rssLastMb: rows[rows.length - 1]?.rssMb ?? 0,
    healthzMaxMs: max((r) => r.healthz.max),
    redirects: REDIRECTS.reduce((n, kind) => n + sum(kind, 302), 0),
    creations: CREATIONS.reduce((n, kind) => n + sum(kind, 201), 0),
    qr: { drawn: sum('qr', 200), refused: sum('qr', 429) },
    hostile: sum('hostile', 400),
    logLines: rows.reduce((s, r) => s + r.logLines, 0),
    unexpected,
    exitCode: exit.code,
    memory: memoryVerdict(rows),
    marks: marksOf(rows),
  };
  summary.text =
    `WAL at most ${fmt(summary.walMaxMb, 1)} MB (database ${fmt(summary.dbMb, 1)} MB); RSS ${fmt(summary.rssFirstMb)} → ` +
    `${fmt(summary.rssLastMb)} MB (max ${fmt(summary.rssMaxMb)}); /healthz at most ${fmt(summary.healthzMaxMs, 1)} ms; ` +
    `${summary.redirects.toLocaleString('en')} redirects, ${summary.creations.toLocaleString('en')} creations, ` +
    `QR ${summary.qr.drawn} drawn / ${summary.qr.refused} refused (429), ${summary.hostile} hostile queries refused (400); ` +
    `unexpected answers: ${describeUnexpected(unexpected)}; ${summary.logLines} log lines; ` +
    `${rows[rows.length - 1]?.heap.fullGcs ?? 0} full collections; exit ${exit.code}`;
  return summary;
}

/** RSS, heap used and live heap at the first sample, the middle one and the last. */
function marksOf(rows) {
  const at = (r) => ({ t: r.t, rssMb: r.rssMb, heapUsedMb: r.heap.usedMb, liveHeapMb: r.heap.liveMb });
  return rows.length === 0
    ? null
    : { start: at(rows[0]), middle: at(rows[rows.length >> 1]), end: at(rows[rows.length - 1]) };
}
