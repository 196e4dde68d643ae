import { HostGate, SERVICE_INFO, checkDueLinks, urlPolicyOf, validateTargetUrl } from '@shortener/core';
import type { CheckNowDeps, CheckResult, HealthDeps, HealthState, HostTurns } from '@shortener/core';
import type { Services } from './container.js';
import { addressesFrom } from './dns-resolver.js';
import { createHealthProbe } from './health-probe.js';
import { serverWaitingPacer } from './server-pacer.js';
import { createTicker } from './ticker.js';

/** How often a node looks for links whose check is due. */
const TICK_MS = 5_000;
/** Links one round claims at most; a full round is followed by the next at once. */
const PER_ROUND = 20;
/** Links checked side by side (the gate still holds each host to one request at a time). */
const PARALLEL = 4;
/**
 * How long claimed links are this node's: another node takes them after that, should this one die. A
 * round of 20 links on one host at the longest gap allowed takes far less.
 */
const LEASE_MS = 15 * 60_000;
/** The broken-link counts are read from the store at most this often (a scrape is no reason to scan). */
const COUNTS_MS = 60_000;

/** The outcomes the metrics count checks by: `ok` (2xx), `redirected`, or the failure's reason. */
export type CheckOutcome =
  'ok' | 'redirected' | NonNullable<Extract<CheckResult, { passed: false }>['reason']>;

/** The link health of `serve` (decisions §23): "Check now"'s deps and the background checks. */
export interface HealthRuntime {
  readonly deps: CheckNowDeps;
  /** Checks of destinations since start, by outcome (metrics). */
  readonly checks: Record<CheckOutcome, number>;
  /** How many links are in each state (read at most once a minute). */
  counts(): Promise<Record<HealthState, number>>;
  /** Starts the background checks (nothing with `HEALTH_CHECKS=off`). */
  start(): void;
  /**
   * Stops: the round under way ends after the checks already asking their destination (a link waiting
   * for its turn at a host is left to its lease), and no round starts again.
   */
  stop(): Promise<void>;
}

/**
 * The checks of links on `stores` with the probe settings of `serve` (`ALLOW_PRIVATE_HOSTS`, the URL
 * rules, `DNS_SERVERS`, `HEALTH_HOST_GAP_MS`, `HEALTH_FAILURES`): no limiter and no background rounds;
 * with `hostTurns` (Redis) the gap at a host holds for every node.
 * `serve`'s runtime is built on it, and `shortener links check` on the database uses it alone.
 */
export function createHealthChecks(
  stores: Services['stores'],
  clock: Services['clock'],
  cfg: Services['config'],
  onChecked?: (result: CheckResult) => void,
  hostTurns: HostTurns | null = null,
): HealthDeps {
  const policy = urlPolicyOf(cfg.service);
  const probe = createHealthProbe({
    userAgent: `shortener-health/${SERVICE_INFO.version} (+${cfg.service.baseUrl})`,
    allowPrivate: cfg.service.allowPrivateHosts,
    urlAllowed: (url) => validateTargetUrl(url, policy).ok,
    // the operator's DNS servers where named (as the domain checks ask them), else the system's
    ...(cfg.domains.dnsServers.length === 0 ? {} : { resolve: addressesFrom(cfg.domains.dnsServers) }),
  });
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
  return {
    links: stores.links,
    probe,
    gate: new HostGate(cfg.health.hostGapMs, () => clock.now(), sleep, hostTurns),
    clock,
    config: cfg.service,
    health: cfg.health,
    events: stores.events,
    ...(onChecked === undefined ? {} : { onChecked }),
  };
}

/**
 * Each node claims the due links it checks (the store moves their next check on in the same write), so
 * with many nodes one node checks a link at a time. The rounds keep to the background share of the
 * process (the pacer), so the redirect path never waits for them.
 */
export function createHealthRuntime(
  core: Services['coreDeps'],
  stores: Services['stores'],
  clock: Services['clock'],
  cfg: Services['config'],
  logger: Services['logger'],
  rateLimits: Services['rateLimiter'],
): HealthRuntime {
  const checks: Record<CheckOutcome, number> = {
    ok: 0,
    redirected: 0,
    http_4xx: 0,
    http_5xx: 0,
    dns: 0,
    tls: 0,
    timeout: 0,
    refused: 0,
    blocked: 0,
  };
  const deps: CheckNowDeps = {
    ...createHealthChecks(
      stores,
      clock,
      cfg,
      (result) => {
        checks[result.passed ? (result.finalUrl === null ? 'ok' : 'redirected') : result.reason] += 1;
      },
      rateLimits.hostTurns,
    ),
    rateLimiter: rateLimits,
    ...(core.settleVisits === undefined ? {} : { settleVisits: core.settleVisits }),
  };
  const pace = serverWaitingPacer();
  const round = async () => {
    // a full round: more are due, so the next goes at once (until stopped)
    while (ticker.active) {
      const options = { limit: PER_ROUND, parallel: PARALLEL, leaseMs: LEASE_MS, pace };
      if ((await checkDueLinks(deps, options)) < PER_ROUND) return;
    }
  };
  const ticker = createTicker(round, TICK_MS, (error) =>
    logger.warn('checking links failed', { error: String(error) }),
  );
  let counted: { at: number; counts: Promise<Record<HealthState, number>> } | null = null;
  return {
    deps,
    checks,
    counts: () => {
      const now = clock.now();
      if (counted === null || now - counted.at >= COUNTS_MS) {
        const counts = stores.links.healthCounts();
        counted = { at: now, counts };
        counts.catch(() => (counted = null));
      }
      return counted.counts;
    },
    start: () => {
      if (cfg.health.enabled) ticker.start();
    },
    stop: () => {
      // without this a round at one host waited a gap (2 s) per link left, on timers that keep no
      // process alive: the shutdown ended there, with exit code 13 and the stores never closed
      deps.gate.close();
      return ticker.stop();
    },
  };
}
