import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RedirectOutcome, ServedHosts, Visit } from '@shortener/core';
import { RESERVED_SLUGS, followLink, followLinkNow, redirectKey, redirectState } from '@shortener/core';
import type { HttpDeps, HttpMetrics } from '../deps.js';
import { HTTP_STATUS, RETRY_AFTER_SECONDS, errorBody, unavailableError } from '../errors.js';
import type { LinkCache } from './link-cache.js';
import { queryParam } from '../server/query.js';
import { clientOf, languageOf } from '../request.js';
import { isBotUserAgent, isPrefetch } from '../server/user-agent.js';
import type { Routed, RoutedLink } from './routing.js';
import { routeRequest, saltFor, withRouting } from './routing.js';
import { sendPreviewCard } from './preview-card.js';
import { respond, sendFollowed, sendOutcome } from './redirect-answers.js';

const RESERVED = new Set(RESERVED_SLUGS);
const MAX_PATH_SLUG = 64;

/** A–Z, a–z, 0–9, `_` and `-`: the characters of a slug in a path. */
const isSlugChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;

/**
 * The slug of a `GET /{slug}` request line (`/` then 1-64 slug characters, then perhaps `?query`), or
 * null when the path is something else. A scan rather than a regex: it runs for every request.
 */
export function slugOfPath(url: string | undefined): { slug: string; query: string } | null {
  if (url === undefined || url.charCodeAt(0) !== 47) return null;
  const q = url.indexOf('?');
  const end = q === -1 ? url.length : q;
  if (end < 2 || end > MAX_PATH_SLUG + 1) return null;
  for (let i = 1; i < end; i++) if (!isSlugChar(url.charCodeAt(i))) return null;
  const slug = url.slice(1, end);
  if (RESERVED.has(slug.toLowerCase())) return null;
  return { slug, query: q === -1 ? '' : url.slice(q + 1) };
}

/**
 * The visit of a request, as the recorder needs it (with the redirect rule that answered, for links with
 * rules, and the split's entry, for links with a split); the IP lives only in memory until the next flush.
 */
export function visitOf(
  deps: HttpDeps,
  req: IncomingMessage,
  routed: Pick<Routed, 'rule' | 'variant'> | null = null,
): Visit {
  const userAgent = req.headers['user-agent'] ?? '';
  const { countryHeader } = deps.options;
  const country = countryHeader === null ? undefined : req.headers[countryHeader];
  return {
    bot: isBotUserAgent(userAgent),
    countable: req.method !== 'HEAD' && !isPrefetch(req.headers),
    ip: clientOf(deps.options, req).ip,
    userAgent,
    referrer: req.headers.referer ?? null,
    country: typeof country === 'string' ? country : null,
    rule: routed === null ? null : routed.rule,
    variant: routed === null ? null : routed.variant,
  };
}

/** Answers an outcome; the language (`?lang=`, `Accept-Language`) is worked out only for a page. */
function finish(
  deps: HttpDeps,
  req: IncomingMessage,
  res: ServerResponse,
  query: string,
  outcome: RedirectOutcome,
  routed: Routed | null = null,
): void {
  deps.metrics?.redirected(outcome.kind);
  if (outcome.kind === 'redirect') {
    // decisions §19: a link with a preview shows link-preview robots its card (a plain link: one check)
    const { link } = outcome;
    if (link.preview !== null && isBotUserAgent(req.headers['user-agent'])) {
      return sendPreviewCard(deps, req, res, { ...link, preview: link.preview }, routed);
    }
    return sendFollowed(deps, req, res, link, routed);
  }
  const language = languageOf(queryParam(query, 'lang'), req.headers['accept-language']);
  sendOutcome(deps, req, res, language, outcome);
}

/**
 * The decision on a link as found (or not): not found (no link, or one before its `starts_at`: counted
 * as a visit to an unknown slug), gone, password, or followed, and the answer.
 */
