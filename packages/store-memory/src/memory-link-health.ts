import { HEALTH_STATES, linkStatus } from '@shortener/core';
import type { HealthState, LinkRecord, LinkStore } from '@shortener/core';
import type { MemoryState } from './memory-state.js';

/** The health checks' part of the link store (decisions §23): due times beside the links, in memory. */
export function memoryLinkHealth(
  state: MemoryState,
): Pick<LinkStore, 'claimHealthChecks' | 'recordHealth' | 'healthCounts'> {
  // when each link's next check is due; a link not here is due at once (a new one)
  const nextAt = new Map<string, number>();
  const dueAt = (link: LinkRecord) => nextAt.get(link.id) ?? 0;
  return {
    claimHealthChecks: async (now, recentSince, leaseUntil, limit) => {
      const recent = (link: LinkRecord) =>
        link.lastClickAt !== null && link.lastClickAt >= recentSince ? 0 : 1;
      const due = [...state.links.values()]
        .filter((link) => dueAt(link) <= now && linkStatus(link, now) === 'active')
        .sort((a, b) => recent(a) - recent(b) || dueAt(a) - dueAt(b) || (a.id < b.id ? -1 : 1))
        .slice(0, limit);
      for (const link of due) nextAt.set(link.id, leaseUntil);
      return due.map((link) => ({ ...link }));
    },
    recordHealth: async (id, health, checkedAt, next) => {
      const link = state.links.get(id);
      if (link === undefined) {
        nextAt.delete(id);
        return false;
      }
      if (link.health.checkedAt !== checkedAt) return false;
      state.links.set(id, { ...link, health: { ...health } });
      nextAt.set(id, next);
      return true;
    },
    healthCounts: async () => {
      const counts = Object.fromEntries(HEALTH_STATES.map((s) => [s, 0])) as Record<HealthState, number>;
      for (const link of state.links.values()) counts[link.health.state] += 1;
      return counts;
    },
  };
}
