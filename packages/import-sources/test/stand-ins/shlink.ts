/**
 * A stand-in for Shlink's REST API v3, answering as its published document says: shlinkio/shlink
 * `docs/swagger/swagger.json` (OpenAPI 3.1, "Shlink" version 3.0, commit 59c62a2 of June 2026) with
 * `paths/v1_short-urls.json`, `paths/v3_short-urls_{shortCode}_redirect-rules.json`,
 * `paths/v1_short-urls_{shortCode}_visits.json`, `definitions/ShortUrl.json`, `ShortUrlMeta.json`,
 * `Visit.json`, `VisitLocation.json`, `Pagination.json`, and the problem details of
 * `module/Rest/src/Exception/{Missing,Verify}AuthenticationException.php` for a missing or wrong key (401).
 */
import type { StandIn, StandInAnswer, StandInFaults, StandInRequest } from './loopback.js';
import { pageOfItems, startStandIn } from './loopback.js';

export const SHLINK_KEY = 'shlink-key-0123456789';
export const SHLINK_DEFAULT_DOMAIN = 's.test';

/** A stored short URL with what the API lists, its rules and its visits. */
export interface ShlinkShortUrl {
  readonly shortCode: string;
  readonly domain: string | null;
  readonly longUrl: string;
  readonly dateCreated: string;
  readonly title?: string | null;
  readonly tags?: string[];
  readonly meta?: { validSince?: string | null; validUntil?: string | null; maxVisits?: number | null };
  readonly crawlable?: boolean;
  readonly forwardQuery?: boolean;
  readonly redirectRules?: unknown[];
  readonly visits?: unknown[];
}

const problem = (status: number, type: string, title: string, detail: string): StandInAnswer => ({
  status,
  type: 'application/problem+json',
  body: { type: `https://shlink.io/api/error/${type}`, title, detail, status },
});

function pagination(total: number, page: number, size: number, inPage: number) {
  return {
    currentPage: page,
    pagesCount: Math.max(Math.ceil(total / size), 1),
    itemsPerPage: size,
    itemsInCurrentPage: inPage,
    totalItems: total,
  };
}

function shortUrlJson(item: ShlinkShortUrl) {
  return {
    shortCode: item.shortCode,
    shortUrl: `https://${item.domain ?? SHLINK_DEFAULT_DOMAIN}/${item.shortCode}`,
    longUrl: item.longUrl,
    dateCreated: item.dateCreated,
    visitsSummary: { total: item.visits?.length ?? 0, nonBots: item.visits?.length ?? 0, bots: 0 },
    tags: item.tags ?? [],
    meta: { validSince: null, validUntil: null, maxVisits: null, ...item.meta },
    domain: item.domain,
    title: item.title ?? null,
    crawlable: item.crawlable ?? false,
    forwardQuery: item.forwardQuery ?? true,
    hasRedirectRules: (item.redirectRules?.length ?? 0) > 0,
  };
}

function listShortUrls(items: readonly ShlinkShortUrl[], query: URLSearchParams): StandInAnswer {
  const page = Number(query.get('page') ?? 1);
  const size = Number(query.get('itemsPerPage') ?? 10);
  const ordered = [...items];
  if (query.get('orderBy') === 'dateCreated-ASC')
    ordered.sort((a, b) => Date.parse(a.dateCreated) - Date.parse(b.dateCreated));
  const data = pageOfItems(ordered, page, size).map(shortUrlJson);
  return {
    status: 200,
    body: { shortUrls: { data, pagination: pagination(items.length, page, size, data.length) } },
  };
}

function oneShortUrl(items: readonly ShlinkShortUrl[], request: StandInRequest, what: string): StandInAnswer {
  const shortCode = decodeURIComponent(request.path.slice('/rest/v3/short-urls/'.length, -`/${what}`.length));
  const domain = request.query.get('domain');
  const item = items.find(
    (one) => one.shortCode === shortCode && one.domain === (domain === SHLINK_DEFAULT_DOMAIN ? null : domain),
  );
  if (item === undefined) {
    return problem(
      404,
      'short-url-not-found',
      'Short URL not found',
      `No URL found with short code "${shortCode}"`,
    );
  }
  if (what === 'redirect-rules')
    return { status: 200, body: { defaultLongUrl: item.longUrl, redirectRules: item.redirectRules ?? [] } };
  const page = Number(request.query.get('page') ?? 1);
  const size = Number(request.query.get('itemsPerPage') ?? 10);
  const visits = item.visits ?? [];
  const data = pageOfItems(visits, page, size);
  return {
    status: 200,
    body: { visits: { data, pagination: pagination(visits.length, page, size, data.length) } },
  };
}

/** Starts a stand-in Shlink holding `items`, misbehaving as `faults` say. */
export function startShlink(items: readonly ShlinkShortUrl[], faults: StandInFaults = {}): Promise<StandIn> {
  return startStandIn((request) => {
    const key = request.headers['x-api-key'];
    if (key === undefined) {
      return problem(
        401,
        'missing-authentication',
        'Invalid authorization',
        'Expected one of the following authentication headers, ["X-Api-Key"], but none were provided',
      );
    }
    if (key !== SHLINK_KEY)
      return problem(
        401,
        'invalid-api-key',
        'Invalid API key',
        'Provided API key does not exist or is invalid.',
      );
    if (request.path === '/rest/v3/short-urls') return listShortUrls(items, request.query);
    for (const what of ['redirect-rules', 'visits']) {
      if (request.path.startsWith('/rest/v3/short-urls/') && request.path.endsWith(`/${what}`))
        return oneShortUrl(items, request, what);
    }
    return problem(404, 'not-found', 'Not found', `Requested route does not exist.`);
  }, faults);
}
