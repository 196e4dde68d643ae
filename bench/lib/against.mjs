// `npm run bench -- --against REF [--quick] [--rounds N] [--out FILE]` (issue 58): this build against
// another commit in one run. REF is built once in a directory of its own (`git archive` of the commit,
// `npm ci`, `tsc -b`), cached by commit under the temporary folder; both servers start with the same data
// (each seeded by its own bench/seed.mjs: links `b<i>` on one short domain), and a bare node:http
// baseline runs beside them. For each figure the three take turns, round after round (in turn forward,
// then backward), each round a fixed number of requests with wrk; while one is loaded the other servers
// are stopped (SIGSTOP), and after its round it is given time to finish what the round left (the visits'
// flush and compaction) before the next starts, so its CPU per request counts all of its threads' work.
// The report gives per figure the median of the per-round ratios new/old of req/s and of CPU-µs per
// request with a bootstrap 95% interval ("no difference shown" when it holds 1), both against bare, the
// p99 and the RSS after every round.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { compare, compareTotals, median } from './ab-stats.mjs';
import { LOAD_GENERATOR, loadRound, rotation } from './load.mjs';
import { cpuSeconds, rssMb, runIn, startBaseline, startBenchServer, stop } from './processes.mjs';
import { spreadSlugs } from './redirects.mjs';
import { AGAINST_SECTION, machine, withSection } from './report.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SHORT_HOST = 's.bench';
/** Where built commits are kept, one folder per commit (`.built` marks a finished build). */
export const BUILDS = join(tmpdir(), 'shortener-bench-builds');

/** The figures of a full and a quick run: links seeded, distinct slugs asked for in turn. */
function plan(quick, rounds) {
  const hot = (links) => ({ name: `hot, ${links.toLocaleString('en')} links`, links, slugs: 1_000 });
  const cold = (links) => ({ name: `cold, ${links.toLocaleString('en')} links`, links, slugs: 50_000 });
  return quick
    ? {
        rounds: rounds ?? 3,
        seconds: 1.5,
        warmup: 5_000,
        freshWarmup: 3_000,
        figures: [hot(1_000), cold(100_000)],
      }
    : {
        rounds: rounds ?? 10,
        seconds: 3,
        warmup: 20_000,
        freshWarmup: 10_000,
        figures: [hot(1_000), cold(100_000), hot(1_000_000), cold(1_000_000)],
      };
}

