// Types of ab-stats.mjs, for the test that imports it.

export function median(values: readonly number[]): number;

export function bootstrapInterval<T = number>(
  values: readonly T[],
  options?: { resamples?: number; seed?: number; statistic?: (sample: readonly T[]) => number },
): [number, number];

export interface Comparison {
  readonly median: number;
  readonly lo: number;
  readonly hi: number;
  readonly verdict: string;
  readonly rounds: number;
}

export function compare(ratios: readonly number[], better: 'higher' | 'lower'): Comparison;

export interface RoundTotals {
  readonly new: { readonly cpu: number; readonly served: number };
  readonly old: { readonly cpu: number; readonly served: number };
}

export function compareTotals(rounds: readonly RoundTotals[], better?: 'higher' | 'lower'): Comparison;
