import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from 'better-sqlite3';

/**
 * Writes a consistent copy of `db` to `destPath` (folder created) with `VACUUM INTO`: one read
 * transaction over a snapshot, so it finishes however steadily other connections write (SQLite's
 * online backup API starts over whenever another connection commits). The copy is written to
 * `destPath.partial` in the same folder, synced, then renamed over `destPath`: a run killed half-way
 * never leaves a partial file at `destPath` (its `.partial` is replaced by the next run).
 */
export function backupDatabase(db: Database, destPath: string): void {
  const folder = dirname(destPath);
  mkdirSync(folder, { recursive: true });
  const partial = `${destPath}.partial`;
  rmSync(partial, { force: true });
  try {
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