const git = (...args) => {
  const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr.trim()}`);
  return r.stdout.trim();
};

/** The commit `ref` names, built in its folder under {@link BUILDS} (reused when built before). */
export async function buildOf(ref, log) {
  const sha = git('rev-parse', '--verify', `${ref}^{commit}`);
  const dir = join(BUILDS, sha);
  if (existsSync(join(dir, '.built'))) {
    log(`${ref} (${sha.slice(0, 7)}): built before, in ${dir}`);
    return { ref, sha, dir };
  }
  log(`${ref} (${sha.slice(0, 7)}): building in ${dir} (git archive, npm ci, tsc -b)`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const step = (what, file, args) => {
    const r = spawnSync(file, args, { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`${what} of ${ref} failed: ${(r.stderr || r.stdout).slice(-2000)}`);
  };
  step('unpacking', 'sh', ['-c', `git -C '${ROOT}' archive --format=tar ${sha} | tar -x -C '${dir}'`]);
  step('npm ci', 'npm', ['ci', '--no-audit', '--no-fund']);
  step('tsc -b', process.execPath, ['node_modules/typescript/bin/tsc', '-b']);
  writeFileSync(join(dir, '.built'), `${new Date().toISOString()}\n`);
  return { ref, sha, dir };
}

/** Stops (SIGSTOP) or continues (SIGCONT) the processes of `targets`. */
const signal = (targets, name) => targets.forEach((t) => t.running.proc.kill(name));

/**
 * Waits until the process `pid` is idle (under 2% of a CPU in each of six 250 ms steps in a row: the
 * flush and the compaction run on timers of a second or so) and `done()` holds, at most `limitMs`: what
 * a round left behind counts to the round.
 */
async function settled(pid, limitMs = 20_000, done = () => true) {
  const started = Date.now();
  let last = cpuSeconds(pid);
  let quiet = 0;
  while ((quiet < 6 || !done()) && Date.now() - started < limitMs) {
    await sleep(250);
    const now = cpuSeconds(pid);
    quiet = now - last < 0.005 ? quiet + 1 : 0;
    last = now;
  }
}

/**
 * Whether the visit log of a server's database is empty: every visit of its round folded. The server
 * holds its compaction while visits arrive and for 5 s after (app/src/compaction.ts), so quiet alone
 * ended a round before its fold, which then fell into whichever later round (cold rounds of one build
 * measured 63 to 181 CPU-µs a redirect by where a fold fell). Read-only, a connection opened and closed
 * for each look, so the bench holds nothing open on the server's database between looks.
 */
function visitLogEmpty(target) {
  const reader = new Database(target.dbPath, { readonly: true, fileMustExist: true });
  try {
    return reader.prepare('SELECT NOT EXISTS (SELECT 1 FROM visit_log)').pluck().get() === 1;
  } finally {
    reader.close();
  }
}

/** How long a round waits at most for its server to fold its visits and go quiet. */
const SETTLE_LIMIT_MS = 45_000;

/** The requests of a round: the figure's slugs in turn, from where this target's last round ended. */
function roundRequests(figure, target, amount) {
  const slugs = figure.paths;
  const offset = target.offset % slugs.length;
  target.offset += amount;
  return rotation([...slugs.slice(offset), ...slugs.slice(0, offset)], SHORT_HOST);
}

/**
 * A new process for `target`'s next round, on the same database: stopped, started again, warmed with
 * `warmup` redirects (uncounted) and settled. One process for all rounds let a state a process fell into
 * (an A/A run of one commit against itself measured one process 1.47 times the other's rate, in all 8
 * rounds, and the next such run 1.06) count as a difference between builds; a process per round makes
 * it one round's noise, which the interval sees.
 */
async function freshProcess(figure, target, others, warmup) {
  await stop(target.running);
  target.running = await target.start();
  await round(figure, target, others, warmup);
}

/** One round of `amount` redirects against `target`, the others stopped; its figures. */
async function round(figure, target, others, amount) {
  const requests = roundRequests(figure, target, amount);
  signal(others, 'SIGSTOP');
  try {
    const cpu = cpuSeconds(target.running.pid);
    const r = await loadRound({ url: target.running.url, requests, amount, expect: 302 });
    const unexpected = Object.keys(r.statuses).filter((s) => s !== '302');
    if (unexpected.length > 0 || r.errors > 0)
      throw new Error(`${target.name}: unexpected answers ${JSON.stringify(r.statuses)}, errors ${r.errors}`);
    if (target.name !== 'bare')
      await settled(target.running.pid, SETTLE_LIMIT_MS, () => visitLogEmpty(target));
    const served = r.statuses[302] ?? 0;
    const cpuSec = cpuSeconds(target.running.pid) - cpu;
    const cpuUs = (cpuSec * 1e6) / served;
    return { rps: r.rps, p50: r.p50, p99: r.p99, cpuUs, cpuSec, served, rssMb: rssMb(target.running.pid) };
  } finally {
    signal(others, 'SIGCONT');
  }
}

/** Seeds links [from, to) into each server's database with that build's own seeding script. */
async function seedTo(servers, from, to, log) {
  for (const s of servers) {
    const started = Date.now();
    await runIn(s.root, process.execPath, [
      'bench/seed.mjs',
      'links',
      s.dbPath,
      SHORT_HOST,
      String(from),
      String(to - from),
    ]);
    log(
      `  ${s.name}: seeded links ${from.toLocaleString('en')} to ${to.toLocaleString('en')} in ${Date.now() - started} ms`,
    );
  }
}

/** The rounds of one figure: a warm-up each, then `rounds` rounds of new, old and bare in turn. */
async function runFigure(figure, targets, p, log) {
  const [fresh, old, bare] = targets;
  figure.paths = spreadSlugs(figure.links, figure.slugs);
  for (const t of targets) t.offset = 0;
  const warm = {};
  for (const t of targets) {
    warm[t.name] = await round(
      figure,
      t,
      targets.filter((o) => o !== t && o !== bare),
      p.warmup,
    );
  }
  // the same work for both builds: the slower one's warm-up rate for the round's length
  const amount = Math.round(Math.min(warm[fresh.name].rps, warm[old.name].rps) * p.seconds);
  const bareAmount = Math.round(warm[bare.name].rps * p.seconds);
  const rows = [];
  for (let i = 0; i < p.rounds; i++) {
    const row = {};
    for (const t of i % 2 === 0 ? targets : [...targets].reverse()) {
      const servers = targets.filter((o) => o !== t && o !== bare);
      if (t !== bare) await freshProcess(figure, t, servers, p.freshWarmup);
      row[t.name] = await round(figure, t, servers, t === bare ? bareAmount : amount);
    }
    rows.push(row);
    if (i === p.rounds - 1) await finishLast(row, targets, bare);
    const cell = (r) => `${Math.round(r.rps)} req/s ${r.cpuUs.toFixed(1)} µs p99 ${r.p99.toFixed(1)} ms`;
    log(
      `  round ${i + 1}: new ${cell(row.new)} | old ${cell(row.old)} | bare ${cell(row.bare)} | ` +
        `new/old ${(row.new.rps / row.old.rps).toFixed(3)} req/s, ${(row.new.cpuUs / row.old.cpuUs).toFixed(3)} CPU-µs`,
    );
  }
  return summarize(figure, rows, amount);
}

/**
 * What the servers' last rounds left undone (a compaction longer than a round's wait for quiet), each
 * server alone until idle for as long as it takes (a minute at most): counted to its last round, so the
 * totals hold every request's work.
 */
async function finishLast(row, targets, bare) {
  for (const t of targets.filter((o) => o !== bare)) {
    const others = targets.filter((o) => o !== t && o !== bare);
    signal(others, 'SIGSTOP');
    try {
      const before = cpuSeconds(t.running.pid);
      await settled(t.running.pid, 60_000);
      row[t.name].cpuSec += cpuSeconds(t.running.pid) - before;
    } finally {
      signal(others, 'SIGCONT');
    }
  }
}

/** CPU-µs per request over every round of `name`. */
const totalCpuUs = (rows, name) =>
  (rows.reduce((a, r) => a + r[name].cpuSec, 0) * 1e6) / rows.reduce((a, r) => a + r[name].served, 0);

function summarize(figure, rows, amount) {
  const of = (name, key) => rows.map((r) => r[name][key]);
  const ratios = (a, b, key) => rows.map((r) => r[a][key] / r[b][key]);
  return {
    name: figure.name,
    links: figure.links,
    slugs: figure.slugs,
    amount,
    rounds: rows.length,
    rps: Object.fromEntries(['new', 'old', 'bare'].map((n) => [n, median(of(n, 'rps'))])),
    cpuUs: Object.fromEntries(['new', 'old', 'bare'].map((n) => [n, median(of(n, 'cpuUs'))])),
    p99: Object.fromEntries(['new', 'old'].map((n) => [n, median(of(n, 'p99'))])),
    p99Max: Object.fromEntries(['new', 'old'].map((n) => [n, Math.max(...of(n, 'p99'))])),
    rssMax: Object.fromEntries(['new', 'old'].map((n) => [n, Math.max(...of(n, 'rssMb'))])),
    rpsNewOld: compare(ratios('new', 'old', 'rps'), 'higher'),
    cpuNewOld: compare(ratios('new', 'old', 'cpuUs'), 'lower'),
    // every round's CPU over every round's requests: a round's work done in the next one stays counted
    cpuTotal: Object.fromEntries(['new', 'old', 'bare'].map((n) => [n, totalCpuUs(rows, n)])),
    cpuTotalNewOld: compareTotals(
      rows.map((r) => ({
        new: { cpu: r.new.cpuSec, served: r.new.served },
        old: { cpu: r.old.cpuSec, served: r.old.served },
      })),
    ),
    // against bare: the share of a bare 302's rate, and the bare 302's CPU over the build's (≤ 1)
    rpsNewBare: median(ratios('new', 'bare', 'rps')),
    rpsOldBare: median(ratios('old', 'bare', 'rps')),
    cpuNewBare: median(rows.map((r) => r.bare.cpuUs / r.new.cpuUs)),
    cpuOldBare: median(rows.map((r) => r.bare.cpuUs / r.old.cpuUs)),
    rows,
  };
}

const f = (x, d = 2) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const n = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en') : '–');
const interval = (c) => `${f(c.median, 3)} [${f(c.lo, 3)}, ${f(c.hi, 3)}]`;

/** The lines a figure prints. */
function figureLines(s) {
  return [
    `${s.name}: ${s.rounds} rounds of ${n(s.amount)} requests`,
    `  req/s        new ${n(s.rps.new)}, old ${n(s.rps.old)}, bare ${n(s.rps.bare)}; new/old ${interval(s.rpsNewOld)}: ${s.rpsNewOld.verdict}`,
    `  CPU-µs/req   new ${f(s.cpuUs.new, 1)}, old ${f(s.cpuUs.old, 1)}, bare ${f(s.cpuUs.bare, 1)}; new/old ${interval(s.cpuNewOld)}: ${s.cpuNewOld.verdict}`,
    `  CPU-µs total new ${f(s.cpuTotal.new, 1)}, old ${f(s.cpuTotal.old, 1)}, bare ${f(s.cpuTotal.bare, 1)}; new/old ${interval(s.cpuTotalNewOld)}: ${s.cpuTotalNewOld.verdict}`,
    `  against bare req/s new ${f(s.rpsNewBare, 3)}, old ${f(s.rpsOldBare, 3)}; CPU-µs (bare/build) new ${f(s.cpuNewBare, 3)}, old ${f(s.cpuOldBare, 3)}`,
    `  p99 ms       new ${f(s.p99.new)} (max ${f(s.p99Max.new)}), old ${f(s.p99.old)} (max ${f(s.p99Max.old)}); RSS max MB new ${f(s.rssMax.new, 0)}, old ${f(s.rssMax.old, 0)}`,
  ];
}

/** The section of docs/benchmarks.md. */
function section(results) {
  const rows = results.figures.map(
    (s) =>
      `| ${s.name} | ${s.rounds} × ${n(s.amount)} | ${n(s.rps.new)} / ${n(s.rps.old)} | ${interval(s.rpsNewOld)} ${s.rpsNewOld.verdict} | ` +
      `${f(s.cpuUs.new, 1)} / ${f(s.cpuUs.old, 1)} | ${interval(s.cpuNewOld)} ${s.cpuNewOld.verdict} | ` +
      `${f(s.cpuTotal.new, 1)} / ${f(s.cpuTotal.old, 1)} | ${interval(s.cpuTotalNewOld)} ${s.cpuTotalNewOld.verdict} | ` +
      `${f(s.rpsNewBare, 3)} / ${f(s.rpsOldBare, 3)} | ${f(s.cpuNewBare, 3)} / ${f(s.cpuOldBare, 3)} | ` +
      `${f(s.p99.new)} / ${f(s.p99.old)} | ${f(s.rssMax.new, 0)} / ${f(s.rssMax.old, 0)} |`,
  );
  return `${AGAINST_SECTION}

