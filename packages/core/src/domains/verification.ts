import type { Domain, DomainCheck } from './domain.js';
import { isApexHost } from './domain.js';

/** The DNS record types a custom domain publishes (decisions §20). */
export type DnsRecordType = 'TXT' | 'CNAME' | 'A' | 'AAAA';

/** A record to publish at one's DNS host: `{ type, name, value }`. */
export interface DnsRecord {
  readonly type: DnsRecordType;
  readonly name: string;
  readonly value: string;
}

/**
 * Asks DNS (`DNS_SERVERS`, else the system's resolvers) without a cache of its own. Resolves the
 * record's values (a TXT record's strings joined; names without the final dot), an empty list when the
 * name has none of that type or does not exist; rejects when no answer came (timeout, SERVFAIL).
 */
export interface DnsResolver {
  resolve(name: string, type: DnsRecordType): Promise<string[]>;
}

/** Where custom domains must point (`CUSTOM_DOMAIN_CNAME`, `CUSTOM_DOMAIN_IPS`). */
export interface DomainRouting {
  readonly cname: string | null;
  readonly ips: readonly string[];
}

export const CHALLENGE_PREFIX = '_shortener-challenge.';
export const challengeValue = (token: string): string => `shortener-verify=${token}`;

/** How often the background checks look at a domain, by its state (decisions §20). */
export const CHECK_EVERY = {
  pending: 60_000,
  active: 6 * 3_600_000,
  /** not in §20: a suspended domain serves nothing, so it is looked at hourly, not every 6 hours */
  suspended: 3_600_000,
} as const;
/** A pending domain that never passes is given up after this long. */
export const PENDING_FOR = 72 * 3_600_000;
/** Failed checks in a row that suspend an active domain. */
export const FAILURES_TO_SUSPEND = 3;

/** Why the records cannot be given: the server lacks the setting the host needs. */
export function routingProblem(host: string, routing: DomainRouting): string | null {
  if (routing.cname === null && routing.ips.length === 0) {
    return 'Custom domains need CUSTOM_DOMAIN_CNAME or CUSTOM_DOMAIN_IPS set on the server.';
  }
  if (isApexHost(host) && routing.ips.length === 0) {
    return `${host} is an apex domain, which cannot have a CNAME: it needs CUSTOM_DOMAIN_IPS set on the server.`;
  }
  return null;
}

/**
 * What to publish for `host`: the TXT challenge, and the route: a CNAME to `CUSTOM_DOMAIN_CNAME` for a
 * name under a registrable domain, else (an apex, or no CNAME target set) A/AAAA to `CUSTOM_DOMAIN_IPS`.
 */
export function recordsFor(host: string, token: string, routing: DomainRouting): DnsRecord[] {
  const challenge: DnsRecord = {
    type: 'TXT',
    name: `${CHALLENGE_PREFIX}${host}`,
    value: challengeValue(token),
  };
  if (routing.cname !== null && !isApexHost(host)) {
    return [challenge, { type: 'CNAME', name: host, value: routing.cname }];
  }
  const addresses = routing.ips.map((ip): DnsRecord => ({
    type: ip.includes(':') ? 'AAAA' : 'A',
    name: host,
    value: ip,
  }));
  return [challenge, ...addresses];
}

const bare = (name: string) => name.toLowerCase().replace(/\.$/, '');
const listed = (values: readonly string[]) => values.join(', ');

