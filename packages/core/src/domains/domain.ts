import { getDomain } from 'tldts';

/** A custom domain's life (decisions §20): checked, serving, failing its checks, given up, taken away. */
export const DOMAIN_STATES = ['pending', 'active', 'suspended', 'failed', 'removed'] as const;
export type DomainState = (typeof DOMAIN_STATES)[number];

/** What a custom domain serves besides its links (decisions §20, Settings); null: nothing set. */
export interface DomainSettings {
  /** Where `/` on the domain goes (302). */
  readonly baseRedirect: string | null;
  /** Where an unknown slug goes (302), in place of the plain 404 page. */
  readonly notFoundRedirect: string | null;
  /** `/.well-known/apple-app-site-association` on the domain, a JSON value. */
  readonly appleAppSiteAssociation: unknown;
  /** `/.well-known/assetlinks.json` on the domain, a JSON value. */
  readonly androidAssetLinks: unknown;
}

export const NO_DOMAIN_SETTINGS: DomainSettings = {
  baseRedirect: null,
  notFoundRedirect: null,
  appleAppSiteAssociation: null,
  androidAssetLinks: null,
};

/** An account's own domain, as the store keeps it. Times are epoch milliseconds. */
export interface Domain {
  readonly id: string;
  readonly accountId: string;
  /** Lower-case, an IDN as punycode. */
  readonly host: string;
  readonly state: DomainState;
  /** The challenge published as `shortener-verify=<token>` (public by nature: it stands in DNS). */
  readonly token: string;
  /** What the last check found wrong, in words; empty when it passed or never ran. */
  readonly problems: readonly string[];
  readonly settings: DomainSettings;
  readonly createdAt: number;
  readonly checkedAt: number | null;
  /** When a check first passed (kept while suspended). */
  readonly verifiedAt: number | null;
  /** Checks failed in a row since the domain was last active (3 suspend an active domain). */
  readonly failures: number;
  /** When the background check is next due (a claim moves it on, so one node checks at a time). */
  readonly nextCheckAt: number;
}

/** What one check found and decided: written over the domain's check fields at once. */
export interface DomainCheck {
  readonly state: DomainState;
  readonly problems: readonly string[];
  readonly checkedAt: number;
  readonly verifiedAt: number | null;
  readonly failures: number;
  readonly nextCheckAt: number;
}

/** Why a domain could not be added. */
export type AddDomainOutcome = 'added' | 'taken' | 'too_many';

/** Keeps the accounts' custom domains (decisions §20); a removed domain is kept, its host free again. */
export interface DomainStore {
  /**
   * Adds `domain` unless another domain not removed holds its host (`taken`), or its account has `max`
   * domains not removed (`too_many`): both decided atomically with the insert.
   */
  addDomain(domain: Domain, max: number): Promise<AddDomainOutcome>;
  /** The domain `id` in any state, or null. */
  findDomain(id: string): Promise<Domain | null>;
  /** The domain not removed that holds `host`, or null. */
  findDomainByHost(host: string): Promise<Domain | null>;
  /** The account's domains not removed, oldest first. */
  listDomains(accountId: string): Promise<Domain[]>;
  /** Every domain not removed, in any state: what the nodes serve (active) or answer 404 for (the rest). */
  servedDomains(): Promise<Domain[]>;
  /** Writes a check's outcome; false when the domain is gone or removed meanwhile. */
  recordCheck(id: string, check: DomainCheck): Promise<boolean>;
  /** Replaces the domain's settings; false when it is gone or removed. */
  updateSettings(id: string, settings: DomainSettings): Promise<boolean>;
  /** The ids of up to `limit` links on `host` (its slugs, any account's): what removing the domain touches. */
  linkIdsOn(host: string, limit: number): Promise<string[]>;
  /** Marks the domain removed (its host free for anyone); false when it already was. */
  removeDomain(id: string): Promise<boolean>;
  /**
   * Takes up to `limit` pending, active or suspended domains whose check is due at `now` and moves their
   * next check to `leaseUntil` in the same write, so that another node claiming meanwhile skips them.
   */
  claimDueDomains(now: number, leaseUntil: number, limit: number): Promise<Domain[]>;
}

/** The longest DNS name (RFC 1035, without the root's dot). */
const MAX_HOST = 253;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * A host as a person types it, lower-cased and an IDN as punycode (the URL parser's own conversion), or
 * null when it is no DNS name of at least two labels: an IP, a port, a path, an empty label, a label
 * over 63 characters or starting or ending with `-`, a numeric top-level label.
 */
export function normalizeHost(raw: string): string | null {
  const text = raw.trim().replace(/\.$/, '');
  if (text === '' || text.length > MAX_HOST * 4 || /[/:?#@\s\\[\]]/.test(text)) return null;
  let host: string;
  try {
    host = new URL(`http://${text}/`).hostname;
  } catch {
    return null;
  }
  if (host.length > MAX_HOST || IPV4.test(host)) return null;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  return /^\d+$/.test(labels.at(-1) ?? '') ? null : host;
}

/** Whether `host` is a registrable domain itself (`acme.test`), not a name under one (`go.acme.test`). */
export function isApexHost(host: string): boolean {
  return getDomain(host, { allowPrivateDomains: true }) === host;
}

/** Whether `host` is `other` or a name under it. */
export const isUnder = (host: string, other: string): boolean => host === other || host.endsWith(`.${other}`);

/** Settings read back from their stored JSON: whatever is missing or of the wrong kind is unset. */
export function readDomainSettings(stored: unknown): DomainSettings {
  const value = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<string, unknown>;
  const text = (field: unknown) => (typeof field === 'string' ? field : null);
  return {
    baseRedirect: text(value.baseRedirect),
    notFoundRedirect: text(value.notFoundRedirect),
    appleAppSiteAssociation: value.appleAppSiteAssociation ?? null,
    androidAssetLinks: value.androidAssetLinks ?? null,
  };
}