Generated by \`npm run bench -- --against ${results.ref}${results.only === undefined ? '' : ` --only '${results.only}'`}\` (${results.seconds} s) on ${results.machine.summary}:
this build (\`${results.head}\`, "new") against \`${results.sha.slice(0, 7)}\` ("old") and a bare node:http
302 ("bare"), in one run. Every performance claim in the notes comes from such a run.

- **Builds**: the old commit is unpacked (\`git archive\`), installed (\`npm ci\`) and built (\`tsc -b\`)
  once in a folder of its own under the temporary folder, reused by later runs of the same commit.
- **Data**: each server has its own SQLite database, seeded by its own \`bench/seed.mjs\` with the same
  links (\`b<i>\` on one short domain); the figures run in the order of the table, seeding up to each
  size. Hot: 1,000 slugs spread over the links in turn; cold: 50,000 (more than the 20,000 links the
  link cache holds), each round going on where that server's last one ended, so no round finds its
  links in memory.
- **Rounds**: a warm-up each, then ${results.rounds} rounds in which new, old and bare take turns
  (forward, then backward); new and old get the same number of requests (the slower one's warm-up rate
  for ${results.roundSeconds} s), bare its own. Each round of new and old runs in a new process (on
  the same database), warmed with ${results.freshWarmup.toLocaleString('en')} uncounted redirects and
  settled first: a process can fall into a slow state that lasts (an A/A run of one commit against
  itself, one process for all rounds, measured one at 1.47 times the other's rate in all 8 rounds),
  which then reads as a difference between the builds. While one is loaded (${LOAD_GENERATOR}, one
  thread, 50 connections, \`bench/lib/rotate.lua\`) the other servers are stopped (SIGSTOP), and after its round it
  runs alone until its visit log is empty and it is idle (under 2% of a CPU; 45 s at most), so its
  CPU-µs per request (all threads, from \`/proc/<pid>/stat\`) includes the flush and the compaction the
  round caused, in that round.
- **Figures**: the median of the per-round ratios new/old, with a bootstrap 95% interval of that median
  (10,000 resamples); an interval holding 1 is "no difference shown". For req/s higher is better, for
  CPU-µs lower. CPU-µs in total: all of a build's rounds' CPU over all of their requests (the last round
  waits until the server is idle, a minute at most), so work a round leaves to that server's next round
  (a compaction longer than the wait) stays counted; its interval is a bootstrap over the rounds. It is
  the figure for the cold rows, whose per-round CPU swings with where a compaction falls. Against bare:
  req/s new/bare, and CPU-µs bare/build (1 would be a bare 302's cost).

| figure | rounds × requests | req/s new / old | req/s new/old [95%] | CPU-µs new / old | CPU-µs new/old [95%] | CPU-µs in total new / old | in total new/old [95%] | req/s / bare, new / old | CPU-µs bare/build, new / old | p99 ms new / old | RSS max MB new / old |
|---|---|---:|---|---:|---|---:|---|---:|---:|---:|---:|
${rows.join('\n')}
`;
}

