import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GoneReason, Language, LinkRecord, RedirectOutcome, Visit } from '@shortener/core';
import {
  RESERVED_SLUGS,
  domainError,
  followLink,
  followLinkNow,
  redirectKey,
  redirectState,
} from '@shortener/core';
import type { HttpDeps } from './deps.js';
import { HTTP_STATUS, errorBody } from './errors.js';
import type { LinkCache } from './link-cache.js';
import { gonePage, notFoundPage, passwordPage } from './pages/basic-pages.js';
import { LINK_PAGE_HEADERS } from './pages/layout.js';
import { clientIp, languageOf } from './request.js';
import { isBotUserAgent, isPrefetch } from './user-agent.js';

const SLUG_PATH = /^\/([A-Za-z0-9_-]{1,64})(?:\?(.*))?$/;
const RESERVED = new Set(RESERVED_SLUGS);

/** The slug of a `GET /{slug}` request line, or null when the path is something else. */
export function slugOfPath(url: string | undefined): { slug: string; query: string } | null {
  const match = SLUG_PATH.exec(url ?? '');
  if (!match?.[1] || RESERVED.has(match[1].toLowerCase())) return null;
  return { slug: match[1], query: match[2] ?? '' };
}

/** Whether the client prefers the JSON error object to an HTML page (decisions §4), by q-value. */
export function wantsJson(req: IncomingMessage): boolean {
  let json = 0;
  let html = 0;
  for (const part of (req.headers.accept ?? '').toLowerCase().split(',')) {
    const [type = '', ...params] = part.split(';').map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2)) || 0;
    if (type === 'application/json') json = Math.max(json, weight);
    if (type === 'text/html') html = Math.max(html, weight);
  }
  return json > html;
}

/** The visit of a request, as the recorder needs it; the IP lives only in memory until the next flush. */
export function visitOf(deps: HttpDeps, req: IncomingMessage): Visit {
  const userAgent = req.headers['user-agent'] ?? '';
  const { countryHeader, trustProxy } = deps.options;
  const country = countryHeader === null ? undefined : req.headers[countryHeader];
  return {
    bot: isBotUserAgent(userAgent),
    countable: req.method !== 'HEAD' && !isPrefetch(req.headers),
    ip: clientIp(req, trustProxy),
    userAgent,
    referrer: req.headers.referer ?? null,
    country: typeof country === 'string' ? country : null,
  };
}

/** Writes a complete response (no body for HEAD). */
export function respond(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body = '',
): void {
  const head = { 'Cache-Control': NO_STORE, ...headers };
  res.writeHead(
    status,
    req.method === 'HEAD' ? head : { ...head, 'Content-Length': String(Buffer.byteLength(body)) },
  );
  res.end(req.method === 'HEAD' ? undefined : body);
}

const NO_STORE = 'private, max-age=0';

/** The 302 itself, with no allocation beyond the header object. */
function sendRedirect(req: IncomingMessage, res: ServerResponse, location: string): void {
  res.writeHead(
    302,
    req.method === 'HEAD'
      ? { 'Cache-Control': NO_STORE, Location: location }
      : { 'Cache-Control': NO_STORE, Location: location, 'Content-Length': '0' },
  );
  res.end();
}

/** Renders the 404 and 410 answers: an HTML page, or the error object for JSON clients. */
export function sendMissing(
  req: IncomingMessage,
  res: ServerResponse,
  language: Language,
  reason: GoneReason | null,
): void {
  if (wantsJson(req)) {
    const error =
      reason === null ? domainError('not_found') : domainError('not_found', linkGoneMessage(reason));
    respond(
      req,
      res,
      reason === null ? 404 : 410,
      { 'Content-Type': 'application/json' },
      JSON.stringify(errorBody(error, language)),
    );
    return;
  }
  const page = reason === null ? notFoundPage(language) : gonePage(reason, language);
  respond(req, res, reason === null ? HTTP_STATUS.not_found : 410, LINK_PAGE_HEADERS, page);
}

