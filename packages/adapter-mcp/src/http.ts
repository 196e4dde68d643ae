import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  ANONYMOUS,
  actingFor,
  authenticateApiKey,
  domainError,
  err,
  isStoreUnavailable,
  keyCaller,
  ok,
} from '@shortener/core';
import type { Caller, CoreDeps, DomainError, Result } from '@shortener/core';
import type { McpDeps } from './deps.js';
import { createMcpServer } from './server.js';

/**
 * Answers one `POST /mcp`: `body` is the parsed JSON-RPC message (or batch) and `ip` the client address
 * the HTTP adapter determined (it owns the proxy settings); the creation limits are keyed by it.
 */
export type McpHttpHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
  ip: string,
) => Promise<void>;

/** JSON-RPC's "server error" range code this adapter uses for a refused API key. */
export const UNAUTHORIZED_RPC_CODE = -32001;

/**
 * The Streamable HTTP endpoint, stateless (stack.md): every request gets a new server and transport,
 * answered with plain JSON rather than SSE, and both are closed when the response closes.
 *
 * Auth: `Authorization: Bearer shk_…` makes the calls act for the key's account; no header means
 * anonymous. A malformed, unknown or revoked key is refused before any JSON-RPC handling with HTTP 401
 * and a JSON-RPC error body (code -32001, the request's id when there is one, `data.code`
 * `unauthorized`) whose message says what to do: MCP clients show that body as the failure's text. No
 * `WWW-Authenticate`: MCP clients read a Bearer challenge as the start of an OAuth flow, which this
 * server does not offer. Anything thrown is logged and answered 500 with JSON-RPC -32603.
 */
export function createMcpHttpHandler(deps: McpDeps): McpHttpHandler {
  return async (req, res, body, ip) => {
    // JSON-RPC 2.0 §6: an empty batch is one Invalid Request error, not an empty answer
    if (Array.isArray(body) && body.length === 0)
      return answer(res, 400, { jsonrpc: '2.0', error: EMPTY_BATCH, id: null });
    try {
      const caller = await callerOfRequest(deps.core, req);
      if (!caller.ok && caller.error.code === 'not_found')
        return answer(res, 404, rpcError(UNAUTHORIZED_RPC_CODE, caller.error, body));
      if (!caller.ok) {
        const refused = { ...caller.error, message: `${caller.error.message} ${WHAT_TO_DO}` };
        return answer(res, 401, rpcError(UNAUTHORIZED_RPC_CODE, refused, body));
      }
      const { editToken: _none, ...acting } = caller.value;
      const server = createMcpServer(deps, { ...acting, ip });
      // No sessionIdGenerator: stateless mode, no Mcp-Session-Id.
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      const response = await transport.handleRequest(webRequestOf(req), { parsedBody: body });
      await send(res, response, Array.isArray(body));
    } catch (error) {
      // the store away while checking the API key: not a bug
      const away = isStoreUnavailable(error);
      if (!away) deps.logger.error('mcp request failed', { error });
      if (res.headersSent) return void res.destroy();
      if (away) res.setHeader('Retry-After', '5');
      answer(
        res,
        away ? 503 : 500,
        rpcError(
          -32603,
          away ? domainError('unavailable', error.message) : domainError('internal_error'),
          body,
        ),
      );
    }
  };
}

const EMPTY_BATCH = { code: -32600, message: 'Invalid Request: the batch is empty.' };

const WHAT_TO_DO =
  'Send a live API key from the operator as Authorization: Bearer shk_…, or no Authorization header ' +
  'to use the tools anonymously.';

/**
 * The caller of a request: a key's account with the key's role and limits, acting for the team that
 * `Shortener-Account` names when the key is a person's (decisions §21); anonymous without a key.
 */
async function callerOfRequest(core: CoreDeps, req: IncomingMessage): Promise<Result<Caller>> {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === '') return ok(ANONYMOUS);
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match?.[1]) return err(domainError('unauthorized', 'Use Authorization: Bearer <API key>.'));
  const key = await authenticateApiKey(core, match[1]);
  if (!key.ok) return key;
  const caller = keyCaller(key.value, key.value.account, null);
  const acting = req.headers['shortener-account'];
  const name = (Array.isArray(acting) ? acting[0] : acting)?.trim() ?? '';
  return name === '' ? ok(caller) : actingFor(core, caller, name);
}

function rpcError(code: number, error: DomainError, body: unknown) {
  const detail = { code, message: `${error.message} (${error.code})`, data: { code: error.code } };
  return { jsonrpc: '2.0', error: detail, id: idOf(body) };
}

/**
 * The request as the SDK's transport reads it: method and headers (the body is already parsed). The URL
 * is only passed on to tools, which do not read it: a fixed origin, since `Host` is the client's to write.
 */
function webRequestOf(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request(new URL(req.url ?? '/mcp', 'http://localhost'), {
    method: req.method ?? 'POST',
    headers,
  });
}

/**
 * Writes the transport's answer. A batch is answered with an array (JSON-RPC 2.0 §6), even a batch of one
 * request, which the SDK (1.x) answers with the bare response object; a refused batch (400, one error
 * object) stays as it is.
 */
async function send(res: ServerResponse, response: Response, batch: boolean): Promise<void> {
  let body = response.body === null ? null : Buffer.from(await response.arrayBuffer());
  if (batch && response.status === 200 && body !== null) {
    const answered: unknown = JSON.parse(body.toString('utf8'));
    if (!Array.isArray(answered)) body = Buffer.from(JSON.stringify([answered]));
  }
  const headers: Record<string, string> = Object.fromEntries(response.headers);
  if (body !== null) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}

function answer(res: ServerResponse, status: number, payload: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(payload));
}

function idOf(body: unknown): string | number | null {
  const id = typeof body === 'object' && body !== null && 'id' in body ? body.id : null;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
