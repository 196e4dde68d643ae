import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GoneReason, Language, LinkRecord, RedirectOutcome } from '@shortener/core';
import { domainError, hostWithoutPort } from '@shortener/core';
import type { HttpDeps } from '../deps.js';
import { HTTP_STATUS, errorBody } from '../errors.js';
import { gonePage, notFoundPage, passwordPage } from '../pages/basic-pages.js';
import { LINK_PAGE_HEADERS } from '../pages/layout.js';
import type { Routed } from './routing.js';
import { writeRedirect } from './routing.js';

// The answers of following a short link (redirect.ts decides): the redirect, the password form, the
// 404 and 410 pages or error objects, and a dead end sent elsewhere (decisions §18).

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
export const NOINDEX = 'noindex, nofollow';

/** The pages a short URL answers with (password form, 404, 410): never indexed (decisions §15). */
const SHORT_URL_PAGE_HEADERS = { ...LINK_PAGE_HEADERS, 'X-Robots-Tag': NOINDEX };

/**
 * The redirect of a plain link (no rules, no forwarding, not crawlable): the server's status (302 unless
 * `REDIRECT_STATUS` says otherwise); headers as a flat list, which Node writes without walking an object.
 */
function sendRedirect(
  deps: HttpDeps,
  req: IncomingMessage,
  res: ServerResponse,
  location: string,
  vary: boolean,
): void {
  const status = deps.core.config.redirectStatus ?? 302;
  if (status !== 302 || vary) return writeRedirect(req, res, status, location, false, vary);
  res.writeHead(
    302,
    req.method === 'HEAD'
      ? ['Cache-Control', NO_STORE, 'Location', location, 'X-Robots-Tag', NOINDEX]
      : ['Cache-Control', NO_STORE, 'Location', location, 'X-Robots-Tag', NOINDEX, 'Content-Length', '0'],
  );
  res.end();
}

/**
 * Whether a link's answers differ by User-Agent (decisions §25: `Vary: User-Agent`): robots get the card
 * of a link with a preview, and rules on the device or the OS send visitors apart.
 */
const differsByUserAgent = (link: LinkRecord): boolean =>
  link.preview !== null || link.rules.some(({ when }) => when.device !== undefined || when.os !== undefined);

/** The redirect of an outcome: routed when the link has routing, else plain. */
export function sendFollowed(
  deps: HttpDeps,
  req: IncomingMessage,
  res: ServerResponse,
  link: LinkRecord,
  routed: Routed | null,
): void {
  if (routed === null) return sendRedirect(deps, req, res, link.url, link.preview !== null);
  writeRedirect(req, res, routed.status, routed.location, routed.crawlable, differsByUserAgent(link));
}

/**
 * A dead end sent elsewhere (decisions §18: `expired_url`, `NOT_FOUND_REDIRECT`): a 302 with
 * `Cache-Control: no-store`, as the decision may change with the next visit.
 */
export function sendElsewhere(req: IncomingMessage, res: ServerResponse, location: string): void {
  const headers = ['Cache-Control', 'no-store', 'Location', location, 'X-Robots-Tag', NOINDEX];
  if (req.method !== 'HEAD') headers.push('Content-Length', '0');
  res.writeHead(302, headers);
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
  respond(req, res, reason === null ? HTTP_STATUS.not_found : 410, SHORT_URL_PAGE_HEADERS, page);
}

function linkGoneMessage(reason: GoneReason): string {
  if (reason === 'click_limit') return 'This link has reached its click limit.';
  return reason === 'disabled' ? 'This link has been disabled.' : 'This link has expired.';
}

/** Answers an outcome of following a link: the redirect (`routed`, if any), the password form, or 404/410. */
export function sendOutcome(
  deps: HttpDeps,
  req: IncomingMessage,
  res: ServerResponse,
  language: Language,
  outcome: RedirectOutcome,
  options: { readonly wrongPassword?: boolean; readonly routed?: Routed | null } = {},
): void {
  const wrongPassword = options.wrongPassword ?? false;
  switch (outcome.kind) {
    case 'redirect':
      sendFollowed(deps, req, res, outcome.link, options.routed ?? null);
      return;
    case 'password':
      respond(
        req,
        res,
        wrongPassword ? 401 : 200,
        SHORT_URL_PAGE_HEADERS,
        passwordPage(language, wrongPassword),
      );
      return;
    case 'gone': {
      // decisions §18: an expired or used-up link with `expired_url` sends its visitors there (not a click)
      const elsewhere = outcome.reason === 'disabled' ? null : outcome.link.expiredUrl;
      if (elsewhere !== null) return sendElsewhere(req, res, elsewhere);
      sendMissing(req, res, language, outcome.reason);
      return;
    }
    case 'not_found': {
      // an own domain's unknown slug goes where its settings say, never to the instance's NOT_FOUND_REDIRECT
      const own = deps.core.hosts?.get(hostWithoutPort(req.headers.host));
      const elsewhere =
        own !== undefined ? own.settings.notFoundRedirect : (deps.options.notFoundRedirect ?? null);
      if (elsewhere !== null) return sendElsewhere(req, res, elsewhere);
      sendMissing(req, res, language, null);
    }
  }
}
