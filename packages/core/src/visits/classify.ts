import type { GeoLookup, UserAgentParser, VisitorDescription } from '../ports.js';
import { dayOf } from './visitor-hash.js';

const DAY_MS = 86_400_000;

/** `dayOf` for visits, which nearly all fall on the same day: formatted once per day. */
export function createDayCache(): (at: number) => string {
  let start = 0;
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
) {
  const visitors = new Map<string, Map<string, Visitor>>();
  const referrers = new Map<string, string>();
  const headerCountries = new Map<string, string | null>();
  const ipCountries = new Map<string, string>();
  const describe = (userAgent: string): VisitorDescription => {
    let description = descriptions.get(userAgent);
    if (description === undefined) {
      if (descriptions.size >= MAX_DESCRIPTIONS) descriptions.clear();
      descriptions.set(userAgent, (description = deps.userAgents.describe(userAgent)));
    }
    return description;
  };
  const visitorOf = (userAgent: string, ip: string): Visitor => {
    let byIp = visitors.get(userAgent);
    if (byIp === undefined) visitors.set(userAgent, (byIp = new Map()));
    let visitor = byIp.get(ip);
    if (visitor === undefined) {
      visitor = { ip, userAgent, description: describe(userAgent), direct: undefined, others: undefined };
      byIp.set(ip, visitor);
    }
    return visitor;
  };
  const geoCountry = (ip: string): string => {
    let country = ipCountries.get(ip);
    if (country === undefined)
      ipCountries.set(ip, (country = countryCode(deps.geo?.country(ip) ?? null) ?? 'unknown'));
    return country;
  };
  const referrerOf = (raw: string | null): string => {
    if (raw === null) return 'direct';
    let host = referrers.get(raw);
    if (host === undefined) referrers.set(raw, (host = referrerHost(raw)));
    return host;
  };
  /** The country from a trusted proxy header when it names one, else from the IP. */
  const countryOf = (ip: string, header: string | null): string => {
    if (header !== null) {
      let code = headerCountries.get(header);
      if (code === undefined) headerCountries.set(header, (code = countryCode(header)));
      if (code !== null) return code;
    }
    return geoCountry(ip);
  };
  return {
    /** The profile of a human visit. */
    profile(visit: {
      readonly userAgent: string;
      readonly ip: string;
      readonly referrer: string | null;
      readonly country: string | null;
    }): VisitProfile {
      const visitor = visitorOf(visit.userAgent, visit.ip);
      if (visit.referrer === null && visit.country === null) {
        return (visitor.direct ??= { visitor, referrer: 'direct', country: geoCountry(visit.ip) });
      }
      const referrer = referrerOf(visit.referrer);
      const country = countryOf(visit.ip, visit.country);
      const key = `${referrer} ${country}`; // a host and a country code hold no space
      visitor.others ??= new Map();
      let profile = visitor.others.get(key);
      if (profile === undefined) visitor.others.set(key, (profile = { visitor, referrer, country }));
      return profile;
    },
  };
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
