import type Router from '@koa/router';
import type { HttpDeps } from '../deps.js';
import { buildOpenApiDocument } from '../openapi/openapi.js';
import { mountRoutes } from '../routes/route-table.js';
import { API_ROUTES } from './api-table.js';
import { buildLlmsTxt } from './llms-txt.js';

/** The JSON API under `/api/v1` and the plain-text `/api/shorten` (interface §4), and the documents. */
export function addApiRoutes(router: Router, deps: HttpDeps): void {
  mountRoutes(router, deps, API_ROUTES);
  const metrics = deps.metrics?.exposition !== undefined;
  const openApi = JSON.stringify(buildOpenApiDocument(deps.core.config, { metrics }));
  const llmsTxt = buildLlmsTxt(deps.core.config);
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = openApi;
  });
  router.get('/llms.txt', (ctx) => {
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.body = llmsTxt;
  });

  router.get('/healthz', async (ctx) => {
    const health = await deps
      .health()
      .catch(() => ({ ok: false, reason: 'the health check failed' }) as const);
    ctx.status = health.ok ? 200 : 503;
    ctx.body = health.ok ? { status: 'ok' } : { status: 'unavailable', reason: health.reason };
  });
}
