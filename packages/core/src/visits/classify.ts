import type { GeoLookup, UserAgentParser, VisitorDescription } from '../ports.js';
import { dayOf } from './visitor-hash.js';

const DAY_MS = 86_400_000;

/** `dayOf` for visits, which nearly all fall on the same day: formatted once per day. */
export function createDayCache(): (at: number) => string {
  let start = Infinity; // before the first visit no day is cached: every instant lies outside
  let day = '';
  return (at) => {
    if (at < start || at >= start + DAY_MS) {
      start = at - (((at % DAY_MS) + DAY_MS) % DAY_MS);
      day = dayOf(at);
    }
    return day;
  };
}

/** Who followed a link, as far as one batch knows: one object per (User-Agent, IP) seen in the batch. */
export interface Visitor {
  readonly ip: string;
  readonly userAgent: string;
  readonly description: VisitorDescription;
  /** The visitor's direct visits (no referrer, country by GeoIP): the common case, kept at hand. */
  direct: VisitProfile | undefined;
  /** Its other (referrer host, country) combinations. */
  others: Map<string, VisitProfile> | undefined;
}

/**
 * What a human visit counts in every dimension: the visitor (device, browser, unique hash), the
 * referrer host and the country. Interned per batch, so a visit is counted by one look-up of this object.
 */
export interface VisitProfile {
  readonly visitor: Visitor;
  readonly referrer: string;
  readonly country: string;
}

/** How many User-Agent descriptions are kept across batches (a User-Agent alone identifies no one). */
const MAX_DESCRIPTIONS = 5000;

/** A human visit as the classifier reads it. */
interface ClassifiedVisit {
  readonly userAgent: string;
  readonly ip: string;
  readonly referrer: string | null;
  readonly country: string | null;
}

/** Classifies the human visits of one batch (see {@link createClassifier}). */
export interface Classifier {
  /** The profile of a human visit. */
  profile(visit: ClassifiedVisit): VisitProfile;
}

/**
 * Classifies human visits into profiles: the visitor (User-Agent and IP, with its device and browser),
 * the referrer host and the country. Visitors, referrers and countries repeat, so each is worked out
 * once per batch and then found by a map look-up or a field. The IPs live only in the visitors of this
 * batch: the recorder starts a new classifier for every flush, so no IP outlives its batch. Parsed
 * User-Agents are kept across batches.
 */
export function createClassifier(
  deps: {
    readonly userAgents: UserAgentParser;
    readonly geo: GeoLookup | null;
  },
  descriptions: Map<string, VisitorDescription> = new Map(),
): Classifier {
  return new BatchClassifier(deps, descriptions);
}

/** The classifier of one batch, with the look-ups it has made so far. */
class BatchClassifier implements Classifier {
  private readonly visitors = new Map<string, Map<string, Visitor>>();
  private readonly referrers = new Map<string, string>();
  private readonly headerCountries = new Map<string, string | null>();
  private readonly ipCountries = new Map<string, string>();
  // The visitor of the last visit: a client's visits come in runs (a keep-alive connection, a page and
  // its prefetch, a monitor), and comparing two strings costs less than hashing the User-Agent.
  private last: Visitor | undefined;

  constructor(
    private readonly deps: { readonly userAgents: UserAgentParser; readonly geo: GeoLookup | null },
    private readonly descriptions: Map<string, VisitorDescription>,
  ) {}

  profile(visit: ClassifiedVisit): VisitProfile {
    const visitor = this.visitorOf(visit.userAgent, visit.ip);
    if (visit.referrer === null && visit.country === null) {
      return (visitor.direct ??= { visitor, referrer: 'direct', country: this.geoCountry(visit.ip) });
    }
    const referrer = this.referrerOf(visit.referrer);
    const country = this.countryOf(visit.ip, visit.country);
    const key = `${referrer} ${country}`; // a host and a country code hold no space
    visitor.others ??= new Map();
    let profile = visitor.others.get(key);
    if (profile === undefined) visitor.others.set(key, (profile = { visitor, referrer, country }));
    return profile;
  }

  private describe(userAgent: string): VisitorDescription {
    let description = this.descriptions.get(userAgent);
    if (description === undefined) {
      if (this.descriptions.size >= MAX_DESCRIPTIONS) this.descriptions.clear();
      this.descriptions.set(userAgent, (description = this.deps.userAgents.describe(userAgent)));
    }
    return description;
  }

  private visitorOf(userAgent: string, ip: string): Visitor {
    const last = this.last;
    if (last !== undefined && last.ip === ip && last.userAgent === userAgent) return last;
    this.last = this.lookUpVisitor(userAgent, ip);
    return this.last;
  }

  private lookUpVisitor(userAgent: string, ip: string): Visitor {
    let byIp = this.visitors.get(userAgent);
    if (byIp === undefined) this.visitors.set(userAgent, (byIp = new Map()));
    let visitor = byIp.get(ip);
    if (visitor === undefined) {
      visitor = {
        ip,
        userAgent,
        description: this.describe(userAgent),
        direct: undefined,
        others: undefined,
      };
      byIp.set(ip, visitor);
    }
    return visitor;
  }

  private geoCountry(ip: string): string {
    let country = this.ipCountries.get(ip);
    if (country === undefined)
      this.ipCountries.set(ip, (country = countryCode(this.deps.geo?.country(ip) ?? null) ?? 'unknown'));
    return country;
  }

  private referrerOf(raw: string | null): string {
    if (raw === null) return 'direct';
    let host = this.referrers.get(raw);
    if (host === undefined) this.referrers.set(raw, (host = referrerHost(raw)));
    return host;
  }

  /** The country from a trusted proxy header when it names one, else from the IP. */
  private countryOf(ip: string, header: string | null): string {
    if (header !== null) {
      let code = this.headerCountries.get(header);
      if (code === undefined) this.headerCountries.set(header, (code = countryCode(header)));
      if (code !== null) return code;
    }
    return this.geoCountry(ip);
  }
}

/** The referrer's host only; `direct` when absent or unreadable (decisions §7). */
export function referrerHost(referrer: string | null): string {
  if (!referrer) return 'direct';
  try {
    return new URL(referrer).hostname.toLowerCase() || 'direct';
  } catch {
    return 'direct';
  }
}

/** An ISO 3166-1 alpha-2 code, upper-case, or null (Cloudflare's `XX` and `T1` mean unknown). */
export function countryCode(raw: string | null): string | null {
  const code = raw?.trim().toUpperCase() ?? '';
  return /^[A-Z]{2}$/.test(code) && code !== 'XX' && code !== 'T1' ? code : null;
}
