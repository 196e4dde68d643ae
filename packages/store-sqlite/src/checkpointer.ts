import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';

// Plain CommonJS for an eval'd worker, so it runs the same from `src/` (tests) and `dist/`.
// Every `pollMs` it looks at the WAL's size (every `idlePollMs` once no other connection has committed
// for `idleAfterMs`: `PRAGMA data_version` tells, and the first commit after a quiet spell brings the
// quick looks back). Every `intervalMs` it runs a PASSIVE checkpoint (none while nothing was committed
// since one that copied everything). A PASSIVE checkpoint
// never blocks the writer but, under constant writes, never completes either (new commits land while it
// copies), so the log never rewinds. Past `walLimitBytes` it escalates: a PASSIVE pass copies the bulk
// without blocking anyone, then a RESTART checkpoint takes the writer lock and copies the few frames
// committed meanwhile, so the next commit writes the log from its start again (the file is reused and
// trimmed to the limit: TRUNCATE's empty file had to be grown again by every later commit, which cost
// bulk creation about a fifth of its rate). It waits at most `readerWaitMs` (busy_timeout) for readers
// and writers; when a long reader (a backup, another process) keeps it from finishing, it backs off.

/**
 * The checkpoint loop as the source of a function, `startCheckpoints(config)` (a {@link CheckpointConfig}),
 * which opens its connection, starts the loop and returns its stop: run by a worker thread of its own,
 * or by the background visit worker's (background-visit-writes.ts), which saves a thread (about 17 MB).
 */
