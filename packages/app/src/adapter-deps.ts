import { createServedHosts, createVisitRecorder } from '@shortener/core';
import { ssoOf } from './sso.js';
import type { Services } from './container.js';
import { isBotUserAgent } from '@shortener/adapter-http/parts';
import type { HttpSso, McpEndpoint } from '@shortener/adapter-http';
import { createImportRuntime } from './imports/import-runtime.js';
import { createPublicFetch } from './imports/public-fetch.js';
import { settleVisits } from './settle-visits.js';
import { rememberedSecret } from './shared-secret.js';

/** The setting holding the secret `Idempotency-Key` runs derive their randomness under (decisions §25). */
const IDEMPOTENCY_SECRET_SETTING = 'idempotency_key_secret';

// The factories the container binds (container.ts): what each package's deps are made of. Each takes
// the bindings its parameters name, typed by the container's Services.

type S = Services;

/**
 * Rows per transaction of a visit flush on PostgreSQL: a PostgreSQL write waits off the loop, and each
 * of its transactions costs round trips and a WAL flush, so fewer, larger ones write a long tail faster:
 * the multi-node benchmark's cache-miss case at 1,000 rows measured 1,812 / 1,760 req/s (p99 112 / 114
 * ms) against 1,077 / 1,124 (p99 197 / 187 ms) at 250, with no loss on the hot rounds
 * (docs/benchmarks.md).
 */
const POSTGRES_ROWS_PER_WRITE = 1_000;

/**
 * Rows per transaction of a visit flush on SQLite. Its writes run on the event loop, but since the flush
 * only appends to the visit log (issue 29) a part of 2,500 rows takes a few ms, and every commit writes
 * the pages it dirtied to the WAL (the log's last page, its `link_id` index, the visitor set), which the
 * checkpointer copies again: at 250 rows (the recorder's default, from when a flush updated every
 * link's row) the cache-miss case at 1,000,000 links measured 11,578-13,933 req/s with p99 25-34 ms
 * and about 16 KB written per redirect; at 2,500, 14,740-17,095 req/s, p99 15-17 ms, about 12 KB. The
 * hot case's p99 did not grow (1.8-2.0 ms against 1.9-6.8 at 1,000 links; `bench/profile.mjs`).
 */
const SQLITE_ROWS_PER_WRITE = 2_500;

/** The visit recorder, writing transactions of the store's size. */
export function createRecorder(
  stores: S['stores'],
  clock: S['clock'],
  random: S['random'],
  userAgents: S['userAgents'],
  geo: S['geo'],
  cfg: S['config'],
): S['recorder'] {
  return createVisitRecorder({
    visits: stores.visits,
    clock,
    random,
    userAgents,
    geo,
    rowsPerWrite: cfg.store.kind === 'postgres' ? POSTGRES_ROWS_PER_WRITE : SQLITE_ROWS_PER_WRITE,
  });
}

/** The core's deps: the stores, and visits settled before statistics are read. */
export function createCoreDeps(
  stores: S['stores'],
  clock: S['clock'],
  random: S['random'],
  cfg: S['config'],
  recorder: S['recorder'],
  logger: S['logger'],
): S['coreDeps'] {
  return {
    links: stores.links,
    visits: stores.visits,
    accounts: stores.accounts,
    sessions: stores.sessions,
    credentials: stores.credentials,
    teams: stores.teams,
    events: stores.events,
    clock,
    random,
    config: cfg.service,
    settleVisits: () => settleVisits(recorder, logger),
    hosts: createServedHosts(stores.domains),
  };
}

/** The HTTP adapter's deps: `/mcp` served by the MCP handler, `/healthz` by the store health. */
export function createHttpDeps(
  core: S['coreDeps'],
  recorder: S['recorder'],
  rateLimiter: S['rateLimiter'],
  logger: S['logger'],
  storeHealth: S['storeHealth'],
  cfg: S['config'],
  mcpDeps: S['mcpDeps'],
  qr: S['qr'],
  metrics: S['metrics'],
  events: S['events'],
  userAgents: S['userAgents'],
  geo: S['geo'],
  imports: S['imports'],
  stores: S['stores'],
  orphans: S['orphans'],
  domains: S['domains'],
  linkHealth: S['linkHealth'],
): S['httpDeps'] {
  return {
    core,
    userAgents,
    geo,
    recorder,
    rateLimiter,
    logger,
    options: cfg.http,
    health: () => storeHealth.report(events.brokerConnected()),
    mcp: lazyMcpEndpoint(mcpDeps),
    qr: qr.render,
    webhooks: { ...events.webhooks, rateLimiter },
    imports: { ...core, imports: stores.imports, importSecrets: imports, kick: imports.kick },
    orphans: { recorder: orphans, store: stores.orphans },
    domains: domains.deps,
    linkHealth: linkHealth.deps,
    ...withSso(ssoOf(cfg, core, stores, logger)),
    idempotencySecret: rememberedSecret(stores.settings, IDEMPOTENCY_SECRET_SETTING),
    ...(metrics === null ? {} : { metrics: metrics.http }),
  };
}

const withSso = (sso: HttpSso | null) => (sso === null ? {} : { sso });

/**
 * `/mcp` answered by the MCP adapter, loaded on its first request: the MCP SDK and the tools' schemas
 * hold about 8 MB of live heap, which a server nobody asks over MCP need not carry (and V8 lets the heap
 * grow to a multiple of what is live, see docs/decisions.md). The first request waits for the load.
 */
function lazyMcpEndpoint(mcpDeps: S['mcpDeps']): McpEndpoint {
  let handler: Promise<McpEndpoint> | undefined;
  return async (req, res, body, ip) => {
    handler ??= import('@shortener/adapter-mcp').then((mcp) => mcp.createMcpHttpHandler(mcpDeps));
    return (await handler)(req, res, body, ip);
  };
}

/** The MCP tools' deps: the JSON API's limiter, so its budgets and guess limits are the same. */
export function createMcpDeps(
  core: S['coreDeps'],
  rateLimiter: S['rateLimiter'],
  logger: S['logger'],
  qr: S['qr'],
  metrics: S['metrics'],
  linkHealth: S['linkHealth'],
): S['mcpDeps'] {
  return {
    core,
    logger,
    qr: qr.render,
    rateLimiter,
    linkHealth: linkHealth.deps,
    ...(metrics === null ? {} : { onLimited: (limit: 'creation' | 'qr') => metrics.http.limited(limit) }),
  };
}

/**
 * The runner of import jobs (decisions §17): the core's deps with the job store, the User-Agent parser and
 * bot check the redirect uses, and a `fetch` that reaches only public hosts (unless `ALLOW_PRIVATE_HOSTS`).
 */
export function createImports(
  core: S['coreDeps'],
  stores: S['stores'],
  userAgents: S['userAgents'],
  cfg: S['config'],
  logger: S['logger'],
): S['imports'] {
  const deps = { ...core, imports: stores.imports, readers: { userAgents, isBot: isBotUserAgent } };
  return createImportRuntime(deps, createPublicFetch(cfg.service.allowPrivateHosts), logger, {
    runners: cfg.importRunners,
    retryBaseMs: cfg.importRetryMs,
  });
}
