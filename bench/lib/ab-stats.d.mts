// Types of ab-stats.mjs, for the test that imports it.

export function median(values: readonly number[]): number;

export function bootstrapInterval(
  values: readonly number[],
  options?: { resamples?: number; seed?: number },
): [number, number];

export interface Comparison {
  readonly median: number;
  readonly lo: number;
  readonly hi: number;
  readonly verdict: string;
  readonly rounds: number;
}

export function compare(ratios: readonly number[], better: 'higher' | 'lower'): Comparison;
