import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { HttpDeps, HttpMetrics, RouteFamily } from '../deps.js';
import { refuseMethod } from '../server/methods.js';

const META = new Set(['/healthz', '/openapi.json', '/llms.txt', '/metrics']);

/** The family of a Koa request for latency histograms: a handful of values, never the path itself. */
export function routeFamily(path: string): RouteFamily {
  if (path.startsWith('/api/')) return 'api';
  if (path === '/mcp') return 'mcp';
  if (META.has(path)) return 'meta';
  if (path.startsWith('/assets/')) return 'assets';
  if (/^\/[^/]+\.(?:png|svg)$/.test(path)) return 'qr';
  if (path === '/' || /^\/[^/]+(?:\+|%2[Bb]|\.json)?$/.test(path)) return 'pages';
  return 'other';
}

/** Times every request Koa answers, by route family (the redirect path times its own). */
export function measureRequests(metrics: HttpMetrics): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      metrics.requestServed(routeFamily(ctx.path), (performance.now() - started) / 1000);
    }
  };
}

/** The methods `/metrics` takes, wherever it is served. */
export const METRICS_ALLOW = 'GET, HEAD';

/** `GET /metrics` in Prometheus text format (HEAD too; other methods 405), when the metrics are served on this server's port. */
export function addMetricsRoute(router: Router, deps: HttpDeps): void {
  const exposition = deps.metrics?.exposition;
  if (exposition === undefined) return;
  router.get('/metrics', async (ctx) => {
    const { contentType, body } = await exposition();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = body;
  });
  // before the `/:slug` routes, which take POST (the password form) and would answer a link's 404
  router.all('/metrics', (ctx) => refuseMethod(ctx, METRICS_ALLOW));
}
