import type { LinkRecord, RouteVisit } from '../src/index.js';
import type { LinkRouting } from '../src/links/routing.js';
import { PLAIN } from '../src/index.js';

/** A link with only the fields routing reads; the rest of a record does not matter to these tests. */
export const aLink = (over: Partial<LinkRecord> = {}): LinkRecord =>
  ({
    ...PLAIN,
    url: 'https://example.com/',
    maxClicks: null,
    expiresAt: null,
    passwordHash: null,
    ...over,
  }) as LinkRecord;

/** The routing of a link with no rules, no forwarding, not crawlable, at 302, but for `over`. */
export const aRouting = (over: Partial<LinkRouting> = {}): LinkRouting => ({
  rules: [],
  forwardQuery: false,
  status: 302,
  crawlable: false,
  split: null,
  ...over,
});

/**
 * A desktop Windows visit at `now` with no country, languages or query (and a visitor hash that picks a
 * split's first entry), unless `over` says otherwise.
 */
export const aRouteVisit = (
  now: number,
  over: Partial<Record<keyof RouteVisit, unknown>> = {},
): RouteVisit => ({
  now,
  device: () => 'desktop',
  os: () => 'windows',
  country: () => null,
  languages: () => [],
  query: () => null,
  visitorHash: () => '00000000',
  ...(over as Partial<RouteVisit>),
});
