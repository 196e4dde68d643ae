import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer, drainHttpServer } from '@shortener/adapter-http';
import type { Stores } from '@shortener/core';
import { startVisitCompaction } from './compaction.js';
import { ConfigError } from './config.js';
import type { AppConfig } from './config.js';
import { createContainer, openStores, resolveApp } from './container.js';
import type { App, Services } from './container.js';
import { openGeoLookup } from './geo.js';
import { createMetricsServer } from './metrics.js';
import { recordOrigins } from './origins.js';
import type { AppLogger } from './logger.js';
import { writeFailure } from './store-health.js';
import type { StoreHealth } from './store-health.js';
import { keepTickObjectMaps } from './tick-maps.js';

/** How often buffered visits are written. */
const FLUSH_EVERY_MS = 1000;
/** After failed flushes the next waits 1 s, 2 s, 4 s, then 5 s at most (the store away). */
const RETRY_LAST_MS = 5000;
/**
 * Visits waiting to be written past which the visit log's compaction defers folding (a burst: more than
 * a flush a second writes comfortably); see compaction.ts.
 */
const BURST_VISITS = 5_000;
/** How long in-flight requests may run on after a shutdown began. */
const DRAIN_CAP_MS = 10_000;

/** A started server. */
export interface RunningServer {
  /** Where it listens, with the real port (`PORT=0` picks a free one), e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  /**
   * Shuts down gracefully: stops accepting connections, lets in-flight requests finish with
   * `Connection: close` (closing idle keep-alive connections, and every connection after 10 s), writes
   * the buffered visits, lets the visit log's compaction finish its chunk and closes the stores. Calling it again returns the same promise; `immediate` closes every open connection now
   * instead of waiting for them (the rest of the shutdown still runs).
   */
  close(options?: { readonly immediate?: boolean }): Promise<void>;
}

/**
 * Wires the application for `config`, listens on `config.listen`, flushes the visit buffer every
 * second and logs one `listening` line. Signal handling is the caller's (the `serve` command).
 */
export async function startServer(
  config: AppConfig,
  overrides: Partial<Services> = {},
): Promise<RunningServer> {
  // the redirect's ticks stay on V8's fast path for the life of the process (tick-maps.ts)
  keepTickObjectMaps();
  const geo = 'geo' in overrides ? (overrides.geo ?? null) : await openGeoLookup(config.geoipDb ?? undefined);
  const stores = overrides.stores ?? (await openWritableStores(config));
  const app = resolveApp(createContainer(config, { geo, stores, ...overrides }));
  const { logger } = app;
  // the own domains served from the first request on (decisions §20)
  await app.domains.start();
  const { server, metricsServer } = await listenAll(app, config, stores);
  const url = `http://${hostInUrl(config.listen.host)}:${(server.address() as AddressInfo).port}`;
  const flushing = startFlushing(app);
  const compaction = startVisitCompaction(stores.visits, logger, () => app.recorder.pending(), BURST_VISITS);
  app.events.start();
  app.imports.start();
  app.linkHealth.start();
  logStart(logger, config, url);

  const shutdown = async (): Promise<void> => {
    logger.info('shutting down');
    flushing.stop();
    metricsServer?.close();
    metricsServer?.closeAllConnections();
    await drainHttpServer(server, DRAIN_CAP_MS);
    await flushing.flush();
    await compaction.stop();
    await app.imports.stop();
    await app.linkHealth.stop();
    await app.domains.stop();
    await app.events.stop();
    await app.qr.close();
    await stores.close();
    await app.rateLimits.close();
    logger.info('stopped');
  };
  let closing: Promise<void> | null = null;
  const close = (options?: { readonly immediate?: boolean }): Promise<void> => {
    closing ??= shutdown();
    if (options?.immediate === true) server.closeAllConnections();
    return closing;
  };
  return { url, close };
}

/**
 * Checks the store writes, records the origins, and listens (and on `METRICS_PORT` when set); a failure
 * closes the stores and the rate limits before it is thrown.
 */
