// Seeding a size and loading `GET /{slug}` at it: a warm-up per target, then alternating server and
// baseline rounds over the same rotating slugs, each printed with its ratios to the baseline round after
// it: req/s, and CPU-µs per redirect (the process's CPU time over the round, steadier than req/s on a
// shared machine).
import { CLIENT_BOUND_SHARE, LOAD_GENERATOR, clientBound, loadRound, median, rotation } from './load.mjs';
import { cpuSeconds, seed } from './processes.mjs';
import { printSection } from './report.mjs';

const HOT_SLUGS = 1000;

/** The slug of the i-th seeded link (as bench/seed.mjs names them). */
const slugOf = (i) => `b${i.toString(36)}`;

/** `count` slugs spread evenly over links [0, size), shuffled with a fixed seed. */
export function spreadSlugs(size, count) {
  const paths = Array.from({ length: count }, (_, i) => `/${slugOf(Math.floor((i * size) / count))}`);
  let state = 42;
  for (let i = paths.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [paths[i], paths[j]] = [paths[j], paths[i]];
  }
  return paths;
}

/** Seeds links [from, to). */
export async function seedLinks(ctx, from, to) {
  const { log, results } = ctx;
  printSection(log, `redirects at ${to.toLocaleString('en')} links`);
  const seeded = await seed('links', ctx.dbPath, ctx.host, from, to - from);
  results.seeding.push({ from, to, count: to - from, ms: seeded.ms });
  log(`  seeded ${(to - from).toLocaleString('en')} links in ${Math.round(seeded.ms)} ms`);
}

/** Seeds links [from, to) and runs the rounds at `to` links. */
export async function seedAndLoad(ctx, from, to) {
  const { plan, log } = ctx;
  await seedLinks(ctx, from, to);
  const requests = rotation(spreadSlugs(to, HOT_SLUGS), ctx.host);
  const rounds = await alternate(ctx, { links: to, slugs: HOT_SLUGS, requests, rounds: plan.rounds });
  summarize(log, rounds);
}

/** The cache-miss case at `size` links: `count` distinct slugs in turn, more than the link cache holds. */
export async function loadCold(ctx, size, count) {
  ctx.log(`  cache-miss case: ${count.toLocaleString('en')} distinct slugs, more than the link cache holds`);
  const requests = rotation(spreadSlugs(size, count), ctx.host);
  const rounds = ctx.plan.coldRounds;
  summarize(ctx.log, await alternate(ctx, { links: size, slugs: count, requests, rounds }));
}

async function alternate(ctx, { links, slugs, requests, rounds }) {
  const { server, baseline, plan, log, results, observer } = ctx;
  const rates = {};
  for (const target of [server, baseline]) {
    const warm = await measured(ctx, target, requests, plan.warmup);
    rates[target.pid] = warm.rps;
    if (target === server)
      results.redirects.push({ target: 'server', links, warmup: true, served: warm.served });
  }
  const rows = [];
  for (let round = 1; round <= rounds; round++) {
    const row = { links, slugs, round };
    for (const [name, target] of [
      ['server', server],
      ['baseline', baseline],
    ]) {
      const amount = Math.round(rates[target.pid] * plan.seconds);
      // the observer polls in this process during both rounds, so both share the machine alike
      observer.start();
      const r = await measured(ctx, target, requests, amount);
      const commits = observer.stop();
      if (target === server) r.commits = commits;
      row[name] = r;
      results.redirects.push({ target: name, links, slugs, round, ...r });
    }
    row.ratio = row.server.rps / row.baseline.rps;
    row.cpuRatio = row.baseline.cpuUs / row.server.cpuUs;
    rows.push(row);
    log(
      `  round ${round}: server ${line(row.server)} | baseline ${line(row.baseline)} | ` +
        `ratio ${row.ratio.toFixed(2)}, CPU-µs ratio ${row.cpuRatio.toFixed(2)}`,
    );
  }
  return rows;
}

async function measured(ctx, target, requests, amount) {
  const cpu = cpuSeconds(target.pid);
  const r = await loadRound({ url: target.url, requests, amount, expect: 302 });
  const unexpected = Object.keys(r.statuses).filter((s) => s !== '302');
  if (unexpected.length > 0 || r.errors > 0)
    throw new Error(
      `unexpected answers from ${target.url}: ${JSON.stringify(r.statuses)}, errors ${JSON.stringify(r.errorKinds)}`,
    );
  const served = r.statuses[302] ?? 0;
  const used = cpuSeconds(target.pid) - cpu;
  // CPU-µs per redirect: the round's few fillers (GET /healthz while the last answers arrive) included
  return { ...r, served, cpu: used / r.seconds, cpuUs: (used * 1e6) / served };
}

const line = (r) =>
  `${Math.round(r.rps).toLocaleString('en')} req/s p50 ${r.p50.toFixed(2)} p99 ${r.p99.toFixed(2)} ms ` +
  `cpu ${Math.round(r.cpu * 100)}% ${r.cpuUs.toFixed(1)} µs/req (${LOAD_GENERATOR} ${Math.round(r.clientCpu * 100)}%)` +
  (r.commits === undefined ? '' : ` commits ${r.commits}`) +
  (clientBound(r) ? " WARNING: the client, not the server, set this round's pace" : '');

function summarize(log, rows) {
  const m = (pick) => median(rows.map(pick));
  const spread = (pick) => {
    const values = rows.map(pick);
    return `${Math.min(...values).toFixed(2)} / ${m(pick).toFixed(3)} / ${Math.max(...values).toFixed(2)}`;
  };
  log(
    `  median: server ${Math.round(m((r) => r.server.rps)).toLocaleString('en')} req/s, ` +
      `p99 ${m((r) => r.server.p99).toFixed(2)} ms (max ${Math.max(...rows.map((r) => r.server.p99)).toFixed(2)}), ` +
      `${m((r) => r.server.cpuUs).toFixed(1)} µs/req; baseline ${Math.round(m((r) => r.baseline.rps)).toLocaleString('en')} req/s, ` +
      `${m((r) => r.baseline.cpuUs).toFixed(1)} µs/req\n` +
      `  ratio min / median / max: ${spread((r) => r.ratio)}; CPU-µs ratio ${spread((r) => r.cpuRatio)}` +
      ` (${LOAD_GENERATOR})`,
  );
  const bound = rows.filter((r) => clientBound(r.server) || clientBound(r.baseline)).length;
  if (bound > 0)
    log(
      `  WARNING: in ${bound} of ${rows.length} rounds the client (${LOAD_GENERATOR}) used at least ` +
        `${CLIENT_BOUND_SHARE * 100}% of a CPU: it, not the server, may have set the pace, and the ratio reads high`,
    );
}
