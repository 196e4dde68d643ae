// The machine description and docs/benchmarks.md.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname } from 'node:path';
import process from 'node:process';
import {
  COLD,
  ISSUE_29,
  ISSUE_29_FIFTH,
  ISSUE_29_FOURTH,
  ISSUE_29_LATER,
  ISSUE_29_THIRD,
  ISSUE_43,
  ISSUE_43_SECOND,
  ISSUE_43_THIRD,
  ISSUE_58_SECOND,
  ISSUE_58_THIRD,
  ISSUE_58_FIFTH,
  ISSUE_58_SIXTH,
  ISSUE_58_SEVENTH,
  ISSUE_58_EIGHTH,
  ISSUE_58_NINTH,
  ISSUE_58_TENTH,
  ISSUE_58_ELEVENTH,
  ISSUE_58_TWELFTH,
  ISSUE_58_THIRTEENTH,
  ISSUE_58_FOURTEENTH,
  ISSUE_58_FIFTEENTH,
  ISSUE_58_FOURTH,
  ISSUE_59,
  TRIED,
} from './notes.mjs';
import { summaryAt, targetRows, targetsTable } from './targets.mjs';
import { CLIENT_BOUND_SHARE, clientBound } from './load.mjs';

/** nproc, CPU model, Node version and the date. */
export function machine() {
  const model =
    /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? cpus()[0]?.model;
  const info = { nproc: cpus().length, cpu: model, node: process.version, date: new Date().toISOString() };
  return { ...info, summary: `${info.nproc} × ${info.cpu}, Node ${info.node}, ${info.date.slice(0, 10)}` };
}

/** Prints a section heading. */
export function printSection(log, title) {
  log(`\n${title}`);
}

const n = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '–');
const f = (x, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : '–');

