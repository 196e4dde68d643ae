import type { HttpDeps } from '@shortener/adapter-http';
import { createMcpHttpHandler } from '@shortener/adapter-mcp';
import type { McpDeps } from '@shortener/adapter-mcp';
import { createVisitRecorder } from '@shortener/core';
import type {
  Clock,
  CoreDeps,
  GeoLookup,
  RandomSource,
  Stores,
  UserAgentParser,
  VisitRecorder,
} from '@shortener/core';
import type { AppConfig } from './config.js';
import type { EventRuntime } from './events/event-runtime.js';
import type { AppLogger } from './logger.js';
import type { ServiceMetrics } from './metrics.js';
import type { QrPool } from './qr-pool.js';
import type { RateLimits } from './rate-limits.js';
import type { StoreHealth } from './store-health.js';
import { settleVisits } from './settle-visits.js';

// The factories the container binds (container.ts): what each package's deps are made of, by name.

/**
 * Rows per transaction of a visit flush on PostgreSQL. SQLite keeps the recorder's 250, as its writes
 * run on the event loop; a PostgreSQL write waits off the loop, and each of its transactions costs
 * round trips and a WAL flush, so fewer, larger ones write a long tail faster: the multi-node
 * benchmark's cache-miss case at 1,000 rows measured 1,812 / 1,760 req/s (p99 112 / 114 ms) against
 * 1,077 / 1,124 (p99 197 / 187 ms) at 250, with no loss on the hot rounds (docs/benchmarks.md).
 */
const POSTGRES_ROWS_PER_WRITE = 1_000;

/** The visit recorder, writing larger transactions on PostgreSQL. */
export function createRecorder(
  stores: Stores,
  clock: Clock,
  random: RandomSource,
  userAgents: UserAgentParser,
  geo: GeoLookup | null,
  cfg: AppConfig,
): VisitRecorder {
  return createVisitRecorder({
    visits: stores.visits,
    clock,
    random,
    userAgents,
    geo,
    ...(cfg.store.kind === 'postgres' ? { rowsPerWrite: POSTGRES_ROWS_PER_WRITE } : {}),
  });
}

/** The core's deps: the stores, and visits settled before statistics are read. */
export function createCoreDeps(
  stores: Stores,
  clock: Clock,
  random: RandomSource,
  cfg: AppConfig,
  recorder: VisitRecorder,
  logger: AppLogger,
): CoreDeps {
  return {
    links: stores.links,
    visits: stores.visits,
    accounts: stores.accounts,
    sessions: stores.sessions,
    credentials: stores.credentials,
    clock,
    random,
    config: cfg.service,
    settleVisits: () => settleVisits(recorder, logger),
  };
}

/** The HTTP adapter's deps: `/mcp` served by the MCP handler, `/healthz` by the store health. */
export function createHttpDeps(
  core: CoreDeps,
  recorder: VisitRecorder,
  rateLimiter: RateLimits,
  logger: AppLogger,
  storeHealth: StoreHealth,
  cfg: AppConfig,
  mcpDeps: McpDeps,
  qr: QrPool,
  metrics: ServiceMetrics | null,
  events: EventRuntime,
  userAgents: UserAgentParser,
  geo: GeoLookup | null,
): HttpDeps {
  return {
    core,
    userAgents,
    geo,
    recorder,
    rateLimiter,
    logger,
    options: cfg.http,
    health: () => storeHealth.report(events.brokerConnected()),
    mcp: createMcpHttpHandler(mcpDeps),
    qr: qr.render,
    webhooks: events.webhooks,
    ...(metrics === null ? {} : { metrics: metrics.http }),
  };
}

/** The MCP tools' deps: the JSON API's limiter, so its budgets and guess limits are the same. */
export function createMcpDeps(
  core: CoreDeps,
  rateLimiter: RateLimits,
  logger: AppLogger,
  qr: QrPool,
  metrics: ServiceMetrics | null,
): McpDeps {
  return {
    core,
    logger,
    qr: qr.render,
    rateLimiter,
    ...(metrics === null ? {} : { onLimited: (limit: 'creation' | 'qr') => metrics.http.limited(limit) }),
  };
}
