import { createUserAgentParser } from '@shortener/adapter-http/parts';
import type { HttpDeps } from '@shortener/adapter-http';
import type { McpDeps } from '@shortener/adapter-mcp';
import { createOrphanRecorder } from '@shortener/core';
import type {
  Clock,
  CoreDeps,
  GeoLookup,
  OrphanRecorder,
  RandomSource,
  Stores,
  UserAgentParser,
  VisitRecorder,
} from '@shortener/core';
import { createMemoryStores } from '@shortener/store-memory';
import { openSqliteStores } from '@shortener/store-sqlite';
import type { SqliteStoreOptions } from '@shortener/store-sqlite';
import type { SqliteStores } from '@shortener/store-sqlite';
import { Container } from 'inversify';
import type { AppConfig } from './config.js';
import { createEventRuntime } from './events/event-runtime.js';
import type { EventRuntime } from './events/event-runtime.js';
import { createJsonLogger } from './logger.js';
import type { AppLogger } from './logger.js';
import { createServiceMetrics } from './metrics.js';
import type { ServiceMetrics } from './metrics.js';
import { createQrPool } from './qr-pool.js';
import { createRateLimits } from './rate-limits.js';
import type { RateLimits } from './rate-limits.js';
import { createStoreHealth } from './store-health.js';
import type { StoreHealth } from './store-health.js';
import type { QrPool } from './qr-pool.js';
import { createPooledRandom } from './random.js';
import {
  createCoreDeps,
  createHttpDeps,
  createImports,
  createMcpDeps,
  createRecorder,
} from './adapter-deps.js';
import type { ImportRuntime } from './imports/import-runtime.js';
import { createDomainRuntime } from './domain-checks.js';
import type { DomainRuntime } from './domain-checks.js';
import { createHealthRuntime } from './health-runtime.js';
import type { HealthRuntime } from './health-runtime.js';

// The composition root: the only file that knows every package, and the only one importing inversify.

/** Every binding of the container, by name. */
export interface Services {
  readonly config: AppConfig;
  readonly logger: AppLogger;
  readonly clock: Clock;
  readonly random: RandomSource;
  readonly stores: Stores;
  /** Creation and password limits: in Redis with `REDIS_URL`, else in this process. */
  readonly rateLimiter: RateLimits;
  readonly userAgents: UserAgentParser;
  /** Country look-up; null until `startServer` opens the database (operator commands need none). */
  readonly geo: GeoLookup | null;
  readonly recorder: VisitRecorder;
  readonly coreDeps: CoreDeps;
  readonly mcpDeps: McpDeps;
  readonly httpDeps: HttpDeps;
  /** QR codes, PNGs drawn in worker threads (closed by `serve` at shutdown). */
  readonly qr: QrPool;
  /** The SQLite online backup to a file, safe while serving; null for the memory store. */
  readonly backup: ((destination: string) => Promise<void>) | null;
  /** What `/healthz` says about the store: fed by `serve`'s flushes and write probes. */
  readonly storeHealth: StoreHealth;
  /** The Prometheus metrics, or null when `METRICS` is off. */
  readonly metrics: ServiceMetrics | null;
  readonly events: EventRuntime; // webhooks and the broker (decisions §16)
  /** The background runner of import jobs (decisions §17). */
  readonly imports: ImportRuntime;
  /** Visits that found nothing, counted and written with the visits' flush (decisions §18). */
  readonly orphans: OrphanRecorder;
  /** The accounts' own domains and their background checks (decisions §20). */
  readonly domains: DomainRuntime;
  /** The checks of links' destinations (decisions §23). */
  readonly linkHealth: HealthRuntime;
}

/** The service identifier of each binding. */
export const TOKENS: { readonly [K in keyof Services]: symbol } = {
  config: Symbol('config'),
  logger: Symbol('logger'),
  clock: Symbol('clock'),
  random: Symbol('random'),
  stores: Symbol('stores'),
  rateLimiter: Symbol('rateLimiter'),
  userAgents: Symbol('userAgents'),
  geo: Symbol('geo'),
  recorder: Symbol('recorder'),
  coreDeps: Symbol('coreDeps'),
  mcpDeps: Symbol('mcpDeps'),
  httpDeps: Symbol('httpDeps'),
  qr: Symbol('qr'),
  backup: Symbol('backup'),
  storeHealth: Symbol('storeHealth'),
  metrics: Symbol('metrics'),
  events: Symbol('events'),
  imports: Symbol('imports'),
  orphans: Symbol('orphans'),
  domains: Symbol('domains'),
  linkHealth: Symbol('linkHealth'),
};

