import { limitEditTokenGuesses } from './token-guesses.js';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Router from '@koa/router';
import { domainError, hostWithoutPort } from '@shortener/core';
import Koa from 'koa';
import { addMetaRoutes } from './api/meta-routes.js';
import { answerClientError, refuseConnect } from './server/client-errors.js';
import type { HttpDeps } from './deps.js';
import { HTTP_STATUS, HttpInputError, RETRY_AFTER_SECONDS, errorBody, unavailableError } from './errors.js';
import { sendError, setHeaders, stateOf } from './koa-helpers.js';
import { notFoundPage } from './pages/basic-pages.js';
import { ACCOUNT_PAGE_HEADERS } from './pages/layout.js';
import { linkCacheOf } from './public/routing.js';
import {
  DEFAULT_SERVER_LIMITS,
  behindNoProxy,
  capConnections,
  serverOptionsOf,
} from './server/connection-limits.js';
import type { ServerLimits } from './server/connection-limits.js';
import { afterRequest, drainStateOf, onRequest } from './server/drain.js';
import { addMcpRoutes } from './api/mcp-routes.js';
import { methodRules } from './server/methods.js';
import { noteOtherOrphan } from './server/orphan-visits.js';
import { indexedRoutes } from './server/route-index.js';
import { measureRequests } from './api/metrics-routes.js';
import { mountRoutes } from './routes/route-table.js';
import { ROUTE_TABLES } from './route-tables.js';
import { refuseLongQueries, useBoundedQuery } from './server/query.js';
import { serveOwnDomain } from './public/own-domain.js';
import { handleRedirect, slugOfPath } from './public/redirect.js';
import { respond } from './public/redirect-answers.js';
import { clientOf, languageOf } from './request.js';
import { PARSER_OPTIONS, answerHalfClosedRequests, hostProblem } from './server/wire-rules.js';

/** Two years, the preload list's figure; subdomains are left to the operator (they may not be https). */
const HSTS = 'max-age=63072000';

/** Whether a request is a browser's for a page: a GET or HEAD outside the APIs that accepts HTML. */
function wantsPage(ctx: Koa.Context): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  if (ctx.path.startsWith('/api/') || ctx.path === '/mcp' || ctx.path === '/metrics') return false;
  return /\btext\/html\b/.test(ctx.get('accept'));
}

/**
 * The Koa application: every route but the hot redirect path lives here, each declared once in a route
 * table (routes/route-table.ts) that `/openapi.json` documents too. It never listens.
 */
export function createHttpApp(deps: HttpDeps): Koa {
  // Koa's own proxy support believes the leftmost X-Forwarded-For entry and X-Forwarded-Host: off, the
  // client comes from clientOf (decisions §9) and the Host header is the proxy's to pass on.
  const app = new Koa({ proxy: false });
  app.silent = true;
  useBoundedQuery(app);
  if (deps.metrics !== undefined) app.use(measureRequests(deps.metrics));
  app.use(answerFailures(deps));
  // before anything that answers, so every answer carries them (a refused query string included)
  app.use(securityHeaders(deps));
  app.use(refuseLongQueries);
  app.use(answerMissingOf(deps));
  app.use(methodRules());
  app.use(limitEditTokenGuesses(deps));
  app.use(indexedRoutes(routerOf(deps)));
  return app;
}

/** Reads the request's language and client, and turns what the routes throw into an error answer. */
function answerFailures(deps: HttpDeps): Koa.Middleware {
  return async (ctx, next) => {
    ctx.state.language = languageOf(ctx.query.lang, ctx.get('accept-language') || undefined);
    const client = clientOf(deps.options, ctx.req);
    ctx.state.ip = client.ip;
    ctx.state.protocol = client.protocol;
    try {
      await next();
    } catch (error) {
      if (error instanceof HttpInputError) {
        // A refused oversize body is left unread: close the connection, or keep-alive reuse would hang.
        if (error.status === 413) ctx.set('Connection', 'close');
        return sendError(ctx, error.domainError, error.status);
      }
      // the store away: not a bug, and not logged per request (the failing flushes are)
      const unavailable = unavailableError(error);
      if (unavailable !== null) {
        ctx.set('Retry-After', RETRY_AFTER_SECONDS);
        return sendError(ctx, unavailable, HTTP_STATUS.unavailable);
      }
      deps.logger.error('request failed', { method: ctx.method, path: ctx.path, error: String(error) });
      sendError(ctx, domainError('internal_error'), 500);
    }
  };
}

/** The headers of every answer: no sniffing, no framing, and HSTS where the client came over https. */
function securityHeaders(deps: HttpDeps): Koa.Middleware {
  const hsts = baseIsHttps(deps);
  const direct = behindNoProxy(deps.options.trustProxy);
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    // HSTS on every answer of an https {base_url} (decisions §14); behind a trusted proxy, only when it
    // says the client came over https (RFC 6797: never over plain http)
    if (hsts && (direct || stateOf(ctx).protocol === 'https')) ctx.set('Strict-Transport-Security', HSTS);
    await next();
  };
}

