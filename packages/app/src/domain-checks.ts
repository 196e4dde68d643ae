import { checkDomain } from '@shortener/core';
import type { DomainDeps } from '@shortener/core';
import { createDnsResolver } from './dns-resolver.js';
import { createTicker } from './ticker.js';
import type { Services } from './container.js';

/** How often a node looks for domains whose check is due. */
const TICK_MS = 5_000;
/** How long a claimed domain is this node's to check: another node takes it after that, should this one die. */
const LEASE_MS = 5 * 60_000;
/** Domains one tick checks at most (one after another: a DNS question waits about 4 s at worst). */
const PER_TICK = 25;

/** The accounts' own domains in `serve` (decisions §20): their use cases' deps and the background checks. */
export interface DomainRuntime {
  readonly deps: DomainDeps;
  /**
   * Reads the served domains now, then every 5 s (changes made on other nodes) and checks what is due:
   * pending domains every minute, active ones every 6 hours.
   */
  start(): Promise<void>;
  /** Stops after the check under way. */
  stop(): Promise<void>;
}

/**
 * Each node claims the due domains it checks (the store moves their next check on in the same write), so
 * with many nodes one node checks a domain at a time.
 */
export function createDomainRuntime(
  core: Services['coreDeps'],
  stores: Services['stores'],
  clock: Services['clock'],
  random: Services['random'],
  cfg: Services['config'],
  logger: Services['logger'],
): DomainRuntime {
  const { dnsServers, ...domainConfig } = cfg.domains;
  const deps: DomainDeps = {
    domains: stores.domains,
    links: stores.links,
    events: stores.events,
    resolver: createDnsResolver(dnsServers),
    clock,
    random,
    config: cfg.service,
    domainConfig,
    ...(core.hosts === undefined ? {} : { hosts: core.hosts }),
  };
  const tick = async () => {
    // what other nodes changed (added, verified, suspended, removed) is served here from this tick on
    await core.hosts?.refresh();
    const now = clock.now();
    const due = await stores.domains.claimDueDomains(now, now + LEASE_MS, PER_TICK);
    for (const domain of due) {
      const { outcome } = await checkDomain(deps, domain);
      if (outcome.event !== null) {
        logger.info(outcome.event === 'domain.verified' ? 'domain verified' : 'domain suspended', {
          domain: domain.host,
        });
      }
    }
  };
  const ticker = createTicker(tick, TICK_MS, (error) =>
    logger.warn('checking domains failed', { error: String(error) }),
  );
  return {
    deps,
    start: async () => {
      // a store away at start: served from the first tick that reads it
      await core.hosts
        ?.refresh()
        .catch((error: unknown) => logger.warn('reading domains failed', { error: String(error) }));
      ticker.start();
    },
    stop: () => ticker.stop(),
  };
}