/** The container built by {@link createContainer}. */
export type AppContainer = Container;

/**
 * Wires the application for `config`. Every binding is a lazy singleton, so resolving `coreDeps` (the
 * operator commands) opens the stores without building the HTTP side. `overrides` replace bindings
 * with constants (tests: a fake clock, a logger writing to a buffer, stores of their own).
 */
export function createContainer(config: AppConfig, overrides: Partial<Services> = {}): AppContainer {
  const c = new Container({ defaultScope: 'Singleton' });
  bindFoundations(c, config);
  bindServices(c);
  bindAdapters(c);
  for (const key of Object.keys(overrides) as (keyof Services)[]) {
    c.rebind(TOKENS[key]).toConstantValue(overrides[key]);
  }
  return c;
}

/** The configuration and what everything else stands on: logger, clock, randomness, stores, limits. */
function bindFoundations(c: Container, config: AppConfig): void {
  const t = TOKENS;
  c.bind<AppConfig>(t.config).toConstantValue(config);
  c.bind<AppLogger>(t.logger).toResolvedValue(
    (cfg: AppConfig) => createJsonLogger({ level: cfg.logLevel }),
    [t.config],
  );
  c.bind<Clock>(t.clock).toConstantValue({ now: Date.now });
  c.bind<RandomSource>(t.random).toConstantValue(createPooledRandom());
  c.bind<Stores>(t.stores).toResolvedValue((cfg: AppConfig) => openLocalStores(cfg), [t.config]);
  c.bind<RateLimits>(t.rateLimiter).toResolvedValue(
    (cfg: AppConfig, stores: Stores, logger: AppLogger) => createRateLimits(cfg, stores.settings, logger),
    [t.config, t.stores, t.logger],
  );
  c.bind<UserAgentParser>(t.userAgents).toResolvedValue(() => createUserAgentParser());
  c.bind<GeoLookup | null>(t.geo).toConstantValue(null);
}

/** The services both adapters use: visits, the core's deps, QR codes, events, metrics, health, backup. */
function bindServices(c: Container): void {
  const t = TOKENS;
  c.bind<VisitRecorder>(t.recorder).toResolvedValue(
    createRecorder,
    needs('stores', 'clock', 'random', 'userAgents', 'geo', 'config'),
  );
  c.bind<CoreDeps>(t.coreDeps).toResolvedValue(
    createCoreDeps,
    needs('stores', 'clock', 'random', 'config', 'recorder', 'logger'),
  );
  c.bind<QrPool>(t.qr).toResolvedValue(() => createQrPool());
  c.bind<EventRuntime>(t.events).toResolvedValue(
    createEventRuntime,
    needs('config', 'stores', 'clock', 'random', 'logger'),
  );
  c.bind<OrphanRecorder>(t.orphans).toResolvedValue(
    (stores: Stores, clock: Clock) => createOrphanRecorder(stores.orphans, clock),
    [t.stores, t.clock],
  );
  c.bind<DomainRuntime>(t.domains).toResolvedValue(
    createDomainRuntime,
    needs('coreDeps', 'stores', 'clock', 'random', 'config', 'logger'),
  );
  c.bind<HealthRuntime>(t.linkHealth).toResolvedValue(
    createHealthRuntime,
    needs('coreDeps', 'stores', 'clock', 'config', 'logger', 'rateLimiter'),
  );
  c.bind<ImportRuntime>(t.imports).toResolvedValue(
    createImports,
    needs('coreDeps', 'stores', 'userAgents', 'config', 'logger'),
  );
  c.bind<ServiceMetrics | null>(t.metrics).toResolvedValue(
    (
      cfg: AppConfig,
      recorder: VisitRecorder,
      { dispatcher }: EventRuntime,
      stores: Stores,
      linkHealth: HealthRuntime,
    ) =>
      cfg.metrics.enabled
        ? createServiceMetrics(
            recorder,
            cfg.metrics.port === null,
            { counts: dispatcher.counts, backlog: () => stores.events.backlog() },
            { checks: linkHealth.checks, counts: () => linkHealth.counts() },
          )
        : null,
    [t.config, t.recorder, t.events, t.stores, t.linkHealth],
  );
  c.bind<StoreHealth>(t.storeHealth).toResolvedValue(
    (stores: Stores, limits: RateLimits) => createStoreHealth(stores, { checks: [limits.check] }),
    [t.stores, t.rateLimiter],
  );
  c.bind<Services['backup']>(t.backup).toResolvedValue(
    (stores: Stores | SqliteStores) => ('backup' in stores ? (to: string) => stores.backup(to) : null),
    [t.stores],
  );
}