/** Asks one question; a failure becomes a problem in words instead of an answer. */
async function ask(
  resolver: DnsResolver,
  name: string,
  type: DnsRecordType,
): Promise<{ values: string[] } | { problem: string }> {
  try {
    return { values: await resolver.resolve(name, type) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { problem: `DNS gave no answer for ${type} ${name} (${reason}); trying again later.` };
  }
}

async function challengeProblems(resolver: DnsResolver, host: string, token: string): Promise<string[]> {
  const name = `${CHALLENGE_PREFIX}${host}`;
  const expected = challengeValue(token);
  const found = await ask(resolver, name, 'TXT');
  if ('problem' in found) return [found.problem];
  if (found.values.includes(expected)) return [];
  if (found.values.length === 0) return [`TXT ${name} not found, expected "${expected}".`];
  return [`TXT ${name} is ${found.values.map((v) => `"${v}"`).join(', ')}, expected "${expected}".`];
}

/**
 * Whether `host` points here: its CNAME names `CUSTOM_DOMAIN_CNAME`, or it has addresses and every one
 * of them is among `CUSTOM_DOMAIN_IPS` (through a CNAME or not).
 */
async function routeProblems(resolver: DnsResolver, host: string, routing: DomainRouting): Promise<string[]> {
  const target = routing.cname === null ? null : bare(routing.cname);
  const cname = target === null || isApexHost(host) ? { values: [] } : await ask(resolver, host, 'CNAME');
  if ('problem' in cname) return [cname.problem];
  const named = cname.values.map(bare);
  if (target !== null && named.includes(target)) return [];
  const [a, aaaa] = await Promise.all([ask(resolver, host, 'A'), ask(resolver, host, 'AAAA')]);
  if ('problem' in a) return [a.problem];
  if ('problem' in aaaa) return [aaaa.problem];
  const addresses = [...a.values, ...aaaa.values];
  const allowed = new Set(routing.ips.map((ip) => ip.toLowerCase()));
  if (allowed.size > 0 && addresses.length > 0 && addresses.every((ip) => allowed.has(ip.toLowerCase())))
    return [];
  const expected =
    target !== null && !isApexHost(host) ? `CNAME to ${target}` : `A/AAAA ${listed(routing.ips)}`;
  if (named.length > 0) return [`CNAME ${host} → ${listed(named)}, expected ${expected}.`];
  if (addresses.length > 0) {
    const stray = addresses.filter((ip) => !allowed.has(ip.toLowerCase()));
    return [`${host} points to ${listed(stray.length > 0 ? stray : addresses)}, expected ${expected}.`];
  }
  return [`No CNAME or A/AAAA record for ${host}, expected ${expected}.`];
}

/** Every record of `domain` that is missing or wrong, in words (empty: it verifies). */
export async function domainProblems(
  resolver: DnsResolver,
  domain: Pick<Domain, 'host' | 'token'>,
  routing: DomainRouting,
): Promise<string[]> {
  const [challenge, route] = await Promise.all([
    challengeProblems(resolver, domain.host, domain.token),
    routeProblems(resolver, domain.host, routing),
  ]);
  return [...challenge, ...route];
}

/** What a check changes: the fields to write, and the event it is worth, if any. */
export interface CheckOutcome {
  readonly check: DomainCheck;
  readonly event: 'domain.verified' | 'domain.suspended' | null;
}

/**
 * The state a check leaves `domain` in (decisions §20): passing makes it active (checked again in 6 h);
 * failing keeps a pending domain pending for 72 h, then failed; suspends an active one after 3 failures
 * in a row; leaves a suspended or failed one as it is.
 */
export function decideCheck(domain: Domain, problems: readonly string[], now: number): CheckOutcome {
  if (problems.length === 0) {
    const check = {
      state: 'active' as const,
      problems: [],
      checkedAt: now,
      verifiedAt: domain.verifiedAt ?? now,
      failures: 0,
      nextCheckAt: now + CHECK_EVERY.active,
    };
    return { check, event: domain.state === 'active' ? null : 'domain.verified' };
  }
  const failures = domain.failures + 1;
  const base = { problems: [...problems], checkedAt: now, verifiedAt: domain.verifiedAt, failures };
  switch (domain.state) {
    case 'active': {
      const suspend = failures >= FAILURES_TO_SUSPEND;
      const state = suspend ? ('suspended' as const) : ('active' as const);
      const next = now + (suspend ? CHECK_EVERY.suspended : CHECK_EVERY.active);
      return { check: { ...base, state, nextCheckAt: next }, event: suspend ? 'domain.suspended' : null };
    }
    case 'suspended':
      return {
        check: { ...base, state: 'suspended', nextCheckAt: now + CHECK_EVERY.suspended },
        event: null,
      };
    case 'pending': {
      const expired = now - domain.createdAt >= PENDING_FOR;
      const state = expired ? ('failed' as const) : ('pending' as const);
      return {
        check: { ...base, state, nextCheckAt: expired ? Number.MAX_SAFE_INTEGER : now + CHECK_EVERY.pending },
        event: null,
      };
    }
    default:
      return { check: { ...base, state: domain.state, nextCheckAt: domain.nextCheckAt }, event: null };
  }
}
