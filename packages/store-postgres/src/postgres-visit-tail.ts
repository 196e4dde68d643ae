import { addTailByKey, decodeLogCounters, limitTailKeys, mergeIncrements, tailWithin } from '@shortener/core';
import type { DimensionCount, VisitDimension } from '@shortener/core';

/** A row of the by-key read (postgres-visit-store.ts): stored sums, log rows, held keys. */
export interface KeyRow {
  readonly part: 's' | 't' | 'h';
  readonly dimension: VisitDimension | '';
  readonly key: string;
  readonly count: number;
  readonly day: string;
}

/**
 * The sums per dimension and key of one read: the stored counters plus the unfolded tail, its keyed
 * counters under the per-day key limit as the compactor will fold them (the keys held on their days
 * come with the read), its new visitors as `unique`.
 */
export function withTail(
  linkId: string,
  fromDay: string,
  toDay: string,
  rows: readonly KeyRow[],
): DimensionCount[] {
  const stored: DimensionCount[] = [];
  const entries: { seq: number; text: string }[] = [];
  const held = new Map<string, string[]>();
  for (const row of rows) {
    if (row.part === 's')
      stored.push({ dimension: row.dimension as VisitDimension, key: row.key, count: row.count });
    else if (row.part === 't') entries.push({ seq: Number(row.count), text: row.key });
    else {
      const id = `${row.day}\u0000${row.dimension}`;
      held.set(id, [...(held.get(id) ?? []), row.key]);
    }
  }
  if (entries.length === 0) return stored;
  entries.sort((a, b) => a.seq - b.seq);
  const logged = mergeIncrements(entries.flatMap((e) => decodeLogCounters(linkId, e.text)));
  const limited = limitTailKeys(logged, (day, dimension) => held.get(`${day}\u0000${dimension}`) ?? []);
  return addTailByKey(stored, tailWithin(limited, fromDay, toDay));
}
