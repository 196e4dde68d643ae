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

/**
 * Loads `/bench-plain` and `/bench-rules` in turn for `plan.rounds` rounds; returns the rounds and the
 * median ratios (req/s of the ruled link over the plain one, and CPU-µs of the plain over the ruled).
 */
export async function measureRules(ctx, key) {
  const { server, plan, log, host, results } = ctx;
  // every redirect served is a click the shutdown check counts
  const load = async (requests, amount) => {
    const r = await measured(server, requests, amount);
    results?.redirects.push({ target: 'server', links: 'rules', served: r.served });
    return r;
  };
  printSection(log, 'a link with five rules, against a plain link');
  await createLink(server.url, key, { url: 'https://example.com/plain', alias: 'bench-plain' });
  await createLink(server.url, key, {
    url: 'https://example.com/ruled',
    alias: 'bench-rules',
    rules: FIVE_RULES,
  });
  const plain = rotation(['/bench-plain'], host);
  const ruled = rotation(['/bench-rules'], host);
  const warm = await load(plain, plan.warmup);
  await load(ruled, plan.warmup);
  const amount = Math.round(warm.rps * plan.seconds);
  const rounds = [];
  for (let round = 1; round <= plan.rounds; round++) {
    const row = {
      round,
      plain: await load(plain, amount),
      rules: await load(ruled, amount),
    };
    row.ratio = row.rules.rps / row.plain.rps;
    row.cpuRatio = row.plain.cpuUs / row.rules.cpuUs;
    rounds.push(row);
    log(
      `  round ${round}: plain ${Math.round(row.plain.rps)} req/s ${row.plain.cpuUs.toFixed(1)} µs/req | ` +
        `five rules ${Math.round(row.rules.rps)} req/s ${row.rules.cpuUs.toFixed(1)} µs/req | ` +
        `ratio ${row.ratio.toFixed(2)}, CPU-µs ratio ${row.cpuRatio.toFixed(2)}`,
    );
  }
  const result = {
    rounds,
    ratio: median(rounds.map((r) => r.ratio)),
    cpuRatio: median(rounds.map((r) => r.cpuRatio)),
  };
  log(
    `  median ratio of five rules to plain: ${result.ratio.toFixed(3)} (CPU-µs ${result.cpuRatio.toFixed(3)})`,
  );
  return result;
}
