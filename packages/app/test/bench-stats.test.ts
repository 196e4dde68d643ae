import { describe, expect, it } from 'vitest';
import { bootstrapInterval, compare, compareTotals, median } from '../../../bench/lib/ab-stats.mjs';

// The statistics of `npm run bench -- --against REF` (issue 58): what a run's per-round ratios show.

describe('the A/B statistics of the benchmark', () => {
  it('takes the median, the middle two averaged for an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('gives an interval around the median that narrows as rounds agree, the same on every run', () => {
    const noisy = [0.9, 1.12, 0.95, 1.08, 1.0, 0.93, 1.1, 1.02, 0.97, 1.05];
    const [lo, hi] = bootstrapInterval(noisy);
    expect(lo).toBeLessThan(median(noisy));
    expect(hi).toBeGreaterThan(median(noisy));
    expect(bootstrapInterval(noisy)).toEqual([lo, hi]);
    const steady = noisy.map((r) => 1 + (r - 1) / 10);
    const [slo, shi] = bootstrapInterval(steady);
    expect(shi - slo).toBeLessThan((hi - lo) / 5);
  });

  it('says "no difference shown" when the interval holds 1, and which way otherwise', () => {
    const even = [0.96, 1.04, 0.99, 1.01, 1.03, 0.97, 1.0, 1.02, 0.98, 1.0];
    expect(compare(even, 'higher').verdict).toBe('no difference shown');
    // 5% more req/s in every round, give or take 1%: better; the same ratios of CPU: worse
    const faster = [1.04, 1.05, 1.06, 1.05, 1.045, 1.055, 1.05, 1.04, 1.06, 1.05];
    expect(compare(faster, 'higher')).toMatchObject({ verdict: 'better (+5.0%)', rounds: 10 });
    expect(compare(faster, 'lower').verdict).toBe('worse (+5.0%)');
    const cheaper = faster.map((r) => 2 - r);
    expect(compare(cheaper, 'lower').verdict).toBe('better (−5.0%)');
  });

  it('compares totals: work one round leaves to the next stays with its server', () => {
    // new costs 0.8 of old per request; some of a round's work lands in the same server's next round
    const spilled = [6, 10, 7, 9, 8, 8, 5, 11, 8, 8];
    const rounds = spilled.map((cpu) => ({ new: { cpu, served: 10_000 }, old: { cpu: 10, served: 10_000 } }));
    const totals = compareTotals(rounds);
    expect(totals.median).toBeCloseTo(0.8, 10);
    expect(totals.verdict).toBe('better (−20.0%)');
    expect(totals.hi).toBeLessThan(1);
    expect(compareTotals(rounds.map((r) => ({ new: r.old, old: r.new }))).verdict).toBe('worse (+25.0%)');
    // rounds of other sizes count by their requests: 1 µs a request on both sides is no difference
    const sized = [1, 2, 3, 4, 5, 6].map((k) => ({
      new: { cpu: k * 10_000, served: k * 10_000 },
      old: { cpu: (k + 1) * 10_000, served: (k + 1) * 10_000 },
    }));
    expect(compareTotals(sized)).toMatchObject({ median: 1, lo: 1, hi: 1, verdict: 'no difference shown' });
  });
});
