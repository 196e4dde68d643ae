import { createLinkChangeHub } from '@shortener/core';
import type { LinkChangeHub } from '@shortener/core';
import type { Database } from 'better-sqlite3';

/** How often the data version is read while anyone listens (a read costs about a microsecond). */
const POLL_EVERY_MS = 100;

/**
 * The link changes of a SQLite connection. Its own writes are announced by the link store, by name;
 * another connection's commits (another `serve` process, the `shortener` commands) change
 * `PRAGMA data_version`, which names nothing: they are announced as null. The version is read every
 * {@link POLL_EVERY_MS} while anyone listens, and by `poll()`.
 */
export function createSqliteLinkChanges(db: Database): LinkChangeHub {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  let version = 0;
  const read = (): number => (db.open ? (dataVersion.get() ?? 0) : version);
  version = read();
  let timer: NodeJS.Timeout | undefined;
  const poll = () => {
    const current = read();
    if (current === version) return;
    version = current;
    hub.emit(null);
  };
  const hub = createLinkChangeHub({
    start: () => {
      version = read();
      timer = setInterval(poll, POLL_EVERY_MS);
      timer.unref();
    },
    stop: () => clearInterval(timer),
  });
  return { ...hub, poll };
}
