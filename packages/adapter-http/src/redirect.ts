import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GoneReason, Language, LinkRecord, RedirectOutcome, Visit } from '@shortener/core';
import { RESERVED_SLUGS, domainError, findRedirectLink, followLink, redirectState } from '@shortener/core';
import type { HttpDeps } from './deps.js';
import { HTTP_STATUS, errorBody } from './errors.js';
import { gonePage, notFoundPage, passwordPage } from './pages/basic-pages.js';
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
  const head = { 'Cache-Control': 'private, max-age=0', ...headers };
  res.writeHead(
    status,
    req.method === 'HEAD' ? head : { ...head, 'Content-Length': String(Buffer.byteLength(body)) },
  );
  res.end(req.method === 'HEAD' ? undefined : body);
}

const HTML = 'text/html; charset=utf-8';

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
  respond(req, res, reason === null ? HTTP_STATUS.not_found : 410, { 'Content-Type': HTML }, page);
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
      respond(req, res, 302, { Location: outcome.link.url });
      return;
    case 'password':
      respond(
        req,
        res,
        wrongPassword ? 401 : 200,
        { 'Content-Type': HTML },
        passwordPage(language, wrongPassword),
      );
      return;
    case 'gone':
      sendMissing(req, res, language, outcome.reason);
      return;
    case 'not_found':
      sendMissing(req, res, language, null);
  }
}

/**
 * `GET|HEAD /{slug}` on the raw request (before Koa, the hot path): one look-up, the decision, the answer;
 * the click is buffered by the recorder and written later.
 */
export async function serveRedirect(
  deps: HttpDeps,
  req: IncomingMessage,
  res: ServerResponse,
  slug: string,
  query: string,
) {
  const language = languageOf(
    new URLSearchParams(query).get('lang') ?? undefined,
    req.headers['accept-language'],
  );
  const link: LinkRecord | null = await findRedirectLink(deps.core, req.headers.host, slug);
  const state = redirectState(link, deps.core.clock.now());
  if (state.kind !== 'redirect') {
    sendOutcome(req, res, language, state);
    return;
  }
  sendOutcome(req, res, language, await followLink(deps.core, deps.recorder, state.link, visitOf(deps, req)));
}
