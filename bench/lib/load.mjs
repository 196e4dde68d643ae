// Load rounds with autocannon's programmatic API: 50 connections, rotating request paths, a fixed number
// of requests per round (so every response sent is also counted: no request is cut off at the end).
import process from 'node:process';
import autocannon from 'autocannon';

/** A browser's User-Agent: the server counts its GETs as human clicks. */
export const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/**
 * The GET requests of a rotation over `paths` on `host`. autocannon builds every request of the list
 * for every connection before the first is sent, so a long rotation (thousands of paths) is one request
 * whose path `setupRequest` changes each time instead: slower for the client, but the same for both
 * targets.
 */
export function rotation(paths, host) {
  const headers = { host, 'user-agent': BROWSER_UA, accept: 'text/html' };
  if (paths.length <= 2000) return paths.map((path) => ({ method: 'GET', path, headers }));
  let next = 0;
  const setupRequest = (request) => ({ ...request, path: paths[next++ % paths.length] });
  return [{ method: 'GET', path: paths[0], headers, setupRequest }];
}

/**
 * Runs `amount` requests against `url` (rotating through `requests`) and measures them: req/s over the
 * wall time of the round, exact p50/p99 latency from every response, and the status codes seen.
 */
export async function loadRound({ url, requests, amount, connections = 50 }) {
  const latencies = new Float64Array(amount + connections);
  let n = 0;
  const statuses = {};
  let started = performance.now();
  let finished = started;
  const instance = autocannon({ url, connections, amount, requests, excludeErrorStats: false });
  let cpuAtStart = process.cpuUsage();
  instance.on('start', () => {
    started = performance.now();
    cpuAtStart = process.cpuUsage();
  });
  const errors = {};
  instance.on(
    'reqError',
    (error) => (errors[error.code ?? error.message] = (errors[error.code ?? error.message] ?? 0) + 1),
  );
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    finished = performance.now();
    latencies[n++] = responseTime;
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  // autocannon resolves at its next one-second tick: time the round up to the last response instead
  const result = await instance;
  const cpu = process.cpuUsage(cpuAtStart);
  const clientCpu = (cpu.user + cpu.system) / 1000 / (performance.now() - started);
  const seconds = (finished - started) / 1000;
  const sorted = latencies.subarray(0, n).sort();
  const at = (q) => sorted[Math.min(n - 1, Math.floor(q * n))] ?? NaN;
  return {
    rps: n / seconds,
    p50: at(0.5),
    p99: at(0.99),
    responses: n,
    statuses,
    errors: result.errors + result.timeouts,
    errorKinds: errors,
    clientCpu,
    seconds,
  };
}

/** The median of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
