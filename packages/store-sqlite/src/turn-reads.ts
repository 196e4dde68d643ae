import { setImmediate } from 'node:timers';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';

/**
 * The redirect's look-ups on a connection of their own, one read transaction for every look-up of an
 * event-loop turn. A statement outside a transaction is a transaction of its own: SQLite takes a read
 * mark of the WAL for it (a lock and an unlock of the shared-memory file, two `fcntl` calls) and
 * checks the WAL's header, which under a cache-miss load cost about a quarter of a look-up (18-21
 * against 13-14 CPU-µs a look-up at 1,000,000 links, one transaction for each or for 20). A turn's
 * requests all arrived before it began, so they read one snapshot: the transaction ends in the turn's
 * check phase (`setImmediate`), and at once when this process changes a link (the link store's own
 * changes) or sees another connection's change (the change feed's poll), so a link is served as it
 * was committed. Its own connection, read-only: a write on the store's connection inside a read
 * transaction begun earlier would fail when another connection had committed since, and would wait
 * for the turn's end to commit.
 */
export interface TurnReads {
  /** The reading connection (`query_only`): statements of `read` are prepared on it. */
  readonly db: Database;
  /** Runs `read` inside this turn's read transaction, begun by the turn's first read. */
  read<T>(read: () => T): T;
  /** Ends the transaction under way, if any: the next read sees every commit made before it. */
  end(): void;
  /** Ends the transaction and closes the connection. */
  close(): void;
}

/**
 * Page cache of the reading connection: the inner pages of the links' slug index and table at
 * 1,000,000 links take about 1.6 MB. Leaves seldom serve twice: a link read again soon is in the
 * hot-link cache, and every commit of another connection (the flushes of visits, several a second
 * under load) empties this cache anyway.
 */
const CACHE_KIB = 4000;

/** {@link TurnReads} on the database file at `path` (opened, migrated and in WAL mode already). */
export function openTurnReads(path: string): TurnReads {
  const db = new BetterSqlite3(path, { fileMustExist: true });
  try {
    return turnReadsOn(db);
  } catch (error) {
    db.close();
    throw error;
  }
}

function turnReadsOn(db: Database): TurnReads {
  db.pragma('busy_timeout = 5000');
  db.pragma('query_only = ON');
  db.pragma(`cache_size = -${CACHE_KIB}`);
  const begin = db.prepare('BEGIN');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  let open = false;
  const end = (): void => {
    if (!open) return;
    open = false;
    if (!db.open || !db.inTransaction) return;
    // a read transaction commits nothing; should it fail anyway, it is rolled back, never left open
    try {
      commit.run();
    } catch {
      try {
        if (db.inTransaction) rollback.run();
      } catch {
        // the connection is closing: its transaction ends with it
      }
    }
  };
  return {
    db,
    read(read) {
      if (!open) {
        begin.run();
        open = true;
        setImmediate(end);
      }
      return read();
    },
    end,
    close() {
      end();
      if (db.open) db.close();
    },
  };
}
