// `npm run bench -- --soak SECONDS`: the real server on a SQLite file under mixed heavy traffic for
// SECONDS (bench/lib/soak-traffic.mjs), printing every few seconds the WAL size, the server's RSS,
// /healthz latency, answers per second and the answers no class expects (by status). Runs of a minute
// or more replace the "Soak" section of docs/benchmarks.md. Never part of `npm test`.
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKey, rssMb, run, seed, startBenchServer, stop } from './processes.mjs';
import { SOAK_SECTION, machine, withSoakSection } from './report.mjs';
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
    server = await startBenchServer(dbPath, SHORT_HOST);
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
    const rows = await sample({ server, dbPath, tally, seconds, every, log });
    await traffic.stop();
    const exit = await stop(server);
    server = null;
    const summary = summarize(rows, exit);
    log(`\n${summary.text}`);
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

const HEADER =
  '     t |  req/s | redirects/s | creations/s | WAL MB | RSS MB | healthz p50/max ms | log lines | unexpected answers';

async function sample({ server, dbPath, tally, seconds, every, log }) {
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
      redirects: ((counts.redirect?.[302] ?? 0) + (counts.hot_capped?.[302] ?? 0)) / every,
      creations: (counts.creation?.[201] ?? 0) / every,
      walMb: mb(fileSize(`${dbPath}-wal`)),
      dbMb: mb(fileSize(dbPath)),
      rssMb: rssMb(server.pid),
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

const describeUnexpected = (unexpected) =>
  Object.entries(unexpected)
    .map(([what, n]) => `${what}: ${n}`)
    .join(', ') || 'none';

const line = (r) =>
  `${String(r.t).padStart(5)} s | ${fmt(r.rps).padStart(6)} | ${fmt(r.redirects).padStart(11)} | ` +
  `${fmt(r.creations).padStart(11)} | ${fmt(r.walMb, 1).padStart(6)} | ${fmt(r.rssMb).padStart(6)} | ` +
  `${`${fmt(r.healthz.p50, 1)} / ${fmt(r.healthz.max, 1)}`.padStart(18)} | ${String(r.logLines).padStart(9)} | ` +
  describeUnexpected(r.unexpected);

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
    redirects: sum('redirect', 302) + sum('hot_capped', 302),
    creations: sum('creation', 201),
    qr: { drawn: sum('qr', 200), refused: sum('qr', 429) },
    hostile: sum('hostile', 400),
    logLines: rows.reduce((s, r) => s + r.logLines, 0),
    unexpected,
    exitCode: exit.code,
  };
  summary.text =
    `WAL at most ${fmt(summary.walMaxMb, 1)} MB (database ${fmt(summary.dbMb, 1)} MB); RSS ${fmt(summary.rssFirstMb)} → ` +
    `${fmt(summary.rssLastMb)} MB (max ${fmt(summary.rssMaxMb)}); /healthz at most ${fmt(summary.healthzMaxMs, 1)} ms; ` +
    `${summary.redirects.toLocaleString('en')} redirects, ${summary.creations.toLocaleString('en')} creations, ` +
    `QR ${summary.qr.drawn} drawn / ${summary.qr.refused} refused (429), ${summary.hostile} hostile queries refused (400); ` +
    `unexpected answers: ${describeUnexpected(unexpected)}; ${summary.logLines} log lines; exit ${exit.code}`;
  return summary;
}

/** Replaces (or appends) the Soak section of the report at `path`. */
function writeSoakSection(path, { seconds, every, rows, summary }) {
  const m = machine();
  const table = rows.map((r) => `| ${line(r)} |`).join('\n');
  const section = `${SOAK_SECTION}

Generated by \`npm run bench -- --soak ${seconds}\` on ${m.summary}: the real server (SQLite file,
\`LOG_LEVEL=warn\`, creation limits raised) under mixed traffic from one client process for ${seconds} s, all
at once: 4 connections creating links, 8 redirecting over 1,000 links (one request in ten with a random
\`Referer\`), 4 on a hot capped link (every click a write), 1 reading its statistics, 5 QR PNGs a second
(2048 px, random colours: most are refused by the per-client budget), 10 hostile query strings a second
(\`?a&a&…\`, 7,000 times), and a \`/healthz\` probe on a new connection every 500 ms. A line every ${every} s.

| t | req/s | redirects/s | creations/s | WAL MB | RSS MB | healthz p50 / max ms | log lines | unexpected answers |
|---|---|---|---|---|---|---|---|---|
${table}

${summary.text}.

Reading it: the client keeps every connection busy, so the server runs flat out and \`/healthz\` waits its
turn behind the other requests: its latency is that queue (the first interval also pays for start-up),
not a stalled event loop. Answers per second swing with whatever else the machine runs. The WAL is
the \`-wal\` file beside the database, sampled every ${every} s; RSS is the server's \`VmRSS\`.
`;
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  writeFileSync(path, withSoakSection(current, section));
}
