import type Router from '@koa/router';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { perServer } from '../deps.js';
import { MCP_DOC } from '../openapi/openapi-mcp.js';
import { mountRoutes, route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { HttpInputError } from '../errors.js';
import { stateOf } from '../koa-helpers.js';
import { refuseMethod } from '../server/methods.js';
import { readBodyText } from '../request.js';

/**
 * `/mcp` (decisions §8): POST hands the parsed JSON-RPC body to `deps.mcp`, which writes the response
 * itself; GET, DELETE and the rest are 405 with `Allow: POST` (stateless: no SSE stream, no session).
 * Malformed JSON and oversize bodies get a JSON-RPC error body, as MCP clients expect, and so does a
 * browser request from a foreign origin (403). Without
 * `deps.mcp` nothing is registered and `/mcp` is 404. Registered before the `/:slug` routes.
 */
export const MCP_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'post',
    path: '/mcp',
    area: 'public',
    access: 'anyone',
    enabled: (deps) => deps.mcp !== undefined,
    doc: MCP_DOC,
    handle: (ctx, { deps }) => answerMcp(ctx, deps),
  }),
];

/** `/mcp`: the route, and 405 with `Allow: POST` for every other method (registered before `/:slug`). */
export function addMcpRoutes(router: Router, deps: HttpDeps): void {
  if (deps.mcp === undefined) return;
  mountRoutes(router, deps, MCP_ROUTES);
  router.all('/mcp', (ctx) => refuseMethod(ctx)); // every method but POST, which the route above answers
}

const originChecks = perServer(mcpOriginCheck);

async function answerMcp(ctx: Context, deps: HttpDeps): Promise<void> {
  const endpoint = deps.mcp;
  if (endpoint === undefined) return;
  const origin = ctx.get('origin');
  if (origin !== '' && !originChecks(deps)(origin)) {
    return rpcError(ctx, 403, -32000, `Origin ${origin} may not call this MCP server.`);
  }
  let text: string;
  try {
    text = await readBodyText(ctx.req);
  } catch (error) {
    if (!(error instanceof HttpInputError)) throw error;
    ctx.set('Connection', 'close');
    return rpcError(ctx, error.status, -32600, error.message);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return rpcError(ctx, 400, -32700, 'Parse error: the body is not valid JSON.');
  }
  ctx.respond = false;
  await endpoint(ctx.req, ctx.res, body, stateOf(ctx).ip);
}

/**
 * DNS-rebinding protection (MCP transport spec, decisions §9): a browser request's `Origin` must be
 * {base_url}'s, a short domain's, or one of `MCP_ALLOWED_ORIGINS`. Clients that send no `Origin` (every
 * non-browser client) are not affected.
 */
function mcpOriginCheck(deps: HttpDeps): (origin: string) => boolean {
  const { config } = deps.core;
  const allowed = new Set(
    [
      new URL(config.baseUrl).origin,
      ...config.shortDomains.map((d) => d.origin),
      ...deps.options.mcpAllowedOrigins,
    ].map((origin) => origin.toLowerCase()),
  );
  return (origin) => allowed.has(origin.trim().toLowerCase());
}

function rpcError(ctx: Context, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id: null };
}
