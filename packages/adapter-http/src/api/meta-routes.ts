import type Router from '@koa/router';
import { TlsAllowedQuery, robotsTxt, tlsAllowed } from '@shortener/core';
import { isIP } from 'node:net';
import type { HttpDeps } from '../deps.js';
import { perServer } from '../deps.js';
import { jsonContent, ref, textContent } from '../openapi/openapi-paths.js';
import { mountRoutes, route } from '../routes/route-table.js';
import type { AnyRoute, RouteDoc } from '../routes/route-table.js';
import { METRICS_ALLOW } from '../server/metrics-allow.js';
import { refuseMethod } from '../server/methods.js';
import { buildLlmsTxt } from './llms-txt.js';

const meta = (id: string, summary: string, description: string, responses: RouteDoc['responses']) => ({
  id,
  summary,
  description,
  tag: 'meta',
  responses,
});

/** Whether the TCP peer is this machine (127.0.0.0/8, ::1, or either mapped), never a forwarded header. */
function isLoopbackPeer(address: string | undefined): boolean {
  const bare = (address ?? '').replace(/^::ffff:/i, '');
  if (isIP(bare) === 4) return bare.startsWith('127.');
  return bare === '::1';
}

/** The summary, built once per server: it depends only on its settings. */
const llmsTxtOf = perServer((deps) => buildLlmsTxt(deps.core.config));

/** `/healthz`, `/metrics` (when served on this port), `/llms.txt` and `/robots.txt` (`/openapi.json`: route-tables.ts). */
export const META_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/tls/allowed',
    area: 'public',
    access: 'anyone',
    query: TlsAllowedQuery,
    enabled: (deps) => deps.domains !== undefined,
    doc: meta(
      'getTlsAllowed',
      'May this server get a certificate for a host',
      'Caddy’s `on_demand_tls { ask … }` endpoint (docs/production.md): 200 for an active own domain of an ' +
        'account and for this instance’s own hosts, 404 for anything else. It answers only a TCP peer on a ' +
        'loopback address (Caddy on the same machine); any other peer gets 404, whatever its forwarded headers say.',
      {
        200: {
          description: 'A certificate may be obtained for `domain`.',
          content: textContent('text/plain'),
        },
        404: {
          description: 'Not for `domain`, or not asked from a loopback address.',
          content: textContent('text/plain'),
        },
      },
    ),
    handle: async (ctx, { deps, query }) => {
      const allowed =
        isLoopbackPeer(ctx.req.socket.remoteAddress) && deps.domains !== undefined
          ? await tlsAllowed(deps.domains, query.domain)
          : false;
      ctx.status = allowed ? 200 : 404;
      ctx.type = 'text/plain';
      ctx.body = allowed ? 'allowed\n' : 'not allowed\n';
    },
  }),
  route({
    method: 'get',
    path: '/healthz',
    area: 'public',
    access: 'anyone',
    doc: meta(
      'getHealth',
      'Health check',
      'Whether this node can serve, for a load balancer: its store answers and writes. What it serves ' +
        'without (Redis, the broker) is reported in the body, never a 503.',
      {
        200: { description: 'The node serves.', content: jsonContent(ref('schemas', 'Health')) },
        503: {
          description: 'The store does not answer or cannot write; `reason` says what.',
          content: jsonContent(ref('schemas', 'Health')),
        },
      },
    ),
    handle: async (ctx, { deps }) => {
      const health = await deps
        .health()
        .catch(() => ({ ok: false, reason: 'the health check failed' }) as const);
      ctx.status = health.ok ? 200 : 503;
      if (!health.ok) return void (ctx.body = { status: 'unavailable', reason: health.reason });
      // the broker (AMQP_URL) and Redis are only reported: the node serves while they are away
      const { ok: _ok, ...details } = health;
      ctx.body = { status: 'ok', ...details };
    },
  }),
  route({
    method: 'get',
    path: '/metrics',
    area: 'public',
    access: 'anyone',
    // listed when this server serves it; otherwise `/metrics` is a slug like any other
    enabled: (deps) => deps.metrics?.exposition !== undefined,
    doc: meta(
      'getMetrics',
      'Prometheus metrics',
      'Served because the operator set `METRICS=true` (without `METRICS_PORT`): counters and ' +
        'latencies in Prometheus text format, never an address or a slug.',
      { 200: { description: 'The metrics.', content: textContent('text/plain') } },
    ),
    handle: async (ctx, { deps }) => {
      const exposition = deps.metrics?.exposition;
      if (exposition === undefined) return;
      const { contentType, body } = await exposition();
      ctx.set('Cache-Control', 'no-store');
      ctx.type = contentType;
      ctx.body = body;
    },
  }),
  route({
    method: 'get',
    path: '/llms.txt',
    area: 'public',
    access: 'anyone',
    doc: meta('getLlmsTxt', 'Summary for AI clients', 'Markdown per the llms.txt convention.', {
      200: { description: 'The summary.', content: textContent('text/markdown') },
    }),
    handle: (ctx, { deps }) => {
      ctx.type = 'text/markdown; charset=utf-8';
      ctx.body = llmsTxtOf(deps);
    },
  }),
  route({
    method: 'get',
    path: '/robots.txt',
    area: 'public',
    onShortDomains: true,
    access: 'anyone',
    doc: meta(
      'getRobotsTxt',
      'Robots rules of a short domain',
      'Disallows everything on the short domain named by the Host header except the short URLs of its ' +
        'crawlable links (`Allow: /{slug}$`; decisions §15).',
      { 200: { description: 'The rules.', content: textContent('text/plain') } },
    ),
    handle: async (ctx, { deps }) => {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = await robotsTxt(deps.core, ctx.host);
    },
  }),
];

/** The meta routes, with `/metrics` refusing other methods (before the `/:slug` routes, which take POST). */
export function addMetaRoutes(router: Router, deps: HttpDeps): void {
  mountRoutes(router, deps, META_ROUTES);
  if (deps.metrics?.exposition !== undefined)
    router.all('/metrics', (ctx) => refuseMethod(ctx, METRICS_ALLOW));
}
