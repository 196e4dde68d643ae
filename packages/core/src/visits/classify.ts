import type { GeoLookup, UserAgentParser, VisitorDescription } from '../ports.js';
import type { TrackedVisit } from './recorder.js';
import type { ClassifiedVisit } from './visit-aggregate.js';
import { dayOf, hashVisitor } from './visitor-hash.js';

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

/**
 * Classifies a human visit: device and browser, referrer host, country, and the visitor hash. The IP is
 * used here and dropped. User-Agents, referrers and IPs repeat, so their parses and look-ups are
 * remembered until the next flush (a new classifier per batch, so no IP outlives its batch).
 */
export function createClassifier(deps: {
  readonly userAgents: UserAgentParser;
  readonly geo: GeoLookup | null;
}) {
  const described = new Map<string, VisitorDescription>();
  const referrers = new Map<string, string>();
  const countries = new Map<string, string>();
  const countryOf = (ip: string): string => {
    let country = countries.get(ip);
    if (country === undefined)
      countries.set(ip, (country = countryCode(deps.geo?.country(ip) ?? null) ?? 'unknown'));
    return country;
  };
  return (v: TrackedVisit, day: string, salt: string): ClassifiedVisit => {
    let description = described.get(v.userAgent);
    if (description === undefined)
      described.set(v.userAgent, (description = deps.userAgents.describe(v.userAgent)));
    let referrer = v.referrer === null ? 'direct' : referrers.get(v.referrer);
    if (referrer === undefined && v.referrer !== null)
      referrers.set(v.referrer, (referrer = referrerHost(v.referrer)));
    return {
      linkId: v.linkId,
      day,
      at: v.at,
      counted: v.counted,
      description,
      referrer: referrer ?? 'direct',
      country: (v.country === null ? null : countryCode(v.country)) ?? countryOf(v.ip),
      visitorHash: hashVisitor(salt, v.linkId, v.ip, v.userAgent),
    };
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