async function listenAll(
  app: App,
  config: AppConfig,
  stores: Stores,
): Promise<{ server: Server; metricsServer: Server | null }> {
  try {
    await refuseUnwritableStore(app.storeHealth, config);
    await recordOrigins(stores.settings, config);
    // the broker takes every event of every account; without it only accounts with webhooks get theirs
    await stores.events.setBroker(config.amqpUrl !== null);
    const server = createHttpServer(app.httpDeps, config.server);
    await listen(server, config.listen.port, config.listen.host);
    if (app.metrics === null || config.metrics.port === null) return { server, metricsServer: null };
    const metricsServer = createMetricsServer(app.metrics);
    await listen(metricsServer, config.metrics.port, config.listen.host);
    return { server, metricsServer };
  } catch (error) {
    await app.rateLimits.close();
    await stores.close();
    throw error;
  }
}

/**
 * A flush of the visit buffer, resolving with whether it failed. A flush that wrote proves the store
 * writes; otherwise a probe checks now and then (at once while failing, so /healthz notices the recovery,
 * and the buffered visits follow on the next flush).
 */
function flushOnce(app: App): Promise<boolean> {
  const { recorder, storeHealth } = app;
  const started = performance.now();
  const took = () => (performance.now() - started) / 1000;
  // the visits that found nothing go with them; a failure keeps them for the next flush
  void app.orphans.flush().catch(() => undefined);
  return recorder.flush().then(
    (written) => {
      app.metrics?.flushed(written, took(), false);
      if (written > 0) app.events.kick(); // their link.visited events are in the outbox now
      if (written > 0) storeHealth.wrote();
      else void storeHealth.probe();
      return false;
    },
    (error: unknown) => {
      app.metrics?.flushed(0, took(), true);
      storeHealth.wrote(error);
      app.logger.error('writing visits failed', { error, pending: recorder.pending() });
      return true;
    },
  );
}

/** Flushes every second, one flush at a time, and fewer while the store fails (the visits wait meanwhile). */
function startFlushing(app: App): { flush(): Promise<boolean>; stop(): void } {
  let failures = 0;
  let nextAt = 0;
  let flushing = false;
  const tick = () => {
    if (flushing || performance.now() < nextAt) return;
    flushing = true;
    void flushOnce(app).then((failed) => {
      flushing = false;
      failures = failed ? failures + 1 : 0;
      nextAt = failed ? performance.now() + Math.min(FLUSH_EVERY_MS * 2 ** (failures - 1), RETRY_LAST_MS) : 0;
    });
  };
  const timer = setInterval(tick, FLUSH_EVERY_MS);
  timer.unref();
  return { flush: () => flushOnce(app), stop: () => clearInterval(timer) };
}

/** Opens the stores; a database that cannot be written (opening writes: WAL, migrations) is one line. */
async function openWritableStores(config: AppConfig): Promise<Stores> {
  try {
    // Visit flushes stay on the main connection: written by the worker of `backgroundWrites`, the
    // cache-miss case measured slower (4,400 against 5,400 cold visits a second at 300,000 links, the
    // store's writes being the limit either way) once no visit may be dropped (docs/benchmarks.md).
    // The visit log is folded in a worker of its own (backgroundCompaction): the flush only appends.
    return await openStores(config, { backgroundCheckpoints: true, backgroundCompaction: true });
  } catch (error) {
    throw unwritable(config, writeFailure(error));
  }
}

/** A store that cannot write at start stops start-up with one line, not a server dropping visits. */
async function refuseUnwritableStore(storeHealth: StoreHealth, config: AppConfig): Promise<void> {
  const failure = await storeHealth.probe(true);
  if (failure !== null) throw unwritable(config, failure);
}

function unwritable(config: AppConfig, failure: string): ConfigError {
  // the URL is not repeated: it may hold a password
  if (config.store.kind === 'postgres') return new ConfigError('DATABASE_URL', `DATABASE_URL: ${failure}`);
  const where = config.store.kind === 'sqlite' ? ` (${config.store.dbPath})` : '';
  return new ConfigError('DB_PATH', `DB_PATH${where}: ${failure}`);
}

function logStart(logger: AppLogger, config: AppConfig, url: string): void {
  logger.info('listening', {
    url,
    public_base_url: config.service.baseUrl,
    short_domains: config.service.shortDomains.map((d) => d.origin),
    store: config.store.kind,
    ...(config.store.kind === 'sqlite' ? { db_path: config.store.dbPath } : {}),
    rate_limits: config.store.redisUrl === null ? 'this process' : 'redis',
  });
  if (config.store.kind === 'postgres' && config.store.redisUrl === null) {
    logger.warn(
      'STORE=postgres without REDIS_URL: each node keeps its own rate limits (set REDIS_URL to share them)',
    );
  }
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function hostInUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