function linkGoneMessage(reason: GoneReason): string {
  if (reason === 'click_limit') return 'This link has reached its click limit.';
  return reason === 'disabled' ? 'This link has been disabled.' : 'This link has expired.';
}

/** Answers an outcome of following a link: 302, the password form, or 404/410. */
export function sendOutcome(
  req: IncomingMessage,
  res: ServerResponse,
  language: Language,
  outcome: RedirectOutcome,
  wrongPassword = false,
): void {
  switch (outcome.kind) {
    case 'redirect':
      sendRedirect(req, res, outcome.link.url);
      return;
    case 'password':
      respond(req, res, wrongPassword ? 401 : 200, LINK_PAGE_HEADERS, passwordPage(language, wrongPassword));
      return;
    case 'gone':
      sendMissing(req, res, language, outcome.reason);
      return;
    case 'not_found':
      sendMissing(req, res, language, null);
  }
}

/** Answers an outcome; the language (`?lang=`, `Accept-Language`) is worked out only for a page. */
function finish(req: IncomingMessage, res: ServerResponse, query: string, outcome: RedirectOutcome): void {
  if (outcome.kind === 'redirect') return sendRedirect(req, res, outcome.link.url);
  const lang = query === '' ? undefined : (new URLSearchParams(query).get('lang') ?? undefined);
  sendOutcome(req, res, languageOf(lang, req.headers['accept-language']), outcome);
}

/** The decision on a link as found (or not): gone, password, or followed, and the answer. */
function answer(
  deps: HttpDeps,
  req: IncomingMessage,
  res: ServerResponse,
  query: string,
  link: LinkRecord | null,
): Promise<void> | undefined {
  const now = deps.core.clock.now();
  const state = redirectState(link, now);
  if (state.kind !== 'redirect') return void finish(req, res, query, state);
  const visit = visitOf(deps, req);
  const outcome = followLinkNow(deps.recorder, state.link, visit, now);
  if (outcome !== null) return void finish(req, res, query, outcome);
  // a human click on a capped link: the store counts it atomically before the answer
  return followLink(deps.core, deps.recorder, state.link, visit).then((o) => finish(req, res, query, o));
}

/**
 * `GET|HEAD /{slug}` on the raw request (before Koa, the hot path): the link from the hot-link cache
 * (or one store look-up), the decision, the answer; the click is buffered by the recorder and written
 * later. A cached, uncapped link is answered synchronously; a promise is returned otherwise.
 */
export function serveRedirect(
  deps: HttpDeps,
  cache: LinkCache,
  req: IncomingMessage,
  res: ServerResponse,
  slug: string,
  query: string,
): Promise<void> | undefined {
  const key = redirectKey(deps.core.config, req.headers.host, slug);
  const cached = cache.get(key.domain, key.slug);
  if (cached !== undefined) return answer(deps, req, res, query, cached);
  return cache
    .load(key.domain, key.slug, () => deps.core.links.findBySlug(key.domain, key.slug))
    .then((link) => answer(deps, req, res, query, link));
}

/** {@link serveRedirect} for the request listener: a failure is logged and answered with a 500. */
export function handleRedirect(
  deps: HttpDeps,
  cache: LinkCache,
  req: IncomingMessage,
  res: ServerResponse,
  target: { slug: string; query: string },
): void {
  const failed = (error: unknown) => {
    deps.logger.error('redirect failed', { error: String(error) });
    if (res.headersSent) return void res.destroy();
    const body = JSON.stringify({
      error: { code: 'internal_error', message: 'Something went wrong on our side.' },
    });
    respond(req, res, 500, { 'Content-Type': 'application/json' }, body);
  };
  try {
    serveRedirect(deps, cache, req, res, target.slug, target.query)?.catch(failed);
  } catch (error) {
    failed(error);
  }
}
