import type { ServiceConfig } from '../config.js';
import type { Caller, CoreDeps } from '../deps.js';
import type { EventStore } from '../events/event-ports.js';
import { spendGuess, tooManyGuesses } from '../limits/guess-limit.js';
import type { Throttled } from '../limits/guess-limit.js';
import type { Clock, LinkStore, RateLimiter } from '../ports.js';
import { ok } from '../result.js';
import { validateTargetUrl } from '../urls/validate-url.js';
import { linkAccess } from './access.js';
import { urlPolicyOf } from './create-link.js';
import type { CheckResult, DestinationProbe, HealthConfig, HostGate, LinkHealth } from './health.js';
import {
  HostGateClosedError,
  combineChecks,
  destinationsOf,
  hostOf,
  judgeProbe,
  nextHealth,
} from './health.js';
import type { LinkRecord } from './link.js';
import { loadLinkFor } from './manage-links.js';
import { hasStarted, linkStatus } from './status.js';
import { toLinkView } from './view.js';

/** "Check now" a minute per account (decisions §23); an anonymous link's edit token has its own. */
export const CHECKS_PER_MINUTE = 10;
/** How far back a click makes a link go first in the background checks. */
export const RECENT_CLICKS_MS = 7 * 24 * 60 * 60_000;
/** Times a check's result is written again over a concurrent check's before it gives up. */
const WRITE_TRIES = 3;

/** What checking links needs: the store, the probe, the per-host gate, the settings and the events. */
export interface HealthDeps {
  readonly links: LinkStore;
  readonly probe: DestinationProbe;
  readonly gate: HostGate;
  readonly clock: Clock;
  readonly config: ServiceConfig;
  readonly health: HealthConfig;
  readonly events?: Pick<EventStore, 'addEvent'>;
  /** Called with each destination's result (metrics: checks by outcome). */
  readonly onChecked?: (result: CheckResult) => void;
}

/** Asks one destination: refused without a request where the URL rules refuse it now (`blocked`). */
async function checkDestination(deps: HealthDeps, url: string): Promise<CheckResult> {
  if (!validateTargetUrl(url, urlPolicyOf(deps.config)).ok)
    return { passed: false, status: null, reason: 'blocked' };
  const result = judgeProbe(url, await deps.gate.run(hostOf(url), () => deps.probe.probe(url)));
  deps.onChecked?.(result);
  return result;
}

/**
 * Checks every destination of `link` (one after another, each host politely), writes the health it
 * leaves and, when its state changed, sends `link.health_changed` `{ link, from, to }`. A check that
 * ran beside this one (another node, "Check now") and wrote first is counted on top of it. Answers the
 * link with its new health, or null when it was deleted meanwhile.
 */
export async function checkLinkHealth(deps: HealthDeps, link: LinkRecord): Promise<LinkRecord | null> {
  const results: CheckResult[] = [];
  for (const url of destinationsOf(link)) results.push(await checkDestination(deps, url));
  const result = combineChecks(results);
  let current: LinkRecord | null = link;
  for (let tries = 0; current !== null && tries < WRITE_TRIES; tries += 1) {
    const now = deps.clock.now();
    const previous: LinkHealth = current.health;
    const health = nextHealth(previous, result, deps.health.failures, now);
    const nextAt = now + deps.health.intervalMs;
    if (await deps.links.recordHealth(current.id, health, previous.checkedAt, nextAt)) {
      const checked: LinkRecord = { ...current, health };
      if (health.state !== previous.state) await announce(deps, checked, previous.state, now);
      return checked;
    }
    current = await deps.links.findById(link.id);
  }
  return current;
}

async function announce(deps: HealthDeps, link: LinkRecord, from: string, now: number): Promise<void> {
  await deps.events?.addEvent('link.health_changed', link.accountId, {
    link: toLinkView(link, deps.config, now),
    from,
    to: link.health.state,
  });
}

/** What "Check now" needs besides the checks: the limiter. */
export type CheckNowDeps = HealthDeps &
  Pick<CoreDeps, 'settleVisits'> & { readonly rateLimiter: RateLimiter };

/**
 * `POST /api/v1/links/{id}/check` (decisions §23): checks the caller's link now and answers it with its
 * health. At most {@link CHECKS_PER_MINUTE} a minute per account (each spends a unit first, in one atomic
 * step of the limiter); the check counts as one of the failures in a row.
 */
export async function checkLinkNow(
  deps: CheckNowDeps,
  caller: Caller,
  id: string,
): Promise<Throttled<LinkRecord>> {
  const link = await loadLinkFor(deps, id, caller, linkAccess.read);
  if (!link.ok) return link;
  const owner = link.value.accountId ?? `link:${link.value.id}`;
  const windows = [{ windowMs: 60_000, limit: CHECKS_PER_MINUTE }];
  const spent = await spendGuess(deps, [{ key: `health-check:${owner}`, windows }]);
  if (!spent.allowed) {
    return tooManyGuesses(spent, `At most ${CHECKS_PER_MINUTE} checks a minute; try again later.`);
  }
  const checked = await checkLinkHealth(deps, link.value);
  return ok(checked ?? link.value);
}

/**
 * One round of the background checks (decisions §23): claims up to `limit` links due a check (clicked
 * in the last 7 days first; the lease keeps other nodes off them) and checks them, `parallel` at a time
 * (the gate still holds each host to one request). `pace` runs after each link (the background share).
 * Closing the gate ends the round early. Answers how many were claimed.
 */
export async function checkDueLinks(
  deps: HealthDeps,
  options: {
    readonly limit: number;
    readonly parallel: number;
    readonly leaseMs: number;
    readonly pace?: () => Promise<void>;
  },
): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.links.claimHealthChecks(
    now,
    now - RECENT_CLICKS_MS,
    now + options.leaseMs,
    options.limit,
  );
  let next = 0;
  const worker = async () => {
    // a closed gate (the server stopping) ends the round: the links not checked keep their lease and
    // are checked once it ends, by this node or another
    while (next < due.length && !deps.gate.closed) {
      const link = due[next++] as LinkRecord;
      // a link that serves nobody now (disabled, expired, used up, not started) waits for its next turn
      if (linkStatus(link, now) === 'active' && hasStarted(link, now)) {
        await checkLinkHealth(deps, link).catch((error: unknown) => {
          if (!(error instanceof HostGateClosedError)) throw error;
        });
      } else {
        await deps.links.recordHealth(
          link.id,
          link.health,
          link.health.checkedAt,
          now + deps.health.intervalMs,
        );
      }
      await options.pace?.();
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.parallel) }, worker));
  return due.length;
}
