import type { Domain, DomainStore } from '@shortener/core';
import type { MemoryState } from './memory-state.js';

/** The DomainStore in a Map; each method runs to its end before another starts, so checks are atomic. */
export function createMemoryDomainStore(state: Pick<MemoryState, 'links'>): DomainStore {
  const domains = new Map<string, Domain>();
  const live = () => [...domains.values()].filter((d) => d.state !== 'removed');
  const change = (id: string, patch: Partial<Domain>): boolean => {
    const domain = domains.get(id);
    if (domain === undefined || domain.state === 'removed') return false;
    domains.set(id, { ...domain, ...patch });
    return true;
  };
  return {
    addDomain: async (domain, max) => {
      if (live().some((d) => d.host === domain.host)) return 'taken';
      if (live().filter((d) => d.accountId === domain.accountId).length >= max) return 'too_many';
      domains.set(domain.id, domain);
      return 'added';
    },
    findDomain: async (id) => domains.get(id) ?? null,
    findDomainByHost: async (host) => live().find((d) => d.host === host) ?? null,
    listDomains: async (accountId) =>
      live()
        .filter((d) => d.accountId === accountId)
        .sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id)),
    servedDomains: async () => live(),
    recordCheck: async (id, check) => change(id, check),
    updateSettings: async (id, settings) => change(id, { settings }),
    linkIdsOn: async (host, limit) =>
      [...state.links.values()]
        .filter((link) => link.domain === host)
        .slice(0, limit)
        .map((link) => link.id),
    removeDomain: async (id) => change(id, { state: 'removed' }),
    claimDueDomains: async (now, leaseUntil, limit) => {
      const due = live()
        .filter((d) => d.state !== 'failed' && d.nextCheckAt <= now)
        .sort((a, b) => a.nextCheckAt - b.nextCheckAt)
        .slice(0, limit);
      for (const domain of due) domains.set(domain.id, { ...domain, nextCheckAt: leaseUntil });
      return due;
    },
  };
}
