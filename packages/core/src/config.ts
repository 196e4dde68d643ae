/** A short domain: the origin links are served from and its host (the Link's `domain`). */
export interface ShortDomain {
  /** e.g. `https://s.example` or `http://localhost:3000` (no trailing slash). */
  readonly origin: string;
  /** e.g. `s.example` or `localhost:3000` (lower-case, port only when not default). */
  readonly host: string;
}

/** Creation limits (decisions §1 and interface §8). */
export interface LimitsConfig {
  readonly anonPerHour: number;
  readonly anonPerDay: number;
  readonly keyPerHour: number;
  readonly bulkAnonymous: number;
  readonly bulkWithKey: number;
  readonly claimMax: number;
  /** Accounts an address (an IPv6 one by its prefix) may make per hour with `SIGNUP=open` (decisions §14). */
  readonly signupPerHour: number;
  /** Per-IP limits count an IPv6 address by this many leading bits (decisions §9). */
  readonly ipv6PrefixBits: number;
}

/**
 * How people get an account in the browser (`SIGNUP`, decisions §10): only through an operator's invite,
 * by signing up themselves, or not at all (`closed`: invites only reset existing accounts).
 */
export type SignupMode = 'invite' | 'open' | 'closed';

/** The service settings the use cases need. */
export interface ServiceConfig {
  /** The first one is the default domain. */
  readonly shortDomains: readonly ShortDomain[];
  /** {base_url}: where the API lives, without trailing slash. */
  readonly baseUrl: string;
  readonly extraReservedSlugs: readonly string[];
  readonly blocklist: readonly string[];
  readonly allowPrivateHosts: boolean;
  readonly limits: LimitsConfig;
  /** `invite` when absent. */
  readonly signup?: SignupMode;
  /** `WEBHOOK_ALLOW_PRIVATE`: webhooks may deliver to private addresses (decisions §16). */
  readonly webhookAllowPrivate?: boolean;
  /** `REDIRECT_STATUS`: the status of redirects whose link sets none (302 when absent; decisions §15). */
  readonly redirectStatus?: 301 | 302 | 307 | 308;
}

/** The limits of the interface spec. */
export const DEFAULT_LIMITS: LimitsConfig = {
  anonPerHour: 60,
  anonPerDay: 300,
  keyPerHour: 1000,
  bulkAnonymous: 20,
  bulkWithKey: 200,
  claimMax: 1000,
  signupPerHour: 3,
  ipv6PrefixBits: 64,
};

/**
 * Parses a short-domain origin: a bare host means `https://host`. Returns null when it is not an
 * http(s) origin without path, query or credentials.
 */
export function parseShortDomain(raw: string): ShortDomain | null {
  const text = raw.trim();
  if (text === '') return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '';
  if (!bare || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.password !== '') return null;
  return { origin: url.origin, host: url.host };
}

/** The short domain whose host equals `host` (case-insensitive), else the default (decisions §1). */
export function shortDomainForHost(config: ServiceConfig, host: string | undefined): ShortDomain {
  const wanted = host?.toLowerCase();
  const found = config.shortDomains.find((d) => d.host === wanted);
  return found ?? (config.shortDomains[0] as ShortDomain);
}

/** The short domain with exactly this host, or undefined. */
export function findShortDomain(config: ServiceConfig, host: string): ShortDomain | undefined {
  const wanted = host.trim().toLowerCase();
  return config.shortDomains.find((d) => d.host === wanted);
}
