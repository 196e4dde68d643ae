import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Stores } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { startBackgroundCheckpoints } from './checkpointer.js';
import type { Checkpointer } from './checkpointer.js';
import { isMemoryPath, openSqliteDatabase } from './database.js';
import { createSqliteAccountStore } from './sqlite-account-store.js';
import { createSqliteLinkListing } from './sqlite-link-listing.js';
import { createSqliteLinkStore } from './sqlite-link-store.js';
import { createSqliteVisitStore } from './sqlite-visit-store.js';

/** The SQLite stores, sharing one connection, plus an online backup. */
export interface SqliteStores extends Stores {
  /** Copies the live database to `destPath` (folder created) while the stores keep serving. */
  backup(destPath: string): Promise<void>;
}

/**
 * Opens the SQLite database at `path` (folder created, pragmas set, migrations applied) and returns
 * its stores. `:memory:` gives a private in-memory database that lives until `close()`.
 */
export function openSqliteStores(path: string, options: SqliteStoreOptions = {}): SqliteStores {
  const db = openSqliteDatabase(path);
  const checkpointer =
    options.backgroundCheckpoints && !isMemoryPath(path) ? startBackgroundCheckpoints(db) : undefined;
  return createSqliteStores(db, checkpointer);
}

/** How {@link openSqliteStores} runs the database. */
export interface SqliteStoreOptions {
  /**
   * Checkpoint the WAL in a worker thread instead of on the committing connection: for the server,
   * whose event loop must not stall; a short CLI command does not need the extra thread.
   */
  readonly backgroundCheckpoints?: boolean;
}

/** The stores on an open, migrated connection; they own it from now on and close it in `close()`. */
export function createSqliteStores(db: Database, checkpointer?: Checkpointer): SqliteStores {
  const ping = db.prepare('SELECT 1').pluck();
  return {
    links: { ...createSqliteLinkStore(db), listAll: createSqliteLinkListing(db) },
    visits: createSqliteVisitStore(db),
    accounts: createSqliteAccountStore(db),
    ping: async () => {
      try {
        return ping.get() === 1;
      } catch {
        return false;
      }
    },
    close: async () => {
      await checkpointer?.stop();
      if (db.open) db.close();
    },
    backup: async (destPath) => {
      mkdirSync(dirname(destPath), { recursive: true });
      await db.backup(destPath);
    },
  };
}
