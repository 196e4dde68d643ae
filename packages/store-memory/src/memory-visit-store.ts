import {
  addTailByDay,
  addTailByDayOf,
  addTailByKey,
  addTailByKeyed,
  addTailByLink,
  limitTailKeys,
  mergeIncrements,
  OTHER_KEY,
  tailWithin,
} from '@shortener/core';
import type {
  CounterIncrement,
  DimensionCount,
  KeyCount,
  VisitBatch,
  VisitDimension,
  VisitStore,
} from '@shortener/core';
import { addCounter, latest } from './memory-state.js';
import type { MemoryCounter, MemoryState } from './memory-state.js';

/**
 * Creates a VisitStore over the state shared with the link store: batched clicks land on the links,
 * counters on the visit log until `compact`, and increments for links that no
 * longer exist are dropped. Every method is synchronous, hence atomic.
 */
export function createMemoryVisitStore(state: MemoryState): VisitStore {
  return {
    record: async (batch) => record(state, batch),
    compact: async (maxEntries) => compact(state, maxEntries),
    logSize: async () => state.visitLog.length,
    ...countReaders(state),
    ...acrossReaders(state),
    salt: async (day, candidate) => getOrCreate(state.salts, day, () => candidate),
    ...pruners(state),
  };
}

// the clicks, the link.visited events and the log entries: the counters wait for compact()
function record(state: MemoryState, batch: VisitBatch): void {
  for (const { linkId, count, lastClickAt } of batch.clicks) {
    const link = state.links.get(linkId);
    if (link === undefined) continue;
    state.links.set(linkId, {
      ...link,
      clicks: link.clicks + count,
      lastClickAt: latest(link.lastClickAt, lastClickAt),
    });
  }
  const byLink = new Map<string, CounterIncrement[]>();
  const entryOf = (linkId: string) => getOrCreate(byLink, linkId, (): CounterIncrement[] => []);
  for (const c of batch.counters) if (state.links.has(c.linkId)) entryOf(c.linkId).push(c);
  // the visitor set is written now: a hash new to it is counted by its entry as `unique`
  const uniques = new Map<string, number>();
  for (const { linkId, day, hash } of batch.visitors) {
    if (!state.links.has(linkId)) continue;
    const seen = hashesOf(state.visitors, linkId, day);
    if (seen.has(hash)) continue;
    seen.add(hash);
    uniques.set(linkId, (uniques.get(linkId) ?? 0) + 1);
    entryOf(linkId).push({ linkId, day, dimension: 'unique', key: '', count: 1 });
  }
  for (const [linkId, counters] of byLink) state.visitLog.push({ linkId, counters });
  state.outbox.visits(batch, uniques, (id) => state.links.get(id));
}

function hashesOf(visitors: Map<string, Map<string, Set<string>>>, linkId: string, day: string): Set<string> {
  return getOrCreate(
    getOrCreate(visitors, linkId, () => new Map<string, Set<string>>()),
    day,
    () => new Set(),
  );
}

function compact(state: MemoryState, maxEntries: number): number {
  const entries = state.visitLog.splice(0, maxEntries);
  mergeIncrements(entries.flatMap((e) => e.counters)).forEach((increment) => addCounter(state, increment));
  return entries.length;
}

function countReaders(state: MemoryState): Pick<VisitStore, 'countsByDay' | 'countsByKey'> {
  return {
    countsByDay: async (linkId, dimension, fromDay, toDay) => {
      const sums = new Map<string, number>();
      for (const { day, count } of countersIn(state, linkId, fromDay, toDay).filter(
        (c) => c.dimension === dimension,
      )) {
        sums.set(day, (sums.get(day) ?? 0) + count);
      }
      const stored = [...sums].map(([key, count]): KeyCount => ({ key, count }));
      return addTailByDay(stored, tailOf(state, linkId, fromDay, toDay), dimension);
    },
    countsByKey: async (linkId, fromDay, toDay) => {
      const sums = new Map<string, { -readonly [K in keyof DimensionCount]: DimensionCount[K] }>();
      for (const { dimension, key, count } of countersIn(state, linkId, fromDay, toDay)) {
        getOrCreate(sums, `${dimension} ${key}`, () => ({ dimension, key, count: 0 })).count += count;
      }
      return addTailByKey([...sums.values()], tailOf(state, linkId, fromDay, toDay));
    },
  };
}

function acrossReaders(
  state: MemoryState,
): Pick<VisitStore, 'countsByDayOf' | 'countsByKeyOf' | 'totalsByLink'> {
  const stored = (linkIds: readonly string[], fromDay: string, toDay: string) =>
    linkIds.flatMap((linkId) => countersIn(state, linkId, fromDay, toDay).map((c) => ({ ...c, linkId })));
  const tails = (linkIds: readonly string[], fromDay: string, toDay: string) =>
    linkIds.flatMap((linkId) => tailOf(state, linkId, fromDay, toDay));
  return {
    countsByDayOf: async (linkIds, dimensions, fromDay, toDay) =>
      addTailByDayOf([], [...stored(linkIds, fromDay, toDay), ...tails(linkIds, fromDay, toDay)], dimensions),
    countsByKeyOf: async (linkIds, fromDay, toDay) =>
      addTailByKeyed([], [...stored(linkIds, fromDay, toDay), ...tails(linkIds, fromDay, toDay)]),
    totalsByLink: async (linkIds, fromHour, toHour) => {
      const [fromDay, toDay] = [fromHour.slice(0, 10), toHour.slice(0, 10)];
      return addTailByLink(
        [],
        [...stored(linkIds, fromDay, toDay), ...tails(linkIds, fromDay, toDay)],
        fromHour,
        toHour,
      );
    },
  };
}

function countersIn(state: MemoryState, linkId: string, fromDay: string, toDay: string): MemoryCounter[] {
  return [...(state.counters.get(linkId)?.values() ?? [])].filter((c) => c.day >= fromDay && c.day <= toDay);
}

// the unfolded counters of a link, as compact() will fold them
function tailOf(state: MemoryState, linkId: string, fromDay: string, toDay: string): CounterIncrement[] {
  if (!state.links.has(linkId)) return [];
  const tail = state.visitLog.filter((e) => e.linkId === linkId).flatMap((e) => e.counters);
  const held = (day: string, dimension: VisitDimension) =>
    countersIn(state, linkId, day, day)
      .filter((c) => c.dimension === dimension && c.key !== OTHER_KEY)
      .map((c) => c.key);
  return tailWithin(limitTailKeys(tail, held), fromDay, toDay);
}

function pruners(state: MemoryState): Pick<VisitStore, 'pruneSalts' | 'pruneCounters' | 'pruneVisitors'> {
  return {
    pruneSalts: async (beforeDay) => {
      for (const day of state.salts.keys()) if (day < beforeDay) state.salts.delete(day);
    },
    pruneCounters: async (beforeDay) => {
      compact(state, Infinity); // the counts of the days it forgets are kept, or dropped, whole
      for (const counters of state.counters.values()) {
        for (const [id, counter] of counters) if (counter.day < beforeDay) counters.delete(id);
      }
      for (const held of state.heldKeys.keys())
        if (held.split(' ')[1]! < beforeDay) state.heldKeys.delete(held);
    },
    pruneVisitors: async (beforeDay) => {
      for (const days of state.visitors.values()) {
        for (const day of days.keys()) if (day < beforeDay) days.delete(day);
      }
    },
  };
}

function getOrCreate<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  const existing = map.get(key);
  if (existing !== undefined) return existing;
  const created = create();
  map.set(key, created);
  return created;
}
