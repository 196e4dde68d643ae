// The statistics of a same-run A/B (`npm run bench -- --against REF`): the median of per-round ratios,
// a bootstrap 95% interval of that median, and what the interval shows. Pure: tested by
// packages/app/test/bench-stats.test.ts.
import { seededFloats } from '@shortener/testkit';

/** The median of numbers (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The percentile bootstrap 95% interval of a statistic of `values` (their median unless `statistic` is
 * given): `resamples` samples of the same size drawn with replacement, the 2.5th and 97.5th percentiles
 * of the statistic over them.
 */
export function bootstrapInterval(values, { resamples = 10_000, seed = 20261202, statistic = median } = {}) {
  if (values.length === 0) return [NaN, NaN];
  const random = seededFloats(seed);
  const medians = new Float64Array(resamples);
  const sample = new Array(values.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < values.length; i++) sample[i] = values[Math.floor(random() * values.length)];
    medians[r] = statistic(sample);
  }
  medians.sort();
  const at = (q) => medians[Math.min(resamples - 1, Math.floor(q * resamples))];
  return [at(0.025), at(0.975)];
}

/**
 * What per-round ratios new/old show: their median, the bootstrap interval, and a verdict. `better` is
 * `'higher'` (req/s) or `'lower'` (CPU per request); an interval holding 1 shows no difference.
 */
export function compare(ratios, better) {
  const m = median(ratios);
  const [lo, hi] = bootstrapInterval(ratios);
  return { median: m, lo, hi, verdict: verdictOf(m, lo, hi, better), rounds: ratios.length };
}

/** "no difference shown" when [lo, hi] holds 1, else better or worse by how much. */
function verdictOf(m, lo, hi, better) {
  if (lo <= 1 && hi >= 1) return 'no difference shown';
  const good = better === 'higher' ? lo > 1 : hi < 1;
  return `${good ? 'better' : 'worse'} (${m >= 1 ? '+' : '−'}${(Math.abs(m - 1) * 100).toFixed(1)}%)`;
}

const sum = (values) => values.reduce((a, b) => a + b, 0);

/**
 * What rounds show in total: the CPU per request of all of new's rounds over all of old's (`rounds`:
 * `{ new: { cpu, served }, old: { cpu, served } }` each), as `median`, with a bootstrap 95% interval over
 * the rounds and a verdict (lower is better). Work a round leaves to the same server's next round (a
 * compaction that outlasts the wait) moves between rounds but stays in the server's total.
 */
export function compareTotals(rounds, better = 'lower') {
  const perRequest = (sample, side) =>
    sum(sample.map((r) => r[side].cpu)) / sum(sample.map((r) => r[side].served));
  const statistic = (sample) => perRequest(sample, 'new') / perRequest(sample, 'old');
  const m = statistic(rounds);
  const [lo, hi] = bootstrapInterval(rounds, { statistic });
  return { median: m, lo, hi, verdict: verdictOf(m, lo, hi, better), rounds: rounds.length };
}
