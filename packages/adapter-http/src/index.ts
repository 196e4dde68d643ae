export { createHttpApp, createHttpServer } from './app.js';
export { DEFAULT_SERVER_LIMITS } from './server/connection-limits.js';
export type { ServerLimits } from './server/connection-limits.js';
export { drainHttpServer } from './server/drain.js';
export { METRICS_ALLOW } from './server/metrics-allow.js';
export { answerHalfClosedRequests } from './server/wire-rules.js';
export type {
  HealthReport,
  HttpDeps,
  HttpSso,
  HttpMetrics,
  HttpOptions,
  Logger,
  QrImage,
  QrRenderer,
  McpEndpoint,
  RouteFamily,
} from './deps.js';
export { HTTP_STATUS } from './errors.js';
export { createClientAddressResolver, normalizeAddress, parseTrustProxy } from './server/client-address.js';
export type { ClientAddress, TrustProxy } from './server/client-address.js';
export { createUserAgentParser, isBotUserAgent } from './server/user-agent.js';
export { buildLlmsTxt } from './api/llms-txt.js';
export { buildOpenApiDocument } from './route-tables.js';
