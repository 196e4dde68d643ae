import type Router from '@koa/router';
import type { Context } from 'koa';
import type { HttpDeps } from './deps.js';
import { HttpInputError } from './errors.js';
import { stateOf } from './koa-helpers.js';
import { readBodyText } from './request.js';
import { settleVisits } from './settle.js';

/**
 * `/mcp` (decisions §8): POST hands the parsed JSON-RPC body to `deps.mcp`, which writes the response
 * itself; GET, DELETE and the rest are 405 with `Allow: POST` (stateless: no SSE stream, no session).
 * Malformed JSON and oversize bodies get a JSON-RPC error body, as MCP clients expect. Without
 * `deps.mcp` nothing is registered and `/mcp` is 404. Registered before the `/:slug` routes.
 */
export function addMcpRoutes(router: Router, deps: HttpDeps): void {
  const endpoint = deps.mcp;
  if (endpoint === undefined) return;

  router.post('/mcp', async (ctx) => {
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
    await settleVisits(deps); // a tool may read clicks or statistics
    ctx.respond = false;
    await endpoint(ctx.req, ctx.res, body, stateOf(ctx).ip);
  });

  const notAllowed = (ctx: Context): void => {
    ctx.set('Allow', 'POST');
    ctx.status = 405; // the app's 405 handler adds the error object
  };
  router.all('/mcp', notAllowed); // every method but POST, which the route above answers
}

function rpcError(ctx: Context, status: number, code: number, message: string): void {
  ctx.status = status;
  ctx.body = { jsonrpc: '2.0', error: { code, message }, id: null };
}
