import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from 'better-sqlite3';

/** How long a write waits for the lock in all, as the connection's `busy_timeout` (database.ts). */
const WAIT_LIMIT_MS = 5000;
/** The connection's `busy_timeout` outside {@link WriteLock.write}. */
const BUSY_TIMEOUT_MS = 5000;

/** Runs a write transaction without sleeping the event loop while another connection holds the lock. */
export interface WriteLock {
  /**
   * Runs `transaction` (an IMMEDIATE transaction: it takes the write lock first, so a busy lock fails
   * it before it wrote anything). While another connection holds the lock, the event loop answers
   * other requests and the transaction is tried again, up to 5 s in all; then the busy error is thrown.
   */
  write<T>(transaction: () => T): Promise<T>;
}

/**
 * The write lock of a connection. SQLite's busy handler waits by sleeping the calling thread, in steps
 * that grow to 100 ms: while the checkpoint worker truncates the WAL (it holds the write lock while it
 * copies the last frames and syncs the file), or another process writes, the server's whole event loop
 * would sleep with it. Here a busy lock costs the waiting transaction a retry a millisecond later, and
 * nothing else.
 */
export function createWriteLock(db: Database): WriteLock {
  const isBusy = (error: unknown) =>
    typeof (error as { code?: unknown }).code === 'string' &&
    (error as { code: string }).code.startsWith('SQLITE_BUSY');
  // SQLite sets the busy timeout when it compiles the pragma, so a prepared one would do nothing when run
  const tryOnce = <T>(transaction: () => T): T => {
    db.pragma('busy_timeout = 0');
    try {
      return transaction();
    } finally {
      db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  };
  return {
    async write(transaction) {
      const giveUpAt = Date.now() + WAIT_LIMIT_MS;
      for (;;) {
        try {
          return tryOnce(transaction);
        } catch (error) {
          if (!isBusy(error) || Date.now() >= giveUpAt || !db.open) throw error;
        }
        await sleep(1);
      }
    },
  };
}
