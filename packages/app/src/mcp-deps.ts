import { consumeCreations, spendPngBudget } from '@shortener/adapter-http';
import type { Admission, McpDeps } from '@shortener/adapter-mcp';
import type { CoreDeps, RateDecision } from '@shortener/core';
import type { AppLogger } from './logger.js';
import type { ServiceMetrics } from './metrics.js';
import type { QrPool } from './qr-pool.js';
import type { RateLimits } from './rate-limits.js';

/** The MCP tools' deps: `shorten_url` spends the same creation budget as the JSON API. */
export function createMcpDeps(
  core: CoreDeps,
  rateLimiter: RateLimits,
  logger: AppLogger,
  qr: QrPool,
  metrics: ServiceMetrics | null,
): McpDeps {
  const limits = { core, rateLimiter, ...(metrics === null ? {} : { metrics: metrics.http }) };
  return {
    core,
    logger,
    qr: qr.render,
    admitCreation: async ({ accountId, ip }) =>
      admissionOf(await consumeCreations(limits, { accountId, editToken: null }, ip, 1)),
    admitQrPng: async ({ ip }, size) => admissionOf(await spendPngBudget(limits, ip, size)),
    rateLimiter,
  };
}

const admissionOf = (decision: RateDecision): Admission => ({
  allowed: decision.allowed,
  retryAfterSeconds: Math.max(1, Math.ceil(decision.retryAfterMs / 1000)),
});
