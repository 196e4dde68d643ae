import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { VisitBatch } from '@shortener/core';
import { CHECKPOINTS_SOURCE } from './checkpointer.js';
import type { CheckpointConfig } from './checkpointer.js';
import type { Synchronous } from './database.js';

// Plain CommonJS for an eval'd worker. It loads the compiled visit-writer.js and visit-compactor.js
// (from `src/`, as under the tests, the ones in `dist/`), opens its own connection to the database file
// with the pragmas of database.ts, and answers each `{ id, batch }` (a flush) or `{ id, compact }` (a
// compaction of up to that many log entries) with `{ id, result }` or `{ id, error }`. Its busy handler
// may sleep: it sleeps this thread only, never the server's event loop.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
// the WAL's checkpoints, when this thread runs them too (checkpointer.ts)
${CHECKPOINTS_SOURCE}
const stopCheckpoints = workerData.checkpoints ? startCheckpoints(workerData.checkpoints) : () => {};
const ready = (async () => {
  const { createVisitWriter } = await import(workerData.module + '/visit-writer.js');
  const { createVisitCompactor } = await import(workerData.module + '/visit-compactor.js');
  const db = new Database(workerData.path);
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = ' + workerData.synchronous);
  db.pragma('foreign_keys = ON');
  // 4 MiB of page cache, not the 16 MiB default: another connection's commit empties it anyway (the
  // server's flushes commit between two chunks), so it only ever serves one transaction
  db.pragma('cache_size = -4000');
  if (workerData.walLimitBytes !== undefined) {
    // the checkpointer's: this connection's commits reset the log after its restarts, and only the
    // resetting connection's limit trims the file (else it keeps its largest size, 200 MB and more)
    db.pragma('wal_autocheckpoint = 0');
    db.pragma('journal_size_limit = ' + workerData.walLimitBytes);
  }
  return { db, write: createVisitWriter(db), compact: createVisitCompactor(db) };
})();
ready.catch(() => {});
parentPort.on('message', async (message) => {
  if (message === 'stop') {
    try { stopCheckpoints(); } catch {}
    try { (await ready).db.close(); } catch {}
    parentPort.close();
    return;
  }
  try {
    const worker = await ready;
    const result = message.batch === undefined ? worker.compact(message.compact) : worker.write(message.batch);
    parentPort.postMessage({ id: message.id, result });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: { message: String(error && error.message || error), code: error && error.code } });
  }
});
`;

/**
 * Flushes written and the visit log compacted by a worker thread on a connection of its own (the
 * server's SQLite store): one thread, so a compaction chunk and a flush never wait for each other's lock.
 */
export interface BackgroundVisitWrites {
  /** False once the worker failed: the store writes on its own connection again. */
  usable(): boolean;
  /** Writes a flush in the worker; rejects with the SQLite error when its transaction failed. */
  write(batch: VisitBatch): Promise<void>;
  /** Folds up to `maxEntries` log entries in the worker (visit-compactor.ts); resolves with how many. */
  compact(maxEntries: number): Promise<number>;
  /** Waits for the writes under way, then closes the worker's connection. */
  stop(): Promise<void>;
}

/** Where the worker finds the compiled writer and compactor: next to this file in `dist/`, or `dist/` from `src/`. */
function writerModules(): string {
  const here = import.meta.url;
  return new URL(here.endsWith('.ts') ? '../dist/src' : '.', here).href.replace(/\/$/, '');
}

/**
 * Starts the background visit writer of the database file at `path`. A flush of a long tail of links
 * writes rows all over large B-trees (about 150 µs of CPU a cold visit at 1M links); on the event loop
 * that stalled every redirect for as long. `walLimitBytes` when the background checkpointer runs.
 */
export function startBackgroundVisitWrites(path: string, options: WorkerOptions = {}): BackgroundVisitWrites {
  const worker = spawnWorker(path, options);
  const pending = new Map<number, { resolve: (result: unknown) => void; reject: (error: Error) => void }>();
  let next = 0;
  let failed: Error | null = null;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const settle = (id: number, error?: Error, result?: unknown) => {
    const waiting = pending.get(id);
    pending.delete(id);
    // keep the process alive while a write is under way (a graceful stop's last flush), not longer
    if (pending.size === 0) worker.unref();
    if (error === undefined) waiting?.resolve(result);
    else waiting?.reject(error);
  };
  worker.on(
    'message',
    (message: { id: number; result?: unknown; error?: { message: string; code?: string } }) => {
      const error =
        message.error === undefined
          ? undefined
          : Object.assign(new Error(message.error.message), { code: message.error.code });
      settle(message.id, error, message.result);
    },
  );
  const fail = (error: Error) => {
    failed ??= error;
    for (const id of [...pending.keys()]) settle(id, error);
  };
  worker.once('error', fail);
  if (options.onFail !== undefined) worker.once('error', options.onFail);
  void exited.then(() => fail(new Error('The background visit writer stopped.')));
  const ask = (message: { batch: VisitBatch } | { compact: number }) => {
    if (failed !== null) return Promise.reject(failed);
    return new Promise<unknown>((resolve, reject) => {
      const id = next++;
      if (pending.size === 0) worker.ref();
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, ...message });
    });
  };
  return {
    usable: () => failed === null,
    write: async (batch) => void (await ask({ batch })),
    compact: async (maxEntries) => (await ask({ compact: maxEntries })) as number,
    stop: async () => {
      if (failed !== null) return;
      worker.ref();
      worker.postMessage('stop'); // after the writes already posted: the worker answers in order
      await exited;
    },
  };
}

interface WorkerOptions {
  readonly synchronous?: Synchronous;
  /** The background checkpointer's WAL limit, when it runs: the worker then never checkpoints itself. */
  readonly walLimitBytes?: number;
  /** Run the WAL's checkpoints in this worker's thread too (checkpointer.ts), not in one of their own. */
  readonly checkpoints?: CheckpointConfig;
  /** Called once should the worker fail (its thread threw). */
  readonly onFail?: () => void;
}

/** The worker thread of WORKER_SOURCE on the database file at `path`, not keeping the process alive. */
function spawnWorker(path: string, options: WorkerOptions): Worker {
  const workerData = {
    driver: createRequire(import.meta.url).resolve('better-sqlite3'),
    module: writerModules(),
    path,
    synchronous: options.synchronous === 'full' ? 'FULL' : 'NORMAL',
    walLimitBytes: options.walLimitBytes ?? options.checkpoints?.walLimitBytes,
    checkpoints: options.checkpoints,
  };
  // execArgv: [] so that no loader or export condition of the parent (a test runner's) reaches it. What
  // the worker allocates lives for one transaction: a young generation of 8 MB, not V8's 16-32, keeps
  // its share of the server's RSS down (about 4 MB less after the cache-miss case) at no measured cost
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData,
    execArgv: [],
    resourceLimits: { maxYoungGenerationSizeMb: 8 },
  });
  worker.unref();
  return worker;
}
