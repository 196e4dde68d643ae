import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { migrate } from './migrations/index.js';
import { defineTagKey } from './sqlite-tags.js';

/** True for the paths SQLite keeps in memory (or in a private temporary file) rather than at that path. */
export function isMemoryPath(path: string): boolean {
  return path === '' || path === ':memory:';
}

/**
 * How far a commit waits for the disk (SQLite's `synchronous` in WAL mode). `normal`: a commit is
 * written to the WAL but not synced; a process crash loses nothing, a power loss or kernel crash may
 * undo the last commits (never corrupting the file). `full`: every commit is synced first and survives
 * a power loss, at the cost of an fsync per commit.
 */
export type Synchronous = 'normal' | 'full';

/**
 * Page cache of the store's connection, in KiB (SQLite's `cache_size`), not better-sqlite3's 16 MiB: the
 * pages it once held stay in the process's memory for its life, and one import of 100,000 rows filled all
 * 16 (issue 58's RSS). 8 MiB holds what an account's statistics over 30 days read at 10,000 links (at 4
 * they took a fifth longer in a quiet process, `bench/stats-zones.mjs`); under load the visit worker's
 * commits empty it between two flushes anyway. The look-ups' and the worker's connections keep 4 MiB.
 */
const STORE_PAGE_CACHE_KIB = 8000;

/**
 * Opens (creating when needed, folder included) the SQLite database at `path`, sets the pragmas the
 * stores rely on and applies pending migrations. `:memory:` gives a private in-memory database.
 */
export function openSqliteDatabase(path: string, synchronous: Synchronous = 'normal'): Database {
  if (!isMemoryPath(path)) mkdirSync(dirname(path), { recursive: true });
  const db = new BetterSqlite3(path);
  try {
    configure(db, path, synchronous);
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

function configure(db: Database, path: string, synchronous: Synchronous): void {
  // busy_timeout first: switching to WAL needs a lock another connection may hold.
  db.pragma('busy_timeout = 5000');
  if (!isMemoryPath(path)) db.pragma('journal_mode = WAL');
  db.pragma(synchronous === 'full' ? 'synchronous = FULL' : 'synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // an in-memory database lives in its page cache: no bound there
  if (!isMemoryPath(path)) db.pragma(`cache_size = -${STORE_PAGE_CACHE_KIB}`);
  defineTagKey(db);
}

/** Whether `error` is better-sqlite3's report of a violated constraint of the given kind, e.g. `UNIQUE`. */
export function isConstraintError(error: unknown, kind: 'UNIQUE' | 'PRIMARYKEY' | 'FOREIGNKEY'): boolean {
  return error instanceof BetterSqlite3.SqliteError && error.code === `SQLITE_CONSTRAINT_${kind}`;
}

/**
 * Why SQLite cannot answer now, when `error` says so (the disk full, an I/O error, the file read-only,
 * the database locked past `busy_timeout`), naming SQLite's message and code as `/healthz` does; else
 * null: a bug or a refused statement.
 */
export function unavailableReason(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'SQLITE_BUSY' || code.startsWith('SQLITE_BUSY_')) {
    return `The database is busy: ${message} (${code}).`;
  }
  const cannotWrite =
    code === 'SQLITE_FULL' || /^SQLITE_(IOERR|READONLY)(_|$)/.test(code) || code === 'SQLITE_CANTOPEN';
  return cannotWrite ? `The store cannot write: ${message} (${code}).` : null;
}

/**
 * A write SQLite refused, as an error whose message says why in a person's words (`disk full`), the
 * driver's error as its cause: an import job shows it in its errors (decisions §25).
 */
export function writeFailure(error: unknown): Error {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const words =
    code === 'SQLITE_FULL'
      ? 'disk full'
      : typeof code !== 'string'
        ? message
        : code.startsWith('SQLITE_IOERR')
          ? `a disk error (${code})`
          : code.startsWith('SQLITE_READONLY')
            ? 'the database file is read-only'
            : code.startsWith('SQLITE_BUSY')
              ? 'another writer held the database too long'
              : message;
  return new Error(words, { cause: error });
}