function answer(
  deps: HttpDeps,
  req: IncomingMessage,
  res: ServerResponse,
  query: string,
  link: RoutedLink | null,
  slug: string,
): Promise<void> | undefined {
  const now = deps.core.clock.now();
  const state = redirectState(link, now);
  if (state.kind !== 'redirect' || link === null) {
    if (state.kind === 'not_found') noteOrphan(deps, req, slug);
    return void finish(deps, req, res, query, state);
  }
  // a plain link (routing null) is routed by nothing: one comparison
  let routed: Routed | null = null;
  if (link.routing !== null) {
    // a split picks by the day's visitor hash: its salt is read once a day, the visit waits for it then
    const salt = saltFor(deps, link.routing, now);
    if (salt !== null && typeof salt !== 'string')
      return salt.then(() => answer(deps, req, res, query, link, slug));
    routed = routeRequest(deps, req, link, link.routing, query, salt);
  }
  const visit = visitOf(deps, req, routed);
  const outcome = followLinkNow(deps.recorder, state.link, visit, now);
  if (outcome !== null) {
    // the visits buffered outrun the store: answer once the write under way ends (backpressure)
    const backlog = deps.recorder.backlog();
    if (backlog === undefined) return void finish(deps, req, res, query, outcome, routed);
    return backlog.then(() => finish(deps, req, res, query, outcome, routed));
  }
  // a human click on a capped link: the store counts it atomically before the answer
  return followLink(deps.core, deps.recorder, state.link, visit).then((o) =>
    finish(deps, req, res, query, o, routed),
  );
}

/**
 * `GET|HEAD /{slug}` on the raw request (before Koa, the hot path): the link from the hot-link cache
 * (or one store look-up), the decision, the answer; the click is buffered by the recorder and written
 * later. A cached, uncapped link is answered synchronously; a promise is returned otherwise. `hosts`:
 * the own domains the request's host may be one of; null when the caller knows it is none (the request
 * listener, which looked already), so a short domain's redirect looks the host up once.
 */
export function serveRedirect(
  deps: HttpDeps,
  cache: LinkCache<RoutedLink>,
  req: IncomingMessage,
  res: ServerResponse,
  slug: string,
  query: string,
  hosts: ServedHosts | null = deps.core.hosts ?? null,
): Promise<void> | undefined {
  const key = redirectKey(deps.core.config, req.headers.host, slug, hosts ?? undefined);
  const cached = cache.get(key.domain, key.slug);
  deps.metrics?.linkCache(cached !== undefined);
  if (cached !== undefined) return answer(deps, req, res, query, cached, key.slug);
  return cache
    .load(key.domain, key.slug, () =>
      deps.core.links.findForRedirect(key.domain, key.slug).then((found) => withRouting(deps, found)),
    )
    .then((link) => answer(deps, req, res, query, link, key.slug));
}

/** Counts a visit to an unknown slug (decisions §18), off the request as visits are; HEAD is no visit. */
function noteOrphan(deps: HttpDeps, req: IncomingMessage, slug: string): void {
  if (req.method === 'HEAD') return;
  deps.orphans?.recorder.record('unknown_slug', req.headers.referer ?? null, slug, req.headers.host ?? '');
}

/** {@link serveRedirect} for the request listener: a failure is logged and answered with a 500. */
export function handleRedirect(
  deps: HttpDeps,
  cache: LinkCache<RoutedLink>,
  req: IncomingMessage,
  res: ServerResponse,
  target: { slug: string; query: string },
  hosts: ServedHosts | null,
): void {
  const { metrics } = deps;
  const started = metrics === undefined ? 0 : performance.now();
  try {
    const pending = serveRedirect(deps, cache, req, res, target.slug, target.query, hosts);
    // a cached link was answered already: no closure for the failure that cannot come
    if (pending === undefined) {
      if (metrics !== undefined) timed(metrics, started);
      return;
    }
    const fail = (error: unknown) => failed(deps, req, res, error);
    if (metrics === undefined) pending.catch(fail);
    else pending.then(() => timed(metrics, started), fail);
  } catch (error) {
    failed(deps, req, res, error);
  }
}

/** The redirect path's latency, when metrics are on. */
function timed(metrics: HttpMetrics, started: number): void {
  metrics.requestServed('redirect', (performance.now() - started) / 1000);
}

const INTERNAL_ERROR = JSON.stringify({
  error: { code: 'internal_error', message: 'Something went wrong on our side.' },
});

function failed(deps: HttpDeps, req: IncomingMessage, res: ServerResponse, error: unknown): void {
  const unavailable = unavailableError(error);
  if (unavailable === null) deps.logger.error('redirect failed', { error: String(error) });
  if (res.headersSent) return void res.destroy();
  if (unavailable === null)
    return respond(req, res, 500, { 'Content-Type': 'application/json' }, INTERNAL_ERROR);
  // a link not cached while the store is away (not logged per request: the failing flushes are)
  respond(
    req,
    res,
    HTTP_STATUS.unavailable,
    { 'Content-Type': 'application/json', 'Retry-After': RETRY_AFTER_SECONDS },
    JSON.stringify(errorBody(unavailable, 'en')),
  );
}
