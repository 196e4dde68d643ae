// Load rounds: wrk (one thread, bench/lib/rotate.lua), installed from Debian's package when it is missing
// and we are root; autocannon only with `--autocannon`. Both send a fixed number of counted requests per
// round, 50 connections by default, and see every answer, so the redirects counted by the client are
// exactly the clicks the server must record.
import process from 'node:process';
import { autocannonRound } from './autocannon-load.mjs';
import { ensureWrk, wrkRound } from './wrk-load.mjs';

/** The load generator of this run: `wrk`, or `autocannon` when `--autocannon` asks for it. */
export const LOAD_GENERATOR = process.argv.includes('--autocannon') ? 'autocannon' : ensureWrk();

/**
 * The load generator's CPU share above which it, not the server, may have set a round's pace: wrk runs
 * one thread, and near a whole CPU it cannot send faster, whatever the server could answer.
 */
export const CLIENT_BOUND_SHARE = 0.9;

/** Whether a round's client ran so near its limit that the round measured the client (see above). */
export const clientBound = (round) => round.clientCpu >= CLIENT_BOUND_SHARE;

/** A browser's User-Agent: the server counts its GETs as human clicks. */
export const BROWSER_UA =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** The GET requests ({ method, path, headers }) of a rotation over `paths` on `host`, as a browser. */
export function rotation(paths, host) {
  const headers = { host, 'user-agent': BROWSER_UA, accept: 'text/html' };
  return paths.map((path) => ({ method: 'GET', path, headers }));
}

/**
 * Runs `amount` requests against `url`, rotating through `requests` ({ method, path, headers, body }),
 * and measures them: req/s over the time up to the last answer, p50/p99 latency in ms, the status codes,
 * errors and the load generator's CPU share. `expect` is the status of a successful answer.
 */
export function loadRound({ url, requests, amount, connections = 50, expect }) {
  const round = { url, requests, amount, connections, expect };
  return LOAD_GENERATOR === 'wrk' ? wrkRound(round) : autocannonRound(round);
}

/** The median of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
