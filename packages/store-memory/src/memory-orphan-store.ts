import { MAX_ORPHAN_KEYS_PER_DAY } from '@shortener/core';
import type { OrphanCount, OrphanStore } from '@shortener/core';

/** The OrphanStore in memory: counts by `day dimension key`, new keys past the day's limit on `other`. */
export function createMemoryOrphanStore(): OrphanStore {
  const counts = new Map<string, OrphanCount>();
  const held = new Map<string, number>();
  return {
    add: async (batch) => {
      for (const c of batch) {
        let key = c.key;
        const heldKey = `${c.day} ${c.dimension}`;
        if (!counts.has(`${heldKey} ${key}`) && c.dimension !== 'type') {
          if ((held.get(heldKey) ?? 0) >= MAX_ORPHAN_KEYS_PER_DAY) key = 'other';
          else held.set(heldKey, (held.get(heldKey) ?? 0) + 1);
        }
        const id = `${heldKey} ${key}`;
        counts.set(id, { ...c, key, count: (counts.get(id)?.count ?? 0) + c.count });
      }
    },
    read: async (fromDay, toDay) => [...counts.values()].filter((c) => c.day >= fromDay && c.day <= toDay),
  };
}