/** `--against REF`: builds REF, runs the figures, prints them, and writes the section unless quick. */
export async function runAgainst({ ref, quick, rounds, only, out, log }) {
  const started = Date.now();
  const p = plan(quick, rounds);
  if (only !== undefined) p.figures = p.figures.filter((f) => f.name.includes(only));
  const build = await buildOf(ref, log);
  log(`building this checkout (tsc -b)`);
  await runIn(ROOT, process.execPath, ['node_modules/typescript/bin/tsc', '-b']);
  const dir = mkdtempSync(join(tmpdir(), 'shortener-against-'));
  const targets = [];
  try {
    for (const [name, root] of [
      ['new', ROOT],
      ['old', build.dir],
    ]) {
      const dbPath = join(dir, `${name}.db`);
      // the database is made (migrated) by the build's own seeding, before its server opens it
      await runIn(root, process.execPath, ['bench/seed.mjs', 'links', dbPath, SHORT_HOST, '0', '1']);
      const start = () => startBenchServer(dbPath, SHORT_HOST, { HEALTH_CHECKS: 'off' }, [], root);
      targets.push({ name, root, dbPath, start, running: await start(), offset: 0 });
    }
    targets.push({ name: 'bare', running: await startBaseline(), offset: 0 });
    const servers = targets.slice(0, 2);
    log(
      `new: this checkout (${git('rev-parse', '--short', 'HEAD')}), old: ${ref} (${build.sha.slice(0, 7)}); ` +
        `${p.rounds} rounds of about ${p.seconds} s per figure, ${LOAD_GENERATOR}`,
    );
    const figures = [];
    let seeded = 1;
    for (const figure of p.figures) {
      log(`\n${figure.name}`);
      if (figure.links > seeded) {
        await seedTo(servers, seeded, figure.links, log);
        seeded = figure.links;
      }
      const summary = await runFigure(figure, targets, p, log);
      figureLines(summary).forEach((line) => log(line));
      figures.push(summary);
    }
    const results = {
      ref,
      sha: build.sha,
      head: git('rev-parse', '--short', 'HEAD'),
      machine: machine(),
      rounds: p.rounds,
      roundSeconds: p.seconds,
      freshWarmup: p.freshWarmup,
      only,
      seconds: Math.round((Date.now() - started) / 1000),
      figures,
    };
    // a partial run (quick, or some figures only) writes nothing unless asked to
    const path = out ?? (quick || only !== undefined ? null : 'docs/benchmarks.md');
    if (path !== null) {
      const current = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
      writeFileSync(path, withSection(current, AGAINST_SECTION, section(results)));
      log(`\nwritten to ${path}`);
    }
    return results;
  } finally {
    for (const t of targets) await stop(t.running);
    rmSync(dir, { recursive: true, force: true });
  }
}
