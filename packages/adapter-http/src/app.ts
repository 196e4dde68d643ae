import { createServer } from 'node:http';
import type { Server } from 'node:http';
import Router from '@koa/router';
import { domainError } from '@shortener/core';
import Koa from 'koa';
import { addApiRoutes } from './api-routes.js';
import type { HttpDeps } from './deps.js';
import { HttpInputError } from './errors.js';
import { sendError } from './koa-helpers.js';
import { createLinkCache } from './link-cache.js';
import type { LinkCache } from './link-cache.js';
import { addMcpRoutes } from './mcp-routes.js';
import { addPageRoutes } from './page-routes.js';
import { addPublicRoutes } from './public-routes.js';
import { addQrRoutes } from './qr-routes.js';
import { handleRedirect, slugOfPath } from './redirect.js';
import { clientIp, languageOf } from './request.js';

/**
 * The Koa application: every route but the hot redirect path lives here. It never listens. `linkCache`
 * is the redirect path's, which the routes changing links invalidate.
 */
export function createHttpApp(deps: HttpDeps, linkCache: LinkCache = createLinkCache()): Koa {
  const app = new Koa({ proxy: deps.options.trustProxy });
  app.silent = true;
  app.use(async (ctx, next) => {
    ctx.state.language = languageOf(ctx.query.lang, ctx.get('accept-language') || undefined);
    ctx.state.ip = clientIp(ctx.req, deps.options.trustProxy);
    try {
      await next();
    } catch (error) {
      if (error instanceof HttpInputError) {
        // A refused oversize body is left unread: close the connection, or keep-alive reuse would hang.
        if (error.status === 413) ctx.set('Connection', 'close');
        return sendError(ctx, error.domainError, error.status);
      }
      deps.logger.error('request failed', { method: ctx.method, path: ctx.path, error: String(error) });
      sendError(ctx, domainError('internal_error'), 500);
    }
  });
  app.use(async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  });
  app.use(async (ctx, next) => {
    await next();
    if (ctx.status === 405)
      return sendError(ctx, domainError('invalid_request', `${ctx.method} is not allowed here.`), 405);
    if (ctx.status === 404 && (ctx.body === undefined || ctx.body === null) && ctx.respond !== false) {
      sendError(ctx, domainError('not_found', 'Nothing here.'));
    }
  });
  const router = new Router();
  addMcpRoutes(router, deps);
  addApiRoutes(router, deps, linkCache);
  addQrRoutes(router, deps);
  addPageRoutes(router, deps, linkCache);
  addPublicRoutes(router, deps, linkCache);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/**
 * The HTTP server: `GET|HEAD /{slug}` is answered in the request listener itself, before Koa builds a
 * context (Koa costs about half the throughput, stack.md); everything else goes to the Koa app.
 */
export function createHttpServer(deps: HttpDeps): Server {
  const { links } = deps.core;
  const cache = createLinkCache({ externalVersion: links.externalVersion?.bind(links) });
  const callback = createHttpApp(deps, cache).callback();
  return createServer((req, res) => {
    const target = req.method === 'GET' || req.method === 'HEAD' ? slugOfPath(req.url) : null;
    if (target === null) return void callback(req, res);
    handleRedirect(deps, cache, req, res, target);
  });
}
