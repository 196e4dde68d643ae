import { jsonContent, ref } from './openapi-paths.js';
import type { RouteDoc } from '../routes/route-table.js';
import type { Json } from './openapi-schemas.js';

const rpcId = { type: ['string', 'integer', 'null'], description: 'The id of the request answered.' };

/**
 * The JSON-RPC 2.0 envelopes of `POST /mcp`. Every answer to a POST is JSON-RPC, failures included (MCP
 * Streamable HTTP: the client posted a JSON-RPC message and reads a JSON-RPC error); the other methods
 * are ordinary HTTP answers (405 with the error object).
 */
export function jsonRpcSchemas(): Record<string, Json> {
  const error = {
    type: 'object',
    properties: {
      code: {
        type: 'integer',
        description: 'JSON-RPC error code, e.g. -32700 parse error, -32001 unauthorized.',
      },
      message: { type: 'string' },
      data: { description: 'More about the error; `{ "code": "unauthorized" }` for a refused API key.' },
    },
    required: ['code', 'message'],
  };
  return {
    JsonRpcRequest: {
      type: 'object',
      description: 'A JSON-RPC 2.0 request or notification (MCP: initialize, tools/list, tools/call, ...).',
      properties: {
        jsonrpc: { const: '2.0' },
        id: { type: ['string', 'integer'] },
        method: { type: 'string' },
        params: { type: 'object' },
      },
      required: ['jsonrpc', 'method'],
    },
    JsonRpcResult: {
      type: 'object',
      description: 'A JSON-RPC 2.0 response: `result`, or `error` when the request itself failed.',
      properties: { jsonrpc: { const: '2.0' }, id: rpcId },
      required: ['jsonrpc', 'id'],
      oneOf: [
        { properties: { result: { type: 'object' } }, required: ['result'] },
        { properties: { error }, required: ['error'] },
      ],
    },
    JsonRpcError: {
      type: 'object',
      description: 'A JSON-RPC 2.0 error answer; `id` is null when the request could not be read.',
      properties: { jsonrpc: { const: '2.0' }, id: rpcId, error },
      required: ['jsonrpc', 'id', 'error'],
    },
  };
}

const rpcError = (description: string): Json => ({
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
/** The documentation of `POST /mcp` (its route is declared in `api/mcp-routes.ts`). */
export const MCP_DOC: RouteDoc = {
  id: 'mcp',
  summary: 'Model Context Protocol (Streamable HTTP, stateless)',
  description:
    `JSON-RPC 2.0: \`initialize\`, \`tools/list\`, \`tools/call\` with the tools ${TOOLS.map((t) => `\`${t}\``).join(', ')}. ` +
    'Send `Accept: application/json, text/event-stream` and `Content-Type: application/json`. An API key ' +
    'saves created links to the account and lists them; a bad key is refused with 401 and a JSON-RPC ' +
    'error (no `WWW-Authenticate`: there is no OAuth). A browser request from a foreign `Origin` is 403. ' +
    'No server-sent event stream and no sessions: `GET` and `DELETE` answer 405.',
  tag: 'mcp',
  security: [{}, { apiKey: [] }],
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
    401: rpcError('A bad or revoked API key (code -32001, `data.code` `unauthorized`).'),
    403: rpcError('A browser request from an `Origin` that may not call this server.'),
    406: rpcError('The Accept header does not allow application/json and text/event-stream.'),
    413: rpcError('The body is larger than 1 MiB.'),
    415: rpcError('The body is not `application/json`.'),
    500: {
      description: 'An unexpected failure: a JSON-RPC error (code -32603), or the error object.',
      content: jsonContent({ oneOf: [ref('schemas', 'JsonRpcError'), ref('schemas', 'Error')] }),
    },
  },
  common: false,
};
