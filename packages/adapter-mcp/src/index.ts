export type { McpCaller, McpDeps, McpLogger, McpQrRenderer } from './deps.js';
export { UNAUTHORIZED_RPC_CODE, createMcpHttpHandler } from './http.js';
export type { McpHttpHandler } from './http.js';
export { ToolErrorSchema, toolError, toolResult, withErrorBranch } from './results.js';
export type { ToolError } from './results.js';
export { createMcpServer } from './server.js';
export type { Guard } from './server.js';
export { serveMcpOverStdio } from './stdio.js';
export type { McpStdioSession } from './stdio.js';
