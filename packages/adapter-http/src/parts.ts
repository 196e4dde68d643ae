// The parts of the HTTP adapter that the composition root needs without a server: the server's default
// limits and the trusted-proxy setting (configuration), the user-agent parser and bot test (visits,
// imports), the metrics port's wire rules. An entry point of their own, `@shortener/adapter-http/parts`,
// so that a command-line command loads none of Koa, the routes or the pages.
export { DEFAULT_SERVER_LIMITS } from './server/connection-limits.js';
export { parseTrustProxy } from './server/client-address.js';
export { createUserAgentParser, isBotUserAgent } from './server/user-agent.js';
export { METRICS_ALLOW } from './server/metrics-allow.js';
export { answerHalfClosedRequests } from './server/wire-rules.js';
