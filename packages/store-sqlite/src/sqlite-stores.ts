import { classifyStoreErrors } from '@shortener/core';
import type { Stores } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { startBackgroundVisitWrites } from './background-visit-writes.js';
import type { BackgroundVisitWrites } from './background-visit-writes.js';
import { backupDatabase } from './backup.js';
import {
  checkpointConfigOf,
  handOverCheckpoints,
  startBackgroundCheckpoints,
  walFileBytes,
} from './checkpointer.js';
import type { Checkpointer, CheckpointOptions } from './checkpointer.js';
import { isMemoryPath, openSqliteDatabase, unavailableReason } from './database.js';
import { userVersion } from './migrations/index.js';
import type { Synchronous } from './database.js';
import { createSqliteAccountStore } from './sqlite-account-store.js';
import { createSqliteCredentialStore } from './sqlite-credential-store.js';
import { createSqliteDomainStore } from './sqlite-domain-store.js';
import { createSqliteEventStore } from './sqlite-event-store.js';
import { createSqliteIdentityStore } from './sqlite-identity-store.js';
import { createSqliteLinkListing } from './sqlite-link-listing.js';
import { createSqliteOrphanStore } from './sqlite-orphan-store.js';
import { createSqliteImportStore } from './sqlite-import-store.js';
import { createSqliteLinkStore } from './sqlite-link-store.js';
import { createSqliteSessionStore } from './sqlite-session-store.js';
import { createSqliteSettingStore } from './sqlite-setting-store.js';
import { createSqliteTeamStore } from './sqlite-team-store.js';
import { createSqliteVisitStore } from './sqlite-visit-store.js';
import { openTurnReads } from './turn-reads.js';
import type { TurnReads } from './turn-reads.js';

/** The SQLite stores, sharing one connection, plus an online backup. */
export interface SqliteStores extends Stores {
  /**
   * Copies the live database to `destPath` (folder created) while other connections keep writing,
   * through a temporary file renamed when complete. Blocks this connection while it copies: for the
   * `backup` command, not the server.
   */
  backup(destPath: string): Promise<void>;
  /**
   * The size in bytes of the database's WAL file now (0 for `:memory:` or when there is none): the
   * soak benchmark and operators watch it stay bounded (see the background checkpoints).
   */
  walBytes(): number;
}

/**
 * Opens the SQLite database at `path` (folder created, pragmas set, migrations applied) and returns
 * its stores. `:memory:` gives a private in-memory database that lives until `close()`.
 */
export function openSqliteStores(path: string, options: SqliteStoreOptions = {}): SqliteStores {
  const db = openSqliteDatabase(path, options.synchronous);
  // what is opened on the way, closed (latest first) should a later step throw: nothing is left open
  const opened: Array<() => unknown> = [() => db.close()];
  try {
    return storesOn(db, path, options, (close) => opened.push(close));
  } catch (error) {
    for (const close of opened.reverse()) {
      try {
        void Promise.resolve(close()).catch(() => undefined);
      } catch {
        // the step's own error is the one to report
      }
    }
    throw error;
  }
}

/** {@link openSqliteStores} once `db` is open; `opened` is told how to close each part it starts. */
function storesOn(
  db: Database,
  path: string,
  options: SqliteStoreOptions,
  opened: (close: () => unknown) => void,
): SqliteStores {
  const onFile = !isMemoryPath(path);
  const checkpoints = options.backgroundCheckpoints === true && onFile;
  const writesInWorker = options.backgroundWrites === true;
  if (!((options.backgroundWrites || options.backgroundCompaction) && onFile)) {
    const checkpointer = checkpoints ? startBackgroundCheckpoints(db, options.checkpoints) : undefined;
    if (checkpointer) opened(() => checkpointer.stop());
    return createSqliteStores(db, { checkpointer, writesInWorker });
  }
  // the server's stores: the redirect's look-ups on a connection of their own (turn-reads.ts)
  const reads = openTurnReads(path);
  opened(() => reads.close());
  // one worker thread for the visits and the checkpoints: a thread of its own cost about 17 MB of RSS
  const synchronous = options.synchronous ? { synchronous: options.synchronous } : {};
  if (!checkpoints) {
    const worker = startBackgroundVisitWrites(path, synchronous);
    opened(() => worker.stop());
    return createSqliteStores(db, { worker, writesInWorker, reads });
  }
  const config = checkpointConfigOf(db, options.checkpoints);
  const { takeBack } = handOverCheckpoints(db, config.walLimitBytes);
  const worker = startBackgroundVisitWrites(path, { ...synchronous, checkpoints: config, onFail: takeBack });
  opened(() => worker.stop());
  // stopped after the worker (createSqliteStores' close), whose 'stop' ends the checkpoints
  const checkpointer: Checkpointer = { walLimitBytes: config.walLimitBytes, stop: async () => takeBack() };
  return createSqliteStores(db, { checkpointer, worker, writesInWorker, reads });
}

