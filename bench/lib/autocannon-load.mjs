// Load rounds with autocannon's programmatic API (when wrk is not installed): a fixed number of requests
// per round, so every response sent is also counted (no request is cut off at the end).
import process from 'node:process';
import autocannon from 'autocannon';

/**
 * autocannon builds every request of the list for every connection before the first is sent, so a long
 * rotation (thousands of paths) becomes one request whose path `setupRequest` changes each time instead:
 * slower for the client, but the same for both targets.
 */
function autocannonRequests(requests) {
  if (requests.length <= 2000) return requests;
  let next = 0;
  const setupRequest = (request) => ({ ...request, path: requests[next++ % requests.length].path });
  return [{ ...requests[0], setupRequest }];
}

/**
 * Runs `amount` requests against `url` (rotating through `requests`) and measures them: req/s over the
 * wall time of the round, exact p50/p99 latency from every response, and the status codes seen.
 */
export async function autocannonRound({ url, requests, amount, connections = 50 }) {
  const latencies = new Float64Array(amount + connections);
  let n = 0;
  const statuses = {};
  let started = performance.now();
  let finished = started;
  const instance = autocannon({
    url,
    connections,
    amount,
    requests: autocannonRequests(requests),
    excludeErrorStats: false,
  });
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
