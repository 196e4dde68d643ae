export { createHttpApp, createHttpServer } from './app.js';
export { DEFAULT_SERVER_LIMITS } from './connection-limits.js';
export type { ServerLimits } from './connection-limits.js';
export { drainHttpServer } from './drain.js';
export { METRICS_ALLOW } from './metrics-routes.js';
export { answerHalfClosedRequests } from './wire-rules.js';
export type {
  HealthReport,
  HttpDeps,
  HttpMetrics,
  HttpOptions,
  Logger,
  QrImage,
  QrRenderer,
  McpEndpoint,
  RouteFamily,
} from './deps.js';
export { HTTP_STATUS } from './errors.js';
export { createClientAddressResolver, normalizeAddress, parseTrustProxy } from './client-address.js';
export type { ClientAddress, TrustProxy } from './client-address.js';
export { consumeCreations } from './rate-limit.js';
export { spendPngBudget } from './qr-routes.js';
export { createUserAgentParser, isBotUserAgent } from './user-agent.js';
export { buildLlmsTxt } from './llms-txt.js';
export { buildOpenApiDocument } from './openapi.js';
