// Load rounds with wrk (one thread) and bench/lib/rotate.lua: the same contract as the autocannon driver
// (a fixed number of counted requests, every one answered and seen), at a fraction of its CPU.
import { Buffer } from 'node:buffer';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('rotate.lua', import.meta.url));

/** Whether a `wrk` binary is on the PATH. */
export function hasWrk() {
  return spawnSync('wrk', ['--version']).error === undefined;
}

/** The command that installs wrk (Debian and Ubuntu). */
export const INSTALL_WRK = 'apt-get update && apt-get install -y wrk';

/**
 * `'wrk'` once wrk is on the PATH: installed here from Debian's package when it is missing and this
 * process runs as root, else the run stops with the command to run (or `--autocannon` to use autocannon).
 */
export function ensureWrk() {
  if (hasWrk()) return 'wrk';
  if (process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).error === undefined) {
    process.stdout.write(`wrk is missing: installing it (${INSTALL_WRK})\n`);
    const installed = spawnSync('sh', ['-c', `${INSTALL_WRK} >/dev/null`], { stdio: 'inherit' });
    if (installed.status === 0 && hasWrk()) return 'wrk';
  }
  process.stderr.write(
    `npm run bench measures with wrk, which is not installed. Install it with:\n  sudo ${INSTALL_WRK}\n` +
      'or run with `-- --autocannon` (its own CPU holds the baseline back: the ratios come out higher).\n',
  );
  process.exit(2);
}

/** The raw HTTP/1.1 text of a request spec ({ method, path, headers, body }) to `url`. */
function rawRequest(url, { method, path, headers = {}, body }) {
  const all = { host: new URL(url).host, ...headers };
  if (body !== undefined) all['content-length'] = String(Buffer.byteLength(body));
  const lines = Object.entries(all).map(([name, value]) => `${name}: ${value}`);
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n${body ?? ''}`;
}

/**
 * The request that fills a connection once `amount` counted requests were sent, while the last answers
 * arrive: `GET /healthz` changes nothing and never answers the `expect`ed 201 or 302 (for a 200 it may be
 * counted, which only matters for reads).
 */
const FILLER = { method: 'GET', path: '/healthz', headers: { accept: 'application/json' } };

function runWrk(args) {
  return new Promise((resolve, reject) => {
    execFile('wrk', args, { maxBuffer: 1 << 22 }, (error, out, err) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (error || line === undefined) reject(new Error(`wrk ${args.join(' ')} failed: ${err || out}`));
      else resolve(JSON.parse(line));
    });
  });
}

/**
 * Runs `amount` requests against `url` (rotating through `requests`) with wrk: req/s is the answers
 * with status `expect` over the time until the last of them, p50/p99 come from wrk's histogram.
 */
export async function wrkRound({ url, requests, amount, connections = 50, expect }) {
  const dir = mkdtempSync(join(tmpdir(), 'shortener-wrk-'));
  const file = join(dir, 'requests');
  writeFileSync(file, [...requests, FILLER].map((r) => rawRequest(url, r)).join('\0'));
  // a time limit only for a round that never completes (a server that stopped answering)
  const limit = Math.max(60, Math.ceil(amount / 500));
  try {
    const r = await runWrk([
      ...['-t1', `-c${connections}`, `-d${limit}s`, '--timeout', '10s', '-s', SCRIPT, url],
      ...['--', file, String(amount), String(expect)],
    ]);
    const seconds = r.elapsedUs / 1e6;
    const complete = r.found === amount;
    return {
      rps: r.found / seconds,
      p50: r.p50Us / 1000,
      p99: r.p99Us / 1000,
      responses: complete ? amount : r.completed,
      // fillers answered while waiting for the last counted answers are not reported
      statuses: complete ? { [expect]: amount } : r.statuses,
      errors: r.errors + r.timeouts,
      errorKinds: { socket: r.errors, timeout: r.timeouts },
      clientCpu: r.cpuSeconds / seconds,
      seconds,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
