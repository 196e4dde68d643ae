import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Domain } from '@shortener/core';
import type { HttpDeps } from '../deps.js';
import { languageOf } from '../request.js';
import { queryParam } from '../server/query.js';
import type { LinkCache } from './link-cache.js';
import { NOINDEX, respond, sendElsewhere, sendMissing } from './redirect-answers.js';
import { handleRedirect, slugOfPath } from './redirect.js';
import type { RoutedLink } from './routing.js';

const ROBOTS = 'User-agent: *\nDisallow: /\n';
const APP_FILES: Readonly<Record<string, keyof Domain['settings']>> = {
  '/.well-known/apple-app-site-association': 'appleAppSiteAssociation',
  '/.well-known/assetlinks.json': 'androidAssetLinks',
};
/** `/{slug}+`, the preview page (Koa serves it): the slug's characters, then the plus. */
const PREVIEW = /^\/[A-Za-z0-9_-]{1,64}\+$/;

/**
 * A request on an account's own domain (decisions §20): it serves only its links (`GET|HEAD /{slug}`,
 * the password form's `POST /{slug}`, the `+` preview), `/robots.txt` (disallow everything), its app-links
 * files, and `/` to its `base_redirect`; everything else is a plain 404 page, and so is everything on a
 * domain that is not active. Every answer carries `X-Robots-Tag: noindex, nofollow`. `koa` serves the
 * preview and the password form, as on the short domains.
 */
export function serveOwnDomain(
  deps: HttpDeps,
  cache: LinkCache<RoutedLink>,
  domain: Domain,
  req: IncomingMessage,
  res: ServerResponse,
  koa: (req: IncomingMessage, res: ServerResponse) => unknown,
): void {
  res.setHeader('X-Robots-Tag', NOINDEX);
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const read = req.method === 'GET' || req.method === 'HEAD';
  const slug = domain.state === 'active' ? slugOfPath(url) : null;
  if (domain.state !== 'active') return missing(req, res, url);
  if (read && slug !== null) return handleRedirect(deps, cache, req, res, slug, deps.core.hosts ?? null);
  if ((read && PREVIEW.test(path)) || (req.method === 'POST' && slug !== null)) return void koa(req, res);
  if (!read) return missing(req, res, url);
  if (path === '/') {
    const base = domain.settings.baseRedirect;
    return base === null ? missing(req, res, url) : sendElsewhere(req, res, base);
  }
  if (path === '/robots.txt') {
    return respond(req, res, 200, { 'Content-Type': 'text/plain; charset=utf-8' }, ROBOTS);
  }
  const file = APP_FILES[path];
  const value = file === undefined ? null : domain.settings[file];
  if (value === null || value === undefined) return missing(req, res, url);
  respond(req, res, 200, { 'Content-Type': 'application/json' }, JSON.stringify(value));
}

function missing(req: IncomingMessage, res: ServerResponse, url: string): void {
  const q = url.indexOf('?');
  const language = languageOf(
    q === -1 ? undefined : queryParam(url.slice(q + 1), 'lang'),
    req.headers['accept-language'],
  );
  sendMissing(req, res, language, null);
}
