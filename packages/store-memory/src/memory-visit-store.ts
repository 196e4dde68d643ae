import type { CounterIncrement, DimensionCount, KeyCount, VisitBatch, VisitStore } from '@shortener/core';
import { addCounter, latest } from './memory-state.js';
import type { MemoryCounter, MemoryState } from './memory-state.js';

/**
 * Creates a VisitStore over the state shared with the link store: batched clicks land on the links,
 * and increments for links that no longer exist are dropped. `record` is synchronous, hence atomic.
 */
export function createMemoryVisitStore(state: MemoryState): VisitStore {
  const addToCounter = (increment: CounterIncrement): void => addCounter(state, increment);

  const record = (batch: VisitBatch): void => {
    for (const { linkId, count, lastClickAt } of batch.clicks) {
      const link = state.links.get(linkId);
      if (link === undefined) continue;
      state.links.set(linkId, {
        ...link,
        clicks: link.clicks + count,
        lastClickAt: latest(link.lastClickAt, lastClickAt),
      });
    }
    batch.counters.forEach(addToCounter);
    const uniques = new Map<string, number>();
    for (const { linkId, day, hash } of batch.visitors) {
      if (!state.links.has(linkId)) continue;
      const days = getOrCreate(state.visitors, linkId, () => new Map<string, Set<string>>());
      const seen = getOrCreate(days, day, () => new Set<string>());
      if (seen.has(hash)) continue;
      seen.add(hash);
      addToCounter({ linkId, day, dimension: 'unique', key: '', count: 1 });
      uniques.set(linkId, (uniques.get(linkId) ?? 0) + 1);
    }
    state.outbox.visits(batch, uniques, (id) => state.links.get(id));
  };

  const countersIn = (linkId: string, fromDay: string, toDay: string): MemoryCounter[] =>
    [...(state.counters.get(linkId)?.values() ?? [])].filter((c) => c.day >= fromDay && c.day <= toDay);

  return {
    record: async (batch) => record(batch),
    countsByDay: async (linkId, dimension, fromDay, toDay) => {
      const sums = new Map<string, number>();
      for (const { day, count } of countersIn(linkId, fromDay, toDay).filter(
        (c) => c.dimension === dimension,
      )) {
        sums.set(day, (sums.get(day) ?? 0) + count);
      }
      return [...sums].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, count]): KeyCount => ({ key, count }));
    },
    countsByKey: async (linkId, fromDay, toDay) => {
      const sums = new Map<string, { -readonly [K in keyof DimensionCount]: DimensionCount[K] }>();
      for (const { dimension, key, count } of countersIn(linkId, fromDay, toDay)) {
        getOrCreate(sums, `${dimension} ${key}`, () => ({ dimension, key, count: 0 })).count += count;
      }
      return [...sums.values()].map((sum) => ({ ...sum }));
    },
    salt: async (day, candidate) => getOrCreate(state.salts, day, () => candidate),
    pruneSalts: async (beforeDay) => {
      for (const day of state.salts.keys()) if (day < beforeDay) state.salts.delete(day);
    },
    pruneCounters: async (beforeDay) => {
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
