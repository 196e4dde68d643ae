import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpCaller, McpDeps } from './deps.js';
import { createMcpServer } from './server.js';

/** A running stdio server. */
export interface McpStdioSession {
  /** Resolves once the client has gone (stdin ended or closed) or {@link close} was called. */
  readonly closed: Promise<void>;
  /** Closes the server; stdin is released. */
  close(): Promise<void>;
}

/**
 * Serves the tools over stdio for one local client (`shortener mcp`): newline-delimited JSON-RPC on
 * `stdin`/`stdout`. Nothing else may write to `stdout`; log to stderr.
 */
export async function serveMcpOverStdio(
  deps: McpDeps,
  caller: McpCaller,
  stdin: Readable = process.stdin,
  stdout: Writable = process.stdout,
): Promise<McpStdioSession> {
  const server = createMcpServer(deps, caller);
  const transport = new StdioServerTransport(stdin, stdout);
  let onClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (onClosed = resolve));
  transport.onclose = () => onClosed();
  const close = async (): Promise<void> => {
    stdin.off('end', ended);
    stdin.off('close', ended);
    await server.close();
  };
  // The SDK's transport does not notice the client going away; an ended stdin means it has.
  const ended = (): void => void close();
  stdin.once('end', ended);
  stdin.once('close', ended);
  await server.connect(transport);
  return { closed, close };
}
