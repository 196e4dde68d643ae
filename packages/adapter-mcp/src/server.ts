import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { domainError, findUnstorableText, SERVICE_INFO, unstorableTextError } from '@shortener/core';
import type { McpCaller, McpDeps } from './deps.js';
import { addLookupTools } from './lookup-tools.js';
import { addManageTools } from './manage-tools.js';
import { toolError, unavailableResult } from './results.js';
import { toolSchemas } from './schemas.js';
import type { ToolSchemas } from './schemas.js';
import { addShortenTools } from './shorten-tools.js';

/** What a group of tools is registered with: the server, its deps, the caller, the schemas, the guard. */
export interface ToolSet {
  readonly server: McpServer;
  readonly deps: McpDeps;
  readonly caller: McpCaller;
  readonly schemas: ToolSchemas;
  readonly guard: Guard;
}

/**
 * Wraps a tool handler: text no store keeps (a NUL, a lone surrogate) is refused as the HTTP API does;
 * the store away is answered `unavailable`; anything else thrown (a bug) is
 * logged and answered as `internal_error`, instead of the SDK's default of showing the exception's own
 * message to the client.
 */
export type Guard = <A>(
  tool: string,
  handler: (args: A) => Promise<CallToolResult>,
) => (args: A) => Promise<CallToolResult>;

function instructionsOf(deps: McpDeps, caller: McpCaller): string {
  const hosts = deps.core.config.shortDomains.map((d) => d.host).join(', ');
  const who =
    caller.accountId === null
      ? 'You are anonymous: links you create are not saved to an account; keep their edit_token.'
      : 'You are authenticated with an API key: links you create are saved to its account.';
  return [
    `A URL shortener. Short domains: ${hosts}. Use shorten_url to create a short link (check_alias first`,
    'when you want a custom alias), get_link_info to inspect one, qr_code for its QR code; list_links,',
    'update_link, delete_link and link_stats manage the links you made (by id, with your API key or the',
    'link’s edit_token); tag_stats sums the statistics of your links carrying a tag; check_link checks a link’s destinations now.',
    `Failed calls have isError and structuredContent.error.code. ${who}`,
  ].join(' ');
}

/**
 * A new MCP server with the tools of decisions §8 (`shorten_url`, `check_alias`, `get_link_info`,
 * `qr_code`) and §13 (`list_links`, `update_link`, `delete_link`, `link_stats`), §18 (`tag_stats`) acting for `caller`.
 * Stateless: the HTTP transport creates one per request.
 */
export function createMcpServer(deps: McpDeps, caller: McpCaller): McpServer {
  const server = new McpServer(SERVICE_INFO, { instructions: instructionsOf(deps, caller) });
  const guard: Guard = (tool, handler) => async (args) => {
    const unstorable = findUnstorableText(args);
    if (unstorable !== null) return toolError(unstorableTextError(unstorable));
    try {
      return await handler(args);
    } catch (error) {
      const unavailable = unavailableResult(error);
      if (unavailable !== null) return unavailable;
      deps.logger.error('tool failed', { tool, error });
      return toolError(domainError('internal_error'));
    }
  };
  const schemas = toolSchemas(deps.core.config);
  const tools: ToolSet = { server, deps, caller, schemas, guard };
  addShortenTools(tools);
  addLookupTools(tools);
  addManageTools(tools);
  return server;
}
