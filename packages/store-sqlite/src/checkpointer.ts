import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';

// Plain CommonJS for an eval'd worker, so it runs the same from `src/` (tests) and `dist/`.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path);
db.pragma('busy_timeout = 5000');
const timer = setInterval(() => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
}, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** A background WAL checkpointer; `stop()` ends it (before the main connection closes). */
export interface Checkpointer {
  stop(): Promise<void>;
}

/**
 * Moves WAL checkpoints off the event loop: the main connection stops checkpointing by itself
 * (`wal_autocheckpoint = 0`), and a worker thread with its own connection runs a PASSIVE checkpoint
 * every `intervalMs`, which never blocks the writer. A checkpoint copies the pages of the last commits
 * into the database file and syncs it; on the main thread that stalled redirects for 10 ms and more at
 * 1M links (docs/benchmarks.md). Should the worker fail, the connection checkpoints by itself again.
 */
export function startBackgroundCheckpoints(db: Database, intervalMs = 1000): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { driver, path: db.name, intervalMs } });
  worker.unref();
  db.pragma('wal_autocheckpoint = 0');
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.once('error', () => {
    if (db.open) db.pragma('wal_autocheckpoint = 1000');
  });
  return {
    stop: async () => {
      worker.ref(); // else an otherwise idle process exits before the worker has closed its connection
      worker.postMessage('stop');
      await exited;
      if (db.open) db.pragma('wal_autocheckpoint = 1000');
    },
  };
}
