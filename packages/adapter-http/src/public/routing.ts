import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  LinkRecord,
  LinkRouting,
  RedirectStatus,
  RouteVisit,
  VisitorDescription,
} from '@shortener/core';
import {
  acceptedLanguages,
  countryCode,
  isPermanent,
  routeVisit,
  hashVisitor,
  routingOf,
  serverRedirectStatus,
} from '@shortener/core';
import { clientOf } from '../request.js';
import type { HttpDeps } from '../deps.js';
import { perServer } from '../deps.js';
import { createLinkCache } from './link-cache.js';
import { queryParam } from '../server/query.js';
import { createUserAgentParser } from '../server/user-agent.js';

/**
 * A link as the redirect path keeps it: with its routing worked out once, when it is loaded (null for a
 * plain link: no rules, no forwarding, not crawlable, the server's status), so a plain link's redirect
 * costs one comparison more than before and a cached routed link never works it out again.
 */
export type RoutedLink = LinkRecord & { readonly routing: LinkRouting | null };

/**
 * The redirect path's cache of links, one per server: the store's change feed is the only thing that
 * empties it (every store names a change made through it by the time the write resolves), so no route
 * has to remember to.
 */
export const linkCacheOf = perServer((deps) =>
  createLinkCache<RoutedLink>({
    changes: deps.core.links.changes,
    primaryDomain: deps.core.config.shortDomains[0]?.host,
  }),
);

/** Adds the routing of a link as found (decisions §15). */
export function withRouting(deps: Pick<HttpDeps, 'core'>, link: LinkRecord | null): RoutedLink | null {
  if (link === null) return null;
  return routedCopy(link, routingOf(link, serverRedirectStatus(deps.core.config)));
}

/**
 * The link with its routing, as one object literal: every copy shares one hidden class with its fields
 * in the object. A spread here went megamorphic (a hidden class per copy), and `Object.assign` left each
 * copy in dictionary mode: about 1,900 bytes a cached link against 490 (38 MB against 10 MB for the
 * cache's 20,000 at 1M links). A field added to LinkRecord must be added here (routing.test.ts checks).
 */
function routedCopy(link: LinkRecord, routing: LinkRouting | null): RoutedLink {
  return {
    id: link.id,
    domain: link.domain,
    slug: link.slug,
    url: link.url,
    title: link.title,
    passwordHash: link.passwordHash,
    publicStats: link.publicStats,
    expiresAt: link.expiresAt,
    startsAt: link.startsAt,
    maxClicks: link.maxClicks,
    clicks: link.clicks,
    importedClicks: link.importedClicks,
    lastClickAt: link.lastClickAt,
    disabled: link.disabled,
    accountId: link.accountId,
    editTokenHash: link.editTokenHash,
    createdAt: link.createdAt,
    updatedAt: link.updatedAt,
    createdBy: link.createdBy,
    updatedBy: link.updatedBy,
    health: link.health,
    tags: link.tags,
    rules: link.rules,
    forwardQuery: link.forwardQuery,
    redirectStatus: link.redirectStatus,
    crawlable: link.crawlable,
    expiredUrl: link.expiredUrl,
    preview: link.preview,
    split: link.split,
    routing,
  };
}

/**
 * Where a visit goes: the location, the rule that picked it (null for a link without rules) and the
 * split's entry (null for a link without a split, or when a rule picked).
 */
export interface Routed {
  readonly location: string;
  readonly rule: string | null;
  readonly variant: string | null;
  readonly status: RedirectStatus;
  readonly crawlable: boolean;
}

const MAX_REMEMBERED = 5000;
// One parse per distinct User-Agent (a User-Agent alone identifies no one), and per Accept-Language.
const descriptions = new Map<string, VisitorDescription>();
const languages = new Map<string, readonly string[]>();
let fallbackParser: ReturnType<typeof createUserAgentParser> | undefined;

function remembered<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= MAX_REMEMBERED) cache.clear();
    cache.set(key, (value = make()));
  }
  return value;
}

/**
 * What the rules may ask about this request, each worked out when first asked; the visitor hash of a
 * split with `salt`, the day's (decisions §19).
 */
function routeVisitOf(
  deps: HttpDeps,
  req: IncomingMessage,
  linkId: string,
  query: string,
  salt: string | null,
): RouteVisit {
  let description: VisitorDescription | undefined;
  const describe = () =>
    (description ??= remembered(descriptions, req.headers['user-agent'] ?? '', () =>
      (deps.userAgents ?? (fallbackParser ??= createUserAgentParser())).describe(
        req.headers['user-agent'] ?? '',
      ),
    ));
  return {
    now: deps.core.clock.now(),
    device: () => describe().device,
    os: () => describe().os ?? 'other',
    country: () => countryOf(deps, req),
    languages: () => {
      const header = req.headers['accept-language'] ?? '';
      return remembered(languages, header, () => acceptedLanguages(header));
    },
    query: (name) => queryParam(query, name) ?? null,
    visitorHash: () =>
      hashVisitor(salt ?? '', linkId, clientOf(deps.options, req).ip, req.headers['user-agent'] ?? ''),
  };
}

/** The visitor's country: the trusted proxy's header when it names one, else the GeoIP database. */
function countryOf(deps: HttpDeps, req: IncomingMessage): string | null {
  const { countryHeader } = deps.options;
  const header = countryHeader === null ? undefined : req.headers[countryHeader];
  const fromHeader = typeof header === 'string' ? countryCode(header) : null;
  if (fromHeader !== null) return fromHeader;
  return countryCode(deps.geo?.country(clientOf(deps.options, req).ip) ?? null);
}

/**
 * Routes a visit of a link with routing: the first rule that holds, else the split's entry, forwarding,
 * status. `salt` is the day's visitor-hash salt, needed by a link with a split ({@link saltFor}).
 */
export function routeRequest(
  deps: HttpDeps,
  req: IncomingMessage,
  link: LinkRecord,
  routing: LinkRouting,
  query: string,
  salt: string | null = null,
): Routed {
  const routed = routeVisit(link, routing, routeVisitOf(deps, req, link.id, query, salt), query);
  const { url: location, rule, variant } = routed;
  return { location, rule, variant, status: routing.status, crawlable: routing.crawlable };
}

/**
 * The visitor-hash salt a link's routing needs at `now`: null without a split (nothing to read), the
 * day's salt when at hand, else a promise of it (the day's first visit on this node).
 */
export function saltFor(
  deps: HttpDeps,
  routing: LinkRouting | null,
  now: number,
): string | null | Promise<string> {
  return routing === null || routing.split === null ? null : deps.recorder.saltOf(now);
}

const NO_STORE = 'private, max-age=0';
/** A permanent redirect is remembered an hour by the browser only, so it still comes back (decisions §15). */
const PERMANENT = 'private, max-age=3600';
const NOINDEX = 'noindex, nofollow';

/** A redirect with its status, cache and robots headers (headers as a flat list: no object to walk). */
export function writeRedirect(
  req: IncomingMessage,
  res: ServerResponse,
  status: RedirectStatus,
  location: string,
  crawlable: boolean,
  varyByUserAgent = false,
): void {
  const headers = ['Cache-Control', isPermanent(status) ? PERMANENT : NO_STORE, 'Location', location];
  if (!crawlable) headers.push('X-Robots-Tag', NOINDEX);
  if (varyByUserAgent) headers.push('Vary', 'User-Agent');
  if (req.method !== 'HEAD') headers.push('Content-Length', '0');
  res.writeHead(status, headers);
  res.end();
}
