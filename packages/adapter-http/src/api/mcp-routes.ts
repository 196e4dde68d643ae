import type Router from '@koa/router';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { perServer } from '../deps.js';
import { jsonContent, ref } from '../openapi/openapi-paths.js';
import type { Json } from '../openapi/openapi-schemas.js';
import { mountRoutes, route } from '../routes/route-table.js';
import type { AnyRoute, RouteDoc } from '../routes/route-table.js';
import { HttpInputError } from '../errors.js';
import { stateOf } from '../koa-helpers.js';
import { refuseMethod } from '../server/methods.js';
import { readBodyText } from '../request.js';

const rpcErrorDoc = (description: string): Json => ({
  description: `${description} Body: a JSON-RPC error.`,
  content: jsonContent(ref('schemas', 'JsonRpcError')),
});

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'example-client', version: '1.0.0' },
  },
};

const TOOLS = [
  'shorten_url',
  'check_alias',
  'get_link_info',
  'qr_code',
  'list_links',
  'update_link',
  'delete_link',
  'link_stats',
];

/** `/mcp`: POST only; GET and DELETE are 405 like every method a path does not list. */
const MCP_DOC: RouteDoc = {
  id: 'mcp',
  summary: 'Model Context Protocol (Streamable HTTP, stateless)',
  description:
    `JSON-RPC 2.0: \`initialize\`, \`tools/list\`, \`tools/call\` with the tools ${TOOLS.map((t) => `\`${t}\``).join(', ')}. ` +
    'Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`. An API key ' +
    'saves created links to the account and lists them (with `Shortener-Account`, a team’s, with the ' +
    'person’s role there; tools the key’s role may not use answer `isError` `forbidden`); a bad key is ' +
    'refused with 401 and a JSON-RPC ' +
    'error (no `WWW-Authenticate`: there is no OAuth). A browser request from a foreign `Origin` is 403. ' +
    'No server-sent event stream and no sessions: `GET` and `DELETE` answer 405.',
  tag: 'mcp',
  security: [{}, { apiKey: [] }],
  parameters: [ref('parameters', 'account')],
  body: {
    oneOf: [
      ref('schemas', 'JsonRpcRequest'),
      {
        type: 'array',
        description: 'A batch, answered with an array (even a batch of one).',
        items: ref('schemas', 'JsonRpcRequest'),
        minItems: 1,
        maxItems: 100,
      },
    ],
  },
  example: INITIALIZE,
  responses: {
    200: {
      description: 'The JSON-RPC response (an array of them for a batch).',
      content: jsonContent({
        oneOf: [ref('schemas', 'JsonRpcResult'), { type: 'array', items: ref('schemas', 'JsonRpcResult') }],
      }),
    },
    202: { description: 'Only notifications or responses were posted: accepted, no body.' },
    400: {
      description:
        'Malformed JSON or JSON-RPC (a JSON-RPC error), or more than 100 query parameters (the error object).',
      content: jsonContent({ oneOf: [ref('schemas', 'JsonRpcError'), ref('schemas', 'Error')] }),
    },
    401: rpcErrorDoc('A bad or revoked API key (code -32001, `data.code` `unauthorized`).'),
    403: rpcErrorDoc('A browser request from an `Origin` that may not call this server.'),
    404: rpcErrorDoc(
      '`Shortener-Account` names a team the key’s person is not in (code -32001, `data.code` `not_found`).',
    ),
    406: rpcErrorDoc('The Accept header does not allow application/json and text/event-stream.'),
    413: rpcErrorDoc('The body is larger than 1 MiB.'),
    415: rpcErrorDoc('The body is not `application/json`.'),
    500: {
      description: 'An unexpected failure: a JSON-RPC error (code -32603), or the error object.',
      content: jsonContent({ oneOf: [ref('schemas', 'JsonRpcError'), ref('schemas', 'Error')] }),
    },
  },
  common: false,
};

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