/** What {@link createSqliteStores} runs beside the store's connection. */
export interface SqliteStoreParts {
  readonly checkpointer?: Checkpointer | undefined;
  /** The visit log is folded there, and the flushes too when `writesInWorker` (default true). */
  readonly worker?: BackgroundVisitWrites | undefined;
  readonly writesInWorker?: boolean;
  /** The redirect's look-ups, on a connection of their own (turn-reads.ts). */
  readonly reads?: TurnReads | undefined;
}

/** How {@link openSqliteStores} runs the database. */
export interface SqliteStoreOptions {
  /**
   * Checkpoint the WAL in a worker thread instead of on the committing connection: for the server,
   * whose event loop must not stall; a short CLI command does not need the extra thread.
   */
  readonly backgroundCheckpoints?: boolean;
  /**
   * Write the visit flushes (`VisitStore.record`) in a worker thread on a connection of its own: for the
   * server, whose redirects would otherwise wait while a flush of many cold links writes.
   */
  readonly backgroundWrites?: boolean;
  /**
   * Fold the visit log (`VisitStore.compact`) in that worker thread on a connection of its own, even
   * when the flushes stay on the main connection: folding a long tail of links writes rows all over the
   * large counter and visitor B-trees, which must not stall the event loop.
   */
  readonly backgroundCompaction?: boolean;
  /** Whether commits wait for the disk (default `normal`): see {@link Synchronous}. */
  readonly synchronous?: Synchronous;
  /** Tuning of the background checkpoints (tests use a small WAL limit); the defaults suit a server. */
  readonly checkpoints?: CheckpointOptions;
}

/**
 * The stores on an open, migrated connection; they own it (and the `parts`) from now on and close it in
 * `close()`.
 */
export function createSqliteStores(db: Database, parts: SqliteStoreParts = {}): SqliteStores {
  const { checkpointer, worker, writesInWorker = true, reads } = parts;
  const ping = db.prepare('SELECT 1').pluck();
  // Rewriting user_version with its own value dirties the header page: a real commit, no change.
  const rewriteVersion = db.transaction(() => db.pragma(`user_version = ${userVersion(db)}`));
  // a full disk, an I/O error or a lock held too long is thrown as the store unavailable (503), not a bug
  const classified = <T extends object>(store: T): T => classifyStoreErrors(store, unavailableReason);
  const links = createSqliteLinkStore(db, reads);
  return {
    links: classified({ ...links, listAll: createSqliteLinkListing(db) }),
    imports: classified(createSqliteImportStore(db, (change) => links.changes.own(change))),
    orphans: classified(createSqliteOrphanStore(db)),
    domains: classified(createSqliteDomainStore(db)),
    visits: classified(createSqliteVisitStore(db, worker, writesInWorker)),
    accounts: classified(createSqliteAccountStore(db)),
    teams: classified(createSqliteTeamStore(db)),
    identities: classified(createSqliteIdentityStore(db)),
    sessions: classified(createSqliteSessionStore(db)),
    credentials: classified(createSqliteCredentialStore(db)),
    settings: classified(createSqliteSettingStore(db)),
    events: classified(createSqliteEventStore(db)),
    ping: async () => {
      try {
        return ping.get() === 1;
      } catch {
        return false;
      }
    },
    checkWritable: async () => void rewriteVersion.immediate(),
    close: async () => {
      await worker?.stop();
      await checkpointer?.stop();
      reads?.close();
      if (db.open) db.close();
    },
    backup: async (destPath) => backupDatabase(db, destPath),
    walBytes: () => (isMemoryPath(db.name) ? 0 : walFileBytes(db.name)),
  };
}
