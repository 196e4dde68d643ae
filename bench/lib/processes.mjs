// Child processes of the benchmark: the real server, the bare baseline, seeding and CLI commands.
import { execFile, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { onServerCpu } from './cpus.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = 'packages/app/bin/shortener.js';
/** Node flags of the server, as `npm start` and the bin's shebang pass them. */
const SERVER_FLAGS = ['--no-memory-reducer', '--max-old-space-size=512'];
/** The environment `npm start` and the bin's shebang add: two glibc malloc arenas (docs/production.md). */
const SERVER_ENV = { MALLOC_ARENA_MAX: '2' };

/** Runs a command in the repository root; resolves with its stdout, rejects with its stderr. */
export const run = (file, args, env = {}) => runIn(ROOT, file, args, env);

/** Runs a command in `cwd` (another build's checkout); resolves with its stdout, rejects with its stderr. */
export function runIn(cwd, file, args, env = {}) {
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 1 << 24 }, (error, out, err) =>
      error ? reject(new Error(`${file} ${args.join(' ')} failed: ${err || error.message}`)) : resolve(out),
    );
  });
}

/** `shortener <args> --json` against the database at `dbPath`; the parsed output. */
export async function cli(dbPath, ...args) {
  return JSON.parse(await run(process.execPath, [BIN, ...args, '--json'], { DB_PATH: dbPath }));
}

/** `bench/seed.mjs <args>`; its JSON report. */
let seeding = 0;

export async function seed(...args) {
  seeding++;
  try {
    return JSON.parse(await run(process.execPath, ['bench/seed.mjs', ...args.map(String)]));
  } finally {
    seeding--;
  }
}

/** Whether bench/seed.mjs is writing the database now (the benchmark's own writes, not the server's). */
export const seedingNow = () => seeding > 0;

/** A free loopback port. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** A running child (in `cwd`, the repository root by default): its pid, exit promise and stderr so far. */
function child(args, env, cwd = ROOT) {
  const [file, argv] = onServerCpu(process.execPath, args);
  const proc = spawn(file, argv, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (chunk) => (stderr += chunk));
  // a benchmark that dies (its output piped into \`head\`, a crash) takes its servers along
  const orphaned = () => proc.kill('SIGKILL');
  process.once('exit', orphaned);
  const exited = new Promise((resolve) =>
    proc.once('exit', (code, signal) => {
      process.off('exit', orphaned);
      resolve({ code, signal });
    }),
  );
  return { proc, exited, stderr: () => stderr };
}

/**
 * Starts `shortener serve` with `env` (and node flags) from the checkout at `root` (this one by default);
 * resolves once `/healthz` answers.
 */
export async function startServer(env, nodeFlags = [], root = ROOT) {
  const server = child([...SERVER_FLAGS, ...nodeFlags, BIN, 'serve'], { ...SERVER_ENV, ...env }, root);
  const url = `http://127.0.0.1:${env.PORT}`;
  for (let tries = 0; ; tries++) {
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (tries > 100 || server.proc.exitCode !== null)
      throw new Error(`server did not start: ${server.stderr()}`);
    await sleep(100);
  }
  return { ...server, url, pid: server.proc.pid };
}

/** An account `bench` on the database at `dbPath` and an API key of it; returns the key. */
export async function createKey(dbPath) {
  await cli(dbPath, 'accounts', 'create', 'bench');
  return (await cli(dbPath, 'keys', 'create', 'bench')).key;
}

/**
 * The variables of a server under test on `port`: `shortHost` its one short domain, creation limits
 * raised, `LOG_LEVEL=warn`; the store is the caller's to add.
 */
export const benchServerEnv = (port, shortHost) => ({
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
  SHORT_DOMAINS: `http://${shortHost}`,
  RATE_LIMIT_ANON_HOUR: '1000000000',
  RATE_LIMIT_ANON_DAY: '1000000000',
  RATE_LIMIT_KEY_HOUR: '1000000000',
  LOG_LEVEL: 'warn',
});

/**
 * The server under test on a free port ({@link benchServerEnv}) with the database at `dbPath`; `env`
 * adds to (or overrides) those variables, `nodeFlags` go to node.
 */
export async function startBenchServer(dbPath, shortHost, env = {}, nodeFlags = [], root = ROOT) {
  const port = await freePort();
  return startServer({ ...benchServerEnv(port, shortHost), DB_PATH: dbPath, ...env }, nodeFlags, root);
}

/** Starts the bare node:http baseline; resolves with its URL once it listens. */
export async function startBaseline() {
  const baseline = child(['bench/baseline-server.mjs'], {});
  const port = await new Promise((resolve, reject) => {
    baseline.proc.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim())));
    baseline.exited.then(() => reject(new Error(`baseline exited: ${baseline.stderr()}`)));
  });
  return { ...baseline, url: `http://127.0.0.1:${port}`, pid: baseline.proc.pid };
}

/** Sends SIGTERM and waits for the exit (graceful shutdown). */
export async function stop(running) {
  running.proc.kill('SIGTERM');
  return running.exited;
}

/** Resident set size of a process in MB (VmRSS). */
export function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) / 1024 : NaN;
}

/** CPU seconds of each thread of process `pid`, by thread id (with its name), from /proc. */
export function threadCpuSeconds(pid) {
  const threads = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      threads.set(tid, { name, seconds: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // the thread ended meanwhile
    }
  }
  return threads;
}

/** CPU seconds (user + system) a process has used so far, all its threads together. */
export function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