/** The error body of a 405, and of a 404 no route answered (the 404 page for a browser). */
const answerMissingOf =
  (deps: HttpDeps): Koa.Middleware =>
  async (ctx, next) => {
    await next();
    if (ctx.status === 405)
      return sendError(ctx, domainError('invalid_request', `${ctx.method} is not allowed here.`), 405);
    if (ctx.status === 404 && (ctx.body === undefined || ctx.body === null) && ctx.respond !== false) {
      noteOtherOrphan(deps, ctx);
      if (!wantsPage(ctx)) return sendError(ctx, domainError('not_found', 'Nothing here.'));
      // a browser asking for a page that is not there (`/docs`, `/settings`…) gets the 404 page
      setHeaders(ctx, ACCOUNT_PAGE_HEADERS);
      ctx.status = 404;
      ctx.body = notFoundPage(stateOf(ctx).language);
    }
  };

/** Every route: `/metrics`, `/healthz` and the like, `/mcp`, then the route tables (`/openapi.json` first). */
function routerOf(deps: HttpDeps): Router {
  const router = new Router();
  addMetaRoutes(router, deps);
  addMcpRoutes(router, deps);
  for (const table of ROUTE_TABLES) mountRoutes(router, deps, table);
  return router;
}

/**
 * The HTTP server: `GET|HEAD /{slug}` is answered in the request listener itself, before Koa builds a
 * context (Koa costs about half the throughput, stack.md); everything else goes to the Koa app. Its
 * timeouts and connection caps are `limits`.
 */
export function createHttpServer(deps: HttpDeps, limits: ServerLimits = DEFAULT_SERVER_LIMITS): Server {
  const cache = linkCacheOf(deps);
  const callback = createHttpApp(deps).callback();
  const server = createServer({ ...serverOptionsOf(limits), ...PARSER_OPTIONS });
  answerHalfClosedRequests(server);
  const drain = drainStateOf(server);
  // `/metrics` looks like a slug: with the metrics on this port, Koa answers it (`metrics` is reserved then)
  const metricsHere = deps.metrics?.exposition !== undefined;
  const secure = overHttps(deps);
  const hosts = deps.core.hosts;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    onRequest(drain, res);
    const problem = hostProblem(req);
    // an account's own domain serves its links and little else (decisions §20); with none, one size check
    const own =
      problem !== null || hosts === undefined || hosts.size === 0
        ? undefined
        : hosts.get(hostWithoutPort(req.headers.host));
    if (own !== undefined) {
      serveOwnDomain(deps, cache, own, req, res, callback);
      return afterRequest(drain, res);
    }
    const routed = problem === null && (req.method === 'GET' || req.method === 'HEAD');
    const path = routed ? slugOfPath(req.url) : null;
    // matched on the path alone: `/metrics?x=1` and `/Metrics` are the metrics too
    const target = metricsHere && path?.slug.toLowerCase() === 'metrics' ? null : path;
    // Koa sends its own HSTS; the answers given here (redirects, link pages, their errors, the Host
    // refusal) get the same constant header over https
    if (problem === null && target === null) void callback(req, res);
    else if (secure?.(req) === true) res.setHeader('Strict-Transport-Security', HSTS);
    if (problem !== null) refuseHost(req, res, problem);
    // not an own domain (looked up above): the short domains alone
    else if (target !== null) handleRedirect(deps, cache, req, res, target, null);
    afterRequest(drain, res);
  });
  server.on('clientError', answerClientError);
  server.on('connect', refuseConnect);
  capConnections(server, limits, {
    logger: deps.logger,
    perAddress: behindNoProxy(deps.options.trustProxy),
    ipv6PrefixBits: deps.core.config.limits.ipv6PrefixBits,
  });
  return server;
}

const baseIsHttps = (deps: HttpDeps): boolean => new URL(deps.core.config.baseUrl).protocol === 'https:';

/**
 * Whether a request came over https, for HSTS outside Koa (decisions §9, §14): null when the answer is
 * always no (an http {base_url}). With no trusted proxy the scheme cannot be read, and an https
 * {base_url} says TLS ends in front of this server: always yes, a constant. Behind a trusted proxy, what
 * it says (RFC 6797: never over plain http).
 */
function overHttps(deps: HttpDeps): ((req: IncomingMessage) => boolean) | null {
  if (!baseIsHttps(deps)) return null;
  if (behindNoProxy(deps.options.trustProxy)) return () => true;
  return (req) => clientOf(deps.options, req).protocol === 'https';
}

/** The 400 of a request without a single Host (RFC 9112 §3.2), before any routing; the connection closes. */
function refuseHost(req: IncomingMessage, res: ServerResponse, message: string): void {
  const language = languageOf(undefined, req.headers['accept-language']);
  res.shouldKeepAlive = false;
  respond(
    req,
    res,
    400,
    { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff' },
    JSON.stringify(errorBody(domainError('invalid_request', message), language)),
  );
}
