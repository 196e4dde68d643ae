import { Resolver } from 'node:dns/promises';
import type { DnsRecordType, DnsResolver } from '@shortener/core';
import type { Resolve } from './public-address.js';

/** Answers that mean "no such record", not "no answer": the domain simply lacks it. */
const NO_RECORD = new Set(['ENODATA', 'ENOTFOUND', 'NXDOMAIN']);

/**
 * The DnsResolver on node:dns (c-ares): asks `servers` (`DNS_SERVERS`, `ip[:port]`), else the system's
 * resolvers, each question anew: c-ares keeps no cache, so no answer outlives its TTL here. A question
 * gives up after about 4 s (2 s, tried twice).
 */
export function createDnsResolver(servers: readonly string[]): DnsResolver {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  const ask = (name: string, type: DnsRecordType): Promise<string[]> => {
    switch (type) {
      case 'TXT':
        return resolver.resolveTxt(name).then((records) => records.map((chunks) => chunks.join('')));
      case 'CNAME':
        return resolver.resolveCname(name);
      case 'A':
        return resolver.resolve4(name);
      case 'AAAA':
        return resolver.resolve6(name);
    }
  };
  return {
    resolve: async (name, type) => {
      try {
        return await ask(name, type);
      } catch (error) {
        if (NO_RECORD.has((error as NodeJS.ErrnoException).code ?? '')) return [];
        throw error;
      }
    },
  };
}

/**
 * Every address of a name as `servers` (`DNS_SERVERS`) answer it, IPv4 first (the link-health probe's
 * look-ups where the operator named DNS servers; else the system's resolver is asked). A name with no
 * address fails as node's look-up does (`ENOTFOUND`).
 */
export function addressesFrom(servers: readonly string[]): Resolve {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  resolver.setServers([...servers]);
  const none = () => [] as string[];
  return async (name) => {
    const [v4, v6] = await Promise.all([
      resolver.resolve4(name).catch(none),
      resolver.resolve6(name).catch(none),
    ]);
    const addresses = [
      ...v4.map((address) => ({ address, family: 4 })),
      ...v6.map((address) => ({ address, family: 6 })),
    ];
    if (addresses.length === 0)
      throw Object.assign(new Error(`${name} has no address`), { code: 'ENOTFOUND' });
    return addresses;
  };
}
