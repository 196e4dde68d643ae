export { createHttpApp, createHttpServer } from './app.js';
export type { HttpDeps, HttpOptions, Logger, QrRenderer, McpEndpoint } from './deps.js';
export { HTTP_STATUS } from './errors.js';
export { consumeCreations } from './rate-limit.js';
export { createUserAgentParser, isBotUserAgent } from './user-agent.js';
export { buildLlmsTxt } from './llms-txt.js';
export { buildOpenApiDocument } from './openapi.js';