function roundsTable(results) {
  const rows = [
    `| links | slugs | round | server req/s | p50 ms | p99 ms | CPU server / ${results.loadGenerator} | µs/req | commits | baseline req/s | p50 ms | p99 ms | CPU baseline / ${results.loadGenerator} | µs/req | ratio | CPU-µs ratio |`,
  ];
  rows.push('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const cpu = (r) =>
    `${Math.round(r.cpu * 100)}% / ${Math.round(r.clientCpu * 100)}%${clientBound(r) ? ' ⚠' : ''}`;
  const measured = results.redirects.filter((r) => !r.warmup && r.round !== undefined);
  for (const s of measured.filter((r) => r.target === 'server')) {
    const b = measured.find(
      (r) => r.target === 'baseline' && r.links === s.links && r.slugs === s.slugs && r.round === s.round,
    );
    rows.push(
      `| ${n(s.links)} | ${n(s.slugs)} | ${s.round} | ${n(s.rps)} | ${f(s.p50)} | ${f(s.p99)} | ${cpu(s)} | ${f(s.cpuUs, 1)} | ${s.commits} | ${n(b.rps)} | ${f(b.p50)} | ${f(b.p99)} | ${cpu(b)} | ${f(b.cpuUs, 1)} | ${f(s.rps / b.rps)} | ${f(b.cpuUs / s.cpuUs)} |`,
    );
  }
  return rows.join('\n');
}

const WRK = `wrk (one thread, \`bench/lib/rotate.lua\`), 50 connections`;
const AUTOCANNON = 'autocannon (programmatic API) in the benchmark process, 50 connections';

/** Where the processes ran. */
function placement(results) {
  const p = results.placement;
  return p?.pinned
    ? `\`--pin\`: servers on CPU ${p.server}, the load generator and this process on CPU ${p.others}`
    : 'left to the scheduler (--pin would put the servers on CPU 0 and the rest on the others)';
}

/** The load generator's part of the method. */
function loadMethod(results) {
  const wrk = results.loadGenerator === 'wrk';
  return `- **Load**: ${wrk ? WRK : AUTOCANNON}, \`GET /{slug}\` with a browser User-Agent rotating over
  ${n(1000)} slugs spread evenly over all seeded links. Each round sends a fixed number of requests (the
  warm-up rate × ${results.plan.seconds} s) and sees every answer${wrk ? ' (once all are sent, the connections send `GET /healthz` until the last one is answered)' : ''},
  so every 302 the server sends is also counted; req/s is 302s over the time to the last one, p50/p99 come
  from ${wrk ? "wrk's latency histogram" : "every response's latency"}. The load generator shares the ${results.machine.nproc} CPUs with the two
  servers: the tables give the CPU used by the server under test and by the load generator in each round.
- **Load generator**: \`npm run bench\` uses wrk, and installs Debian's package when it is missing and
  the run is root (else it stops with the command: \`apt-get install wrk\`); \`-- --autocannon\` uses
  autocannon instead, and every line of its report says so. wrk needs about 60-75% of one CPU where
  autocannon needs 65-95%, so the bare baseline gets nearer its real limit under wrk, and the ratios come
  out lower than with autocannon (see the notes). A round whose client used ${CLIENT_BOUND_SHARE * 100}% of a CPU or more
  is marked ⚠: the client, not the server, may have set its pace.`;
}

/** Writes the report of a run as Markdown. */
export function writeReport(path, results) {
  const [small, large] = results.plan.sizes;
  const a = summaryAt(results, small);
  const b = summaryAt(results, large);
  const { creation, stats, qr, machine: m } = results;
  const qrLine = (fmt) =>
    qr[fmt].skipped ? `skipped: ${qr[fmt].skipped}` : `${n(qr[fmt].rps)} req/s, p99 ${f(qr[fmt].p99)} ms`;
  const colds = (results.plan.coldSizes ?? [large]).map((size) => [
    size,
    summaryAt(results, size, results.plan.cold),
  ]);
  const coldLine =
    colds.length > 0
      ? `\n\nCache-miss case (${n(results.plan.cold)} distinct slugs in turn, more than the 20,000 links the cache ` +
        `holds: least-recently-used alone would serve none of them from memory; its admission keeps up to ` +
        `20,000 of them, the others read the store, and each visit creates its own counter rows): ` +
        colds
          .map(
            ([size, cold]) =>
              `at ${n(size)} links ${n(cold.rps)} req/s, p99 ${f(cold.p99)} ms, ratio ${f(cold.ratio, 3)}, ` +
              `${f(cold.cpuUs, 1)} CPU-µs per redirect, ${cold.commits} commits in ${cold.rounds} rounds`,
          )
          .join('; ') +
        '.'
      : '';
  const rulesLine = results.rules
    ? `\n\nA link with five redirect rules (none holds for the load's browser, so every condition is checked) ` +
      `against a plain link, alternating on the same server: req/s ratio ${f(results.rules.ratio, 3)}, ` +
      `CPU-µs ratio ${f(results.rules.cpuRatio, 3)} (median of ${results.rules.rounds.length} rounds)` +
      (results.rules.split
        ? `; a link with a split test: ${f(results.rules.split.ratio, 3)} (CPU-µs ${f(results.rules.split.cpuRatio, 3)}), ` +
          `one with a social preview: ${f(results.rules.preview.ratio, 3)} (CPU-µs ${f(results.rules.preview.cpuRatio, 3)}).`
        : '.')
    : '';
  const text = `# Benchmarks

Generated by \`npm run bench\` (${results.quick ? 'quick' : 'full'} run, ${f(results.seconds, 0)} s). Re-run it to
replace this file; \`npm run bench -- --quick\` is a smoke check that writes nothing.

- [Machine](#machine)
- [Method](#method)
- [Targets](#targets)
- [Notes](#notes)
- [Redirect rounds](#redirect-rounds)
- [Other figures](#other-figures)
- [Against another build](#against-another-build) (\`npm run bench -- --against REF\`)
- [Soak](#soak) (\`npm run bench -- --soak\`)
- [Several nodes on PostgreSQL and Redis](#several-nodes-on-postgresql-and-redis) (\`npm run bench -- --store postgres\`)

## Machine

- ${m.nproc} CPUs: ${m.cpu}
- Node ${m.node}
- ${m.date}

## Method

- **Server**: the real \`shortener serve\` as a child process, started with \`node --no-memory-reducer
  --max-old-space-size=512\` as \`npm start\` does: SQLite in a temporary folder, analytics on (visits folded into counters in
  memory, written every second or once 10,000 rows wait), rate limits raised, \`LOG_LEVEL=warn\`.
- **Baseline**: a bare \`node:http\` child process answering every request with a fixed 302, the most one
  Node process can do on this machine. Both run at the same time; rounds alternate server, baseline.
${loadMethod(results)}
- **Seeding**: links through the store port (\`insertMany\`, transactions of 10,000) from a second process;
  1M visits on one link through \`VisitStore.record\` in batches of 100,000 visits.
- **Commits**: a separate connection polls \`PRAGMA data_version\` every 2 ms during every round
  (baseline rounds too, so both targets share the machine alike); in server rounds it changes whenever
  the server commits (or checkpoints the WAL). One write per redirect would show a change at every poll.
- **CPU placement**: ${placement(results)}.
- **Creation**: \`POST /api/v1/links\` with an API key on 50 connections, after a warm-up round of a
  fifth as many (at least 2,000), as the redirect rounds have one; then \`POST /api/v1/bulk\` with 200 URLs.
- **Clicks**: after the load the server gets SIGTERM (graceful shutdown flushes the buffer); the sum of
  \`links.clicks\` (the stats link excluded) must equal the 302s served.

## Targets

Each ratio is the server's against the bare baseline's in the round right after it: req/s as min / **median** / max
over the rounds, and CPU-µs per redirect (the baseline's over the server's, median), which the rest of
the machine disturbs less than req/s. "by" is how far the figure is past (+) or short of (−) its target.

${targetsTable(targetRows(results))}

Recording adds no store write on the request path of an uncapped link: during the measured server
rounds at ${n(small)} links the server served ${n(a.served)} redirects in ${f(a.seconds, 1)} s and committed
${a.commits} write transactions (${f((a.commits / a.served) * 1000, 3)} per 1,000 redirects: the
once-a-second flush of the counters, appended to the visit log in transactions of at most 2,500 rows).${coldLine}${rulesLine}

## Notes

- The redirect path (\`packages/adapter-http/src/redirect.ts\`) answers before Koa, from the hot-link
  cache (\`link-cache.ts\`); the visits are classified and folded into counters once per event-loop turn
  (after every answer of that turn), and appended to the visit log by the once-a-second flush in
  transactions of at most 2,500 rows, with the loop answering requests in between; a worker thread
  folds the log into the counters later. What the server spends beyond the baseline per
  redirect is that work: the cache look-up and decision, bot detection (remembered per User-Agent),
  then the visitor (interned per batch by User-Agent and IP, with its device, browser and country),
  the referrer and the counters; the visitor hash once per visitor, link and day.
${TRIED}
${COLD}
${ISSUE_29}
${ISSUE_29_LATER}
${ISSUE_29_THIRD}
${ISSUE_29_FOURTH}
${ISSUE_29_FIFTH}
${ISSUE_43}
${ISSUE_43_SECOND}
${ISSUE_43_THIRD}
${ISSUE_59}
${ISSUE_58_SECOND}
${ISSUE_58_THIRD}
${ISSUE_58_FOURTH}
${ISSUE_58_FIFTH}
${ISSUE_58_SIXTH}
${ISSUE_58_SEVENTH}
${ISSUE_58_EIGHTH}
${ISSUE_58_NINTH}
${ISSUE_58_TENTH}
${ISSUE_58_ELEVENTH}
${ISSUE_58_TWELFTH}
${ISSUE_58_THIRTEENTH}
${ISSUE_58_FOURTEENTH}
${ISSUE_58_FIFTEENTH}
- Creating a link costs four B-tree inserts with random keys plus the Koa API path (key check, body
  parsing, validation, JSON); the creations arriving in one event-loop turn share one SQLite transaction
  (one commit instead of one each: about 280 → 175 CPU-µs per link). The bulk endpoint shares the HTTP
  part among 200 links. \`crypto.randomBytes\` costs about 19 µs a call on this machine whatever the size,
  and a creation draws two or three times (id, slug, edit token), so the server draws 4 KiB at a time
  (\`app/src/random.ts\`; about 20% more creations per second).
- Full runs with wrk, redirect ratio at 1,000 / 1,000,000 links: 0.626 / 0.588 (first), 0.70 / 0.62
  (background checkpoints), 0.707 / 0.664 (visits folded by visitor identity, no memory reducer, the
  observer in both rounds), 0.744 / 0.738 (a visit counted by one interned profile), 0.681 / 0.612
  (issue 18: the cold flush's changes, on a machine under other load), ${f(a.ratio, 3)} /
  ${f(b.ratio, 3)} (this run; issue 18's backpressure by parts changes nothing on the hot path).

## Redirect rounds

${roundsTable(results)}

## Other figures

- Seeding: ${results.seeding.map((s) => `${n(s.count)} links in ${n(s.ms)} ms (${n((s.count / s.ms) * 1000)}/s)`).join('; ')}.
- Creation: \`POST /api/v1/links\` ${n(creation.single.linksPerSecond)} links/s (p50 ${f(creation.single.p50)} ms, p99 ${f(creation.single.p99)} ms);
  \`POST /api/v1/bulk\` with 200 URLs ${n(creation.bulk.linksPerSecond)} links/s.
- Statistics (\`days=30\`, ${n(stats.total)} visits in the window): p50 ${f(stats.p50)} ms, p99 ${f(stats.p99)} ms over ${n(stats.responses)} sequential requests;
  recording 1M visits took ${n(results.statsSeed.ms)} ms.
- QR PNG: ${qrLine('png')}. QR SVG: ${qrLine('svg')}.
- Server RSS: ${f(results.rssStartMb, 0)} MB at start, ${f(results.rssSmallMb, 0)} MB after the rounds at ${n(small)} links, ${f(results.rssLargeMb, 0)} MB after those at ${n(large)}${results.rssColdMb ? `, ${f(results.rssColdMb, 0)} MB after the cache-miss case (mostly garbage V8 has not collected yet)` : ''}.
- Graceful shutdown exit code ${results.exit.code}.
`;
  mkdirSync(dirname(path), { recursive: true });
  // the soak (`--soak`) and the multi-node run (`--store postgres`) write their own sections: keep them
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  writeFileSync(
    path,
    [AGAINST_SECTION, SOAK_SECTION, NODES_SECTION].reduce((t, h) => keepSection(t, current, h), text),
  );
}

/** The heading of the section `npm run bench -- --against REF` writes. */
export const AGAINST_SECTION = '## Against another build';
/** The heading of the section `npm run bench -- --soak` writes. */
export const SOAK_SECTION = '## Soak';
/** The heading of the section `npm run bench -- --store postgres` writes. */
export const NODES_SECTION = '## Several nodes on PostgreSQL and Redis';

/** `text` with its section under `heading` replaced by `section` (appended when it has none). */
export function withSection(text, heading, section) {
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) return `${text.trimEnd()}\n\n${section}`;
  const next = text.indexOf('\n## ', start + 1);
  return `${text.slice(0, start + 1)}${section}${next === -1 ? '' : `\n${text.slice(next + 1)}`}`;
}

/** `text` with its Soak section replaced by `section` (appended when it has none). */
export const withSoakSection = (text, section) => withSection(text, SOAK_SECTION, section);

/** The section under `heading` of `text`, or '' (a full benchmark run keeps it when it rewrites the file). */
export function sectionOf(text, heading) {
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) return '';
  const next = text.indexOf('\n## ', start + 1);
  return text.slice(start + 1, next === -1 ? undefined : next + 1);
}

/** `text` with the section under `heading` that `previous` had, if it had one. */
function keepSection(text, previous, heading) {
  const kept = sectionOf(previous, heading);
  return kept === '' ? text : withSection(text, heading, kept);
}