export const CHECKPOINTS_SOURCE = `
function startCheckpoints(config) {
const { statSync } = require('node:fs');
const { path, driver, intervalMs, pollMs, idlePollMs, idleAfterMs, walLimitBytes, readerWaitMs } = config;
const Database = require(driver);
const db = new Database(path);
db.pragma('busy_timeout = ' + readerWaitMs);
db.pragma('journal_size_limit = ' + walLimitBytes);
// changes when another connection commits (this one only checkpoints, which commits nothing)
const dataVersion = db.prepare('PRAGMA data_version').pluck();
const MAX_PASSES = 2;
const SMALL_REMAINDER_FRAMES = 256;
const walSize = () => { try { return statSync(path + '-wal').size; } catch { return 0; } };
// null when the checkpoint failed, else how many frames of the log it left uncopied (0: all copied).
const checkpoint = (mode) => {
  try {
    const [r] = db.pragma('wal_checkpoint(' + mode + ')');
    return r.busy === 0 ? Math.max(0, r.log - r.checkpointed) : null;
  } catch { return null; }
};
// Each PASSIVE pass copies what was committed during the one before, a shorter span each time.
const catchUp = () => {
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const left = checkpoint('PASSIVE');
    if (left === null || left <= SMALL_REMAINDER_FRAMES) return;
  }
};
let lastPassive = 0;
let retryAt = 0;
let backoffMs = pollMs;
let failures = 0;
// The WAL's size at the last RESTART: it keeps that size until the next commit starts the log again
let restartedAt = -1;
let version = dataVersion.get();
let lastCommitSeen = Date.now();
// whether the last checkpoint copied every frame and nobody committed since: another has nothing to do
let copiedAll = false;
const look = () => {
  const now = Date.now();
  const seen = dataVersion.get();
  if (seen !== version) {
    version = seen;
    lastCommitSeen = now;
    copiedAll = false;
  }
  const size = walSize();
  if (size > walLimitBytes && size !== restartedAt && now >= retryAt) {
    catchUp();
    lastPassive = now;
    if (checkpoint('RESTART') === 0) {
      restartedAt = size;
      failures = 0;
      backoffMs = pollMs;
      retryAt = 0;
    } else if (++failures > 2) {
      // a reader that keeps it from finishing costs the writer up to readerWaitMs a try: try less often
      backoffMs = Math.min(backoffMs * 2, 5000);
      retryAt = Date.now() + backoffMs;
    }
  } else if (now - lastPassive >= intervalMs && !copiedAll) {
    copiedAll = checkpoint('PASSIVE') === 0;
    lastPassive = now;
  }
};
let timer;
const next = () => {
  timer = setTimeout(() => {
    look();
    next();
  }, Date.now() - lastCommitSeen >= idleAfterMs ? idlePollMs : pollMs);
};
next();
return () => {
  clearTimeout(timer);
  db.close();
};
}
`;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
${CHECKPOINTS_SOURCE}
const stop = startCheckpoints(workerData);
parentPort.once('message', () => {
  stop();
  parentPort.close();
});
`;

/** A background WAL checkpointer; `stop()` ends it (before the main connection closes). */
export interface Checkpointer {
  /** The WAL size past which it restarts the log: every connection that commits trims the file to it. */
  readonly walLimitBytes: number;
  stop(): Promise<void>;
}

/** How the background checkpointer runs; every field has a default. */
export interface CheckpointOptions {
  /** Milliseconds between PASSIVE checkpoints (default 1000). */
  readonly intervalMs?: number;
  /** Milliseconds between looks at the WAL's size (default 50). */
  readonly pollMs?: number;
  /**
   * Milliseconds between looks once no other connection has committed for `idleAfterMs` (defaults 500
   * and 250): an idle server's checkpointer wakes twice a second, not twenty times, and a lone commit
   * (a health check's, every few seconds) brings five quick looks, not twenty. Each wake of a thread
   * costs about 100-150 CPU-µs on the benchmark's machines, whatever it does.
   */
  readonly idlePollMs?: number;
  readonly idleAfterMs?: number;
  /**
   * WAL size that triggers a restarting checkpoint (default 16 MiB); also the connection's
   * `journal_size_limit`. Under any load the WAL stays near this plus what is written in `pollMs`.
   */
  readonly walLimitBytes?: number;
  /** How long a restarting checkpoint waits for readers and the writer (default 100 ms). */
  readonly readerWaitMs?: number;
}

/** The default WAL size past which the checkpointer restarts it. */
export const DEFAULT_WAL_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * Moves WAL checkpoints off the event loop: the main connection stops checkpointing by itself
 * (`wal_autocheckpoint = 0`), and a worker thread with its own connection runs them. A checkpoint
 * copies the pages of the last commits into the database file and syncs it; on the main thread that
 * stalled redirects for 10 ms and more at 1M links (docs/benchmarks.md). PASSIVE checkpoints alone let
 * the WAL grow without limit under constant writes, so past `walLimitBytes` the worker restarts it,
 * blocking writers only for the frames committed since its last pass. Should the worker fail, the
 * connection checkpoints by itself again.
 */
export function startBackgroundCheckpoints(db: Database, options: CheckpointOptions = {}): Checkpointer {
  const config = checkpointConfigOf(db, options);
  // it allocates a few objects a poll: a small young generation keeps its share of the RSS down
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: config,
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  worker.unref();
  const checkpointer = handOverCheckpoints(db, config.walLimitBytes);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('error', checkpointer.takeBack);
  return {
    walLimitBytes: config.walLimitBytes,
    stop: async () => {
      worker.ref(); // else an otherwise idle process exits before the worker has closed its connection
      worker.postMessage('stop');
      await exited;
      checkpointer.takeBack();
    },
  };
}

/** What the checkpoint loop of {@link CHECKPOINTS_SOURCE} is given. */
export interface CheckpointConfig {
  readonly driver: string;
  readonly path: string;
  readonly intervalMs: number;
  readonly pollMs: number;
  readonly idlePollMs: number;
  readonly idleAfterMs: number;
  readonly walLimitBytes: number;
  readonly readerWaitMs: number;
}

/** The checkpoint loop's settings for the database of `db`, the defaults filled in. */
export function checkpointConfigOf(db: Database, options: CheckpointOptions = {}): CheckpointConfig {
  return {
    driver: createRequire(import.meta.url).resolve('better-sqlite3'),
    path: db.name,
    intervalMs: options.intervalMs ?? 1000,
    pollMs: options.pollMs ?? 50,
    idlePollMs: Math.max(options.idlePollMs ?? 500, options.pollMs ?? 50),
    idleAfterMs: options.idleAfterMs ?? 250,
    walLimitBytes: options.walLimitBytes ?? DEFAULT_WAL_LIMIT_BYTES,
    readerWaitMs: options.readerWaitMs ?? 100,
  };
}

/**
 * The main connection's side of background checkpoints: it stops checkpointing by itself and trims the
 * WAL to the limit; `takeBack` (the worker failed or stopped) makes it checkpoint by itself again.
 */
export function handOverCheckpoints(db: Database, walLimitBytes: number): { takeBack: () => void } {
  db.pragma(`journal_size_limit = ${Math.trunc(walLimitBytes)}`);
  db.pragma('wal_autocheckpoint = 0');
  return {
    takeBack: () => {
      if (db.open) db.pragma('wal_autocheckpoint = 1000');
    },
  };
}

/** The size in bytes of the WAL file of the database at `path` (0 when there is none). */
export function walFileBytes(path: string): number {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
}
