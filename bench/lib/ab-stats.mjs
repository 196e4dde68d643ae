// The statistics of a same-run A/B (`npm run bench -- --against REF`): the median of per-round ratios,
// a bootstrap 95% interval of that median, and what the interval shows. Pure: tested by
// packages/app/test/bench-stats.test.ts.

/** The median of numbers (the mean of the middle two for an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** mulberry32: a seeded generator, so the same rounds always give the same interval. */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The percentile bootstrap 95% interval of the median of `values`: `resamples` samples of the same size
 * drawn with replacement, the 2.5th and 97.5th percentiles of their medians.
 */
export function bootstrapInterval(values, { resamples = 10_000, seed = 20261202 } = {}) {
  if (values.length === 0) return [NaN, NaN];
  const random = generator(seed);
  const medians = new Float64Array(resamples);
  const sample = new Array(values.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < values.length; i++) sample[i] = values[Math.floor(random() * values.length)];
    medians[r] = median(sample);
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
  const percent = `${m >= 1 ? '+' : '−'}${(Math.abs(m - 1) * 100).toFixed(1)}%`;
  let verdict = 'no difference shown';
  if (lo > 1 || hi < 1) {
    const good = better === 'higher' ? lo > 1 : hi < 1;
    verdict = `${good ? 'better' : 'worse'} (${percent})`;
  }
  return { median: m, lo, hi, verdict, rounds: ratios.length };
}
