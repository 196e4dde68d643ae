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