/** The tokens of the bindings a factory takes, in the order of its parameters. */
const needs = <K extends (keyof Services)[]>(...keys: K) =>
  keys.map((key) => TOKENS[key]) as { [I in keyof K]: symbol };

/** The deps of the MCP and HTTP adapters. */
function bindAdapters(c: Container): void {
  const t = TOKENS;
  c.bind<McpDeps>(t.mcpDeps).toResolvedValue(
    createMcpDeps,
    needs('coreDeps', 'rateLimiter', 'logger', 'qr', 'metrics', 'linkHealth'),
  );
  c.bind<HttpDeps>(t.httpDeps).toResolvedValue(
    createHttpDeps,
    needs(
      'coreDeps',
      'recorder',
      'rateLimiter',
      'logger',
      'storeHealth',
      'config',
      'mcpDeps',
      'qr',
      'metrics',
      'events',
      'userAgents',
      'geo',
      'imports',
      'stores',
      'orphans',
      'domains',
      'linkHealth',
    ),
  );
}

/**
 * The stores `config` names. The server asks for `backgroundCheckpoints` (SQLite checkpoints its WAL in a
 * worker thread, off the event loop); short commands do not. The PostgreSQL store and its driver are
 * loaded only when named: a SQLite server carries neither (about 4 MB of memory).
 */
export async function openStores(
  config: AppConfig,
  options: SqliteStoreOptions = {},
): Promise<Stores | SqliteStores> {
  const { kind, databaseUrl } = config.store;
  if (kind !== 'postgres') return openLocalStores(config, options);
  const { openPostgresStores } = await import('@shortener/store-postgres');
  // connects and migrates on first use: `serve` checks at start-up that it can write
  return openPostgresStores({ connectionString: databaseUrl ?? '' });
}

/** The stores of a memory or SQLite `config`, opened at once; PostgreSQL's come from {@link openStores}. */
function openLocalStores(config: AppConfig, options: SqliteStoreOptions = {}): Stores | SqliteStores {
  const { kind, dbPath, synchronous } = config.store;
  if (kind === 'memory') return createMemoryStores();
  if (kind === 'postgres') throw new Error('PostgreSQL stores are opened with openStores() and passed in');
  return openSqliteStores(dbPath, { synchronous, ...options });
}

/** Resolves one binding, typed by its name. */
export function resolve<K extends keyof Services>(container: AppContainer, key: K): Services[K] {
  return container.get<Services[K]>(TOKENS[key]);
}

/** What `serve` runs on. */
export interface App {
  readonly config: AppConfig;
  readonly logger: AppLogger;
  readonly stores: Stores;
  readonly recorder: VisitRecorder;
  readonly httpDeps: HttpDeps;
  readonly qr: QrPool;
  readonly storeHealth: StoreHealth;
  readonly metrics: ServiceMetrics | null;
  readonly rateLimits: RateLimits;
  readonly events: EventRuntime;
  readonly imports: ImportRuntime;
  readonly orphans: OrphanRecorder;
  readonly domains: DomainRuntime;
  readonly linkHealth: HealthRuntime;
}

/** Resolves everything `serve` needs (this opens the stores). */
export function resolveApp(container: AppContainer): App {
  return {
    config: resolve(container, 'config'),
    logger: resolve(container, 'logger'),
    stores: resolve(container, 'stores'),
    recorder: resolve(container, 'recorder'),
    httpDeps: resolve(container, 'httpDeps'),
    qr: resolve(container, 'qr'),
    storeHealth: resolve(container, 'storeHealth'),
    metrics: resolve(container, 'metrics'),
    rateLimits: resolve(container, 'rateLimiter'),
    events: resolve(container, 'events'),
    imports: resolve(container, 'imports'),
    orphans: resolve(container, 'orphans'),
    domains: resolve(container, 'domains'),
    linkHealth: resolve(container, 'linkHealth'),
  };
}
