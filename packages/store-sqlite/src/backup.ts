import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from 'better-sqlite3';

/**
 * Writes a consistent copy of `db` to `destPath` (folder created) with `VACUUM INTO`: one read
 * transaction over a snapshot, so it finishes however steadily other connections write (SQLite's
 * online backup API starts over whenever another connection commits). The copy is written to
 * `destPath.partial` in the same folder, synced, then renamed over `destPath`: a run killed half-way
 * never leaves a partial file at `destPath` (its `.partial` is replaced by the next run). The file is
 * made 0600, as `export` writes its file.
 */
export function backupDatabase(db: Database, destPath: string): void {
  const folder = dirname(destPath);
  mkdirSync(folder, { recursive: true });
  const partial = `${destPath}.partial`;
  rmSync(partial, { force: true });
  try {
    // the copy holds every hash of keys, tokens and passwords: readable by its owner only, from the start
    // (VACUUM INTO takes an empty file, so it keeps the mode it was made with)
    closeSync(openSync(partial, 'wx', 0o600));
    chmodSync(partial, 0o600);
    db.prepare('VACUUM INTO ?').run(partial);
    // VACUUM INTO does not sync its output: do it before the rename makes the copy the backup.
    syncPath(partial, 'r+');
    renameSync(partial, destPath);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  syncPath(folder, 'r');
}

function syncPath(path: string, flags: 'r' | 'r+'): void {
  const fd = openSync(path, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
