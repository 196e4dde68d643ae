import { createServer } from 'node:http';
import type { Server, ServerResponse } from 'node:http';
import { METRICS_ALLOW, answerHalfClosedRequests } from '@shortener/adapter-http/parts';
import type { HttpMetrics, RouteFamily } from '@shortener/adapter-http';
import type { VisitRecorder } from '@shortener/core';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { registerEventMetrics } from './events/event-metrics.js';
import type { EventsMeasured } from './events/event-metrics.js';
import { registerHealthMetrics } from './health-metrics.js';
import type { HealthMeasured } from './health-metrics.js';

/** The service's Prometheus metrics (`METRICS=true`): no label ever holds an address or a slug. */
export interface ServiceMetrics {
  /** What the HTTP adapter reports. */
  readonly http: HttpMetrics;
  /** One flush of the visit buffer: how many visits it wrote, how long it took, whether it failed. */
  flushed(visits: number, seconds: number, failed: boolean): void;
  /** The Prometheus text exposition of every metric. */
  exposition(): Promise<{ readonly contentType: string; readonly body: string }>;
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const FAMILIES: readonly RouteFamily[] = ['redirect', 'api', 'mcp', 'qr', 'pages', 'assets', 'meta', 'other'];

/**
 * Creates the registry. The redirect path bumps plain numbers, which the counters read at scrape time,
 * so measuring costs it an addition; latencies go to per-family histogram children made once.
 * `onThisPort` adds `GET /metrics` to the main server (else `serve` opens `METRICS_PORT` for it).
 */
export function createServiceMetrics(
  recorder: VisitRecorder,
  onThisPort: boolean,
  events?: EventsMeasured,
  health?: HealthMeasured,
): ServiceMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (events !== undefined) registerEventMetrics(registry, events);
  if (health !== undefined) registerHealthMetrics(registry, health);
  const http = registerHttpMetrics(registry);
  const flushed = registerVisitMetrics(registry, recorder);
  const exposition = async () => ({ contentType: registry.contentType, body: await registry.metrics() });
  return { http: { ...http, ...(onThisPort ? { exposition } : {}) }, flushed, exposition };
}

/** A counter whose value is read from `counts` at scrape time, one child per key (`label`). */
function countedAt(
  registry: Registry,
  name: string,
  help: string,
  label: string,
  counts: Record<string, number>,
) {
  new Counter({
    name,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      this.reset();
      for (const [value, count] of Object.entries(counts)) this.inc({ [label]: value }, count);
    },
  });
}

/** The HTTP adapter's metrics: redirect outcomes, hot-link cache look-ups, latencies, refusals by limit. */
function registerHttpMetrics(registry: Registry): Omit<HttpMetrics, 'exposition'> {
  const outcomes = { redirect: 0, password: 0, gone: 0, not_found: 0 };
  const cache = { hit: 0, miss: 0 };
  countedAt(
    registry,
    'shortener_redirects_total',
    'Answers of GET /{slug}, by outcome (redirect, password form, gone, not found).',
    'outcome',
    outcomes,
  );
  countedAt(
    registry,
    'shortener_link_cache_lookups_total',
    'Look-ups of the hot-link cache by the redirect path, by result (hit or miss).',
    'result',
    cache,
  );
  const latency = new Histogram({
    name: 'shortener_http_request_duration_seconds',
    help: 'Time from a request to its answer, by route family.',
    labelNames: ['family'],
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  const byFamily = new Map(FAMILIES.map((family) => [family, latency.labels({ family })]));
  const limited = new Counter({
    name: 'shortener_rate_limited_total',
    help: 'Requests refused by a limit (creation, password tries, sign-ins, sign-ups, QR images).',
    labelNames: ['limit'],
    registers: [registry],
  });
  return {
    redirected: (outcome) => void outcomes[outcome]++,
    linkCache: (hit) => void (hit ? cache.hit++ : cache.miss++),
    requestServed: (family, seconds) => byFamily.get(family)?.observe(seconds),
    limited: (limit) => limited.inc({ limit }),
  };
}

/** The visit buffer's metrics: what waits, what was dropped, and each flush; returns what a flush reports. */
function registerVisitMetrics(registry: Registry, recorder: VisitRecorder): ServiceMetrics['flushed'] {
  new Gauge({
    name: 'shortener_visits_buffered',
    help: 'Visits waiting in memory to be written (while the store is away, up to 200,000 rows of counters).',
    registers: [registry],
    collect() {
      this.set(recorder.pending());
    },
  });
  new Counter({
    name: 'shortener_visits_dropped_total',
    help: 'Visits dropped because the buffer was full while the store could not write (the newest go).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(recorder.dropped());
    },
  });
  const flushedVisits = new Counter({
    name: 'shortener_visits_flushed_total',
    help: 'Visits written to the store by the flushes.',
    registers: [registry],
  });
  const flushFailures = new Counter({
    name: 'shortener_visit_flush_failures_total',
    help: 'Flushes of the visit buffer that failed (the visits stay buffered and are retried).',
    registers: [registry],
  });
  const flushDuration = new Histogram({
    name: 'shortener_visit_flush_duration_seconds',
    help: 'How long one flush of the visit buffer took.',
    buckets: LATENCY_BUCKETS,
    registers: [registry],
  });
  return (visits, seconds, failed) => {
    flushDuration.observe(seconds);
    if (failed) flushFailures.inc();
    else flushedVisits.inc(visits);
  };
}

/**
 * The server of `METRICS_PORT`: `GET|HEAD /metrics` (another method is 405 with `Allow`, as on the main
 * port), and 404 for anything else. Not started here.
 */
export function createMetricsServer(metrics: ServiceMetrics): Server {
  const server = createServer((req, res) => {
    if ((req.url ?? '').split('?')[0] !== '/metrics') {
      return sendError(res, 404, { code: 'not_found', message: 'Only /metrics here.' });
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', METRICS_ALLOW);
      return sendError(res, 405, { code: 'invalid_request', message: `${req.method} is not allowed here.` });
    }
    metrics.exposition().then(
      ({ contentType, body }) => {
        res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => sendError(res, 500, { code: 'internal_error', message: 'The metrics failed.' }),
    );
  });
  answerHalfClosedRequests(server);
  return server;
}

function sendError(res: ServerResponse, status: number, error: { code: string; message: string }): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ error }));
}
