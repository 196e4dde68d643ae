import type { Middleware } from 'koa';
import type { HttpMetrics, RouteFamily } from '../deps.js';

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
