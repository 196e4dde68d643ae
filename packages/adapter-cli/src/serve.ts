import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpServer } from '@shortener/adapter-http';
import type { AppConfig } from './config.js';
import { createContainer, openStores, resolveApp } from './container.js';
import type { Services } from './container.js';
import { openGeoLookup } from './geo.js';
import type { AppLogger } from './logger.js';

/** How often buffered visits are written. */
const FLUSH_EVERY_MS = 1000;
/** How long in-flight requests may run on after a shutdown began. */
const DRAIN_CAP_MS = 10_000;

/** A started server. */
export interface RunningServer {
  /** Where it listens, with the real port (`PORT=0` picks a free one), e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  /**
   * Shuts down gracefully: stops accepting connections, lets in-flight requests finish (closing idle
   * keep-alive connections, and every connection after 10 s), writes the buffered visits and closes the
   * stores. Calling it again returns the same promise; `immediate` closes every open connection now
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
  const geo = 'geo' in overrides ? (overrides.geo ?? null) : await openGeoLookup(config.geoipDb ?? undefined);
  const stores = overrides.stores ?? openStores(config, { backgroundCheckpoints: true });
  const app = resolveApp(createContainer(config, { geo, stores, ...overrides }));
  const { logger, recorder } = app;
  let server: Server;
  try {
    server = createHttpServer(app.httpDeps);
    await listen(server, config.listen.port, config.listen.host);
  } catch (error) {
    await stores.close();
    throw error;
  }
  const url = `http://${hostInUrl(config.listen.host)}:${(server.address() as AddressInfo).port}`;
  const flush = (): Promise<void> =>
    recorder.flush().then(
      () => undefined,
      (error: unknown) => logger.error('writing visits failed', { error, pending: recorder.pending() }),
    );
  const timer = setInterval(() => void flush(), FLUSH_EVERY_MS);
  timer.unref();
  logStart(logger, config, url);

  const shutdown = async (): Promise<void> => {
    logger.info('shutting down');
    clearInterval(timer);
    await drain(server, DRAIN_CAP_MS);
    await flush();
    await stores.close();
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

function logStart(logger: AppLogger, config: AppConfig, url: string): void {
  logger.info('listening', {
    url,
    public_base_url: config.service.baseUrl,
    short_domains: config.service.shortDomains.map((d) => d.origin),
    store: config.store.kind,
    ...(config.store.kind === 'sqlite' ? { db_path: config.store.dbPath } : {}),
  });
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

/** Stops accepting connections and resolves once the open ones have ended (forced after `capMs`). */
function drain(server: Server, capMs: number): Promise<void> {
  return new Promise((resolve) => {
    // Keep-alive connections become idle once their request is answered: close them as they do.
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const cap = setTimeout(() => server.closeAllConnections(), capMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cap);
      resolve();
    });
    server.closeIdleConnections();
  });
}

function hostInUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
