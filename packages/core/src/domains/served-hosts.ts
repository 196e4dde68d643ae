import type { Domain, DomainStore } from './domain.js';

/**
 * The accounts' own domains by host, as every node serves them (decisions §20): one map look-up for a
 * request's host on the redirect path. Holds every domain not removed (a suspended one must answer 404,
 * not fall back to a short domain); refreshed by {@link ServedHosts.refresh} when a domain changes here
 * and every few seconds for changes made on other nodes.
 */
export interface ServedHosts {
  /** The own domain of `host` (lower-case, without port), in any state but removed; else undefined. */
  get(host: string): Domain | undefined;
  /** How many own domains there are: none is the common case, costing the redirect nothing. */
  readonly size: number;
  /** Reads the domains again from the store. */
  refresh(): Promise<void>;
}

/** The host of a `Host` header: lower-case, without its port (an IPv6 literal keeps its brackets). */
export function hostWithoutPort(header: string | undefined): string {
  if (header === undefined) return '';
  const lower = header.toLowerCase();
  const colon = lower.lastIndexOf(':');
  return colon > lower.lastIndexOf(']') && colon !== -1 ? lower.slice(0, colon) : lower;
}

/**
 * Own domains held in memory, read from `store` at each refresh. A refresh asked while a read is under
 * way waits for it and reads once more (that read may have begun before the change it is asked for);
 * the refreshes asked meanwhile share that second read.
 */
export function createServedHosts(store: Pick<DomainStore, 'servedDomains'>): ServedHosts {
  let byHost = new Map<string, Domain>();
  let reading: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const read = (): Promise<void> => {
    reading = store
      .servedDomains()
      .then((domains) => {
        byHost = new Map(domains.map((domain) => [domain.host, domain]));
      })
      .finally(() => {
        reading = null;
      });
    return reading;
  };
  const refresh = (): Promise<void> => {
    if (reading === null) return read();
    next ??= reading
      .catch(() => undefined)
      .then(() => {
        next = null;
        return read();
      });
    return next;
  };
  return {
    get: (host) => byHost.get(host),
    get size() {
      return byHost.size;
    },
    refresh,
  };
}
