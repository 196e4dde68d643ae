// The cost of redirect rules (issue 27): a link with five rules, none of which holds for the browser of
// the load (so every condition is checked and the link's own URL answers, the most work), against a plain
// link, in alternating rounds on the same server; each printed as the ruled link's ratio to the plain one.
import { loadRound, median, rotation } from './load.mjs';
import { cpuSeconds } from './processes.mjs';
import { printSection } from './report.mjs';

/** Five rules on device, OS, language, country and query: the conditions a visit can be asked about. */
const FIVE_RULES = [
  { when: { os: 'ios' }, url: 'https://example.com/ios' },
  { when: { device: 'tablet' }, url: 'https://example.com/tablet' },
  { when: { language: ['de', 'fr'] }, url: 'https://example.com/de' },
  { when: { country: ['AT', 'CH'] }, url: 'https://example.com/at' },
  { when: { query: { ref: 'mail' } }, url: 'https://example.com/mail' },
];

export async function createLink(url, key, body) {
  const response = await fetch(`${url}/api/v1/links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`creating ${body.alias}: ${response.status}`);
  return response.json();
}

/** One load round of `requests` on `target`: req/s, p99, redirects served and CPU-µs a request. */
export async function measured(target, requests, amount) {
  const cpu = cpuSeconds(target.pid);
  const r = await loadRound({ url: target.url, requests, amount, expect: 302 });
  const served = r.statuses[302] ?? 0;
  if (Object.keys(r.statuses).some((s) => s !== '302') || r.errors > 0)
    throw new Error(`unexpected answers: ${JSON.stringify(r.statuses)}`);
  return { rps: r.rps, p99: r.p99, served, cpuUs: ((cpuSeconds(target.pid) - cpu) * 1e6) / served };
}

/** The links measured against a plain one: five rules, a split test and a social preview (issue 41). */
const VARIANTS = {
  rules: { label: 'five rules', body: { rules: FIVE_RULES } },
  split: {
    label: 'a split',
    body: {
      split: [
        { url: 'https://example.com/a', weight: 50 },
        { url: 'https://example.com/b', weight: 50 },
      ],
    },
  },
  preview: {
    label: 'a preview',
    body: { preview: { title: 'Bench', description: 'A card', image: 'https://example.com/card.png' } },
  },
};

/**
 * Loads `/bench-plain`, `/bench-rules`, `/bench-split` and `/bench-preview` in turn for `plan.rounds`
 * rounds; returns the rounds and, for each of the others, the median ratios to the plain link (req/s of
 * it over the plain one, and CPU-µs of the plain over it). The rules' ratios stay `ratio`/`cpuRatio`.
 */
export async function measureRules(ctx, key) {
  const { server, plan, log, host, results } = ctx;
  // every redirect served is a click the shutdown check counts
  const load = async (requests, amount) => {
    const r = await measured(server, requests, amount);
    results?.redirects.push({ target: 'server', links: 'rules', served: r.served });
    return r;
  };
  printSection(log, 'a link with five rules, a split or a preview, against a plain link');
  await createLink(server.url, key, { url: 'https://example.com/plain', alias: 'bench-plain' });
  for (const [name, { body }] of Object.entries(VARIANTS)) {
    await createLink(server.url, key, {
      url: `https://example.com/${name}`,
      alias: `bench-${name}`,
      ...body,
    });
  }
  const plain = rotation(['/bench-plain'], host);
  const paths = Object.fromEntries(
    Object.keys(VARIANTS).map((name) => [name, rotation([`/bench-${name}`], host)]),
  );
  const warm = await load(plain, plan.warmup);
  for (const requests of Object.values(paths)) await load(requests, plan.warmup);
  const amount = Math.round(warm.rps * plan.seconds);
  const rounds = [];
  for (let round = 1; round <= plan.rounds; round++) {
    const row = { round, plain: await load(plain, amount) };
    for (const [name, requests] of Object.entries(paths)) {
      row[name] = await load(requests, amount);
      row[`${name}Ratio`] = row[name].rps / row.plain.rps;
      row[`${name}CpuRatio`] = row.plain.cpuUs / row[name].cpuUs;
    }
    row.ratio = row.rulesRatio;
    row.cpuRatio = row.rulesCpuRatio;
    rounds.push(row);
    const parts = Object.entries(VARIANTS).map(
      ([name, { label }]) =>
        `${label} ${Math.round(row[name].rps)} req/s ${row[name].cpuUs.toFixed(1)} µs (${row[`${name}Ratio`].toFixed(2)})`,
    );
    log(
      `  round ${round}: plain ${Math.round(row.plain.rps)} req/s ${row.plain.cpuUs.toFixed(1)} µs | ${parts.join(' | ')}`,
    );
  }
  const result = { rounds };
  for (const name of Object.keys(VARIANTS)) {
    result[name] = {
      ratio: median(rounds.map((r) => r[`${name}Ratio`])),
      cpuRatio: median(rounds.map((r) => r[`${name}CpuRatio`])),
    };
  }
  result.ratio = result.rules.ratio;
  result.cpuRatio = result.rules.cpuRatio;
  for (const [name, { label }] of Object.entries(VARIANTS)) {
    log(
      `  median ratio of ${label} to plain: ${result[name].ratio.toFixed(3)} (CPU-µs ${result[name].cpuRatio.toFixed(3)})`,
    );
  }
  return result;
}
