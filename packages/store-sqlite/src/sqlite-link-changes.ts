import { createLinkChangeHub } from '@shortener/core';
import type { LinkChange, LinkChangeHub } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import type { TurnReads } from './turn-reads.js';

/**
 * How often the data version is read while anyone listens: a read costs about a microsecond, the
 * thread's wake for it 100-150 µs on the benchmark's machines (every 100 ms, an idle server's largest
 * share of wakes); another process's change is still served within a second (decisions §11).
 */
const POLL_EVERY_MS = 250;
/** Rows of the change log kept: a process further behind than this empties its cache instead. */
const KEEP_ROWS = 10_000;
/** How many own changes between two prunings of the log. */
const PRUNE_EVERY = 256;

/** The link changes of a SQLite connection: its own, announced by the link store, and everyone's. */
export interface SqliteLinkChanges extends LinkChangeHub {
  /** Notes a change this connection committed (announced by name); now and then prunes the log. */
  own(change: LinkChange): void;
}

/**
 * The link changes of a SQLite connection. Its own writes are announced by the link store, by name.
 * Another connection's commits (another `serve` process, the `shortener` commands, this server's own
 * visit writer) change `PRAGMA data_version`; then the rows of `link_change_log` (written by triggers
 * for every change but clicks) since the last one read name the links to drop. A flush of visits adds no
 * row, so it costs a cache nothing; a log pruned past what was read empties the cache (null). The version
 * is read every {@link POLL_EVERY_MS} while anyone listens, and by `poll()`.
 */
export function createSqliteLinkChanges(db: Database, reads?: TurnReads): SqliteLinkChanges {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const lastSeq = db.prepare<[], number>('SELECT coalesce(max(seq), 0) FROM link_change_log').pluck();
  const since = db.prepare<[number], { seq: number; id: string; domain: string; slug: string }>(
    'SELECT seq, link_id AS id, domain, slug FROM link_change_log WHERE seq > ? ORDER BY seq',
  );
  const prune = db.prepare<[number]>('DELETE FROM link_change_log WHERE seq <= ?');
  let version = 0;
  let seq = 0;
  let owned = 0;
  const read = (): number => (db.open ? (dataVersion.get() ?? 0) : version);
  version = read();
  seq = lastSeq.get() ?? 0;
  let timer: NodeJS.Timeout | undefined;
  const poll = () => {
    const current = read();
    if (current === version || !db.open) return;
    version = current;
    // the redirect's look-ups of this turn read what was committed before: from now on, what is now
    reads?.end();
    const rows = since.all(seq);
    if (rows.length === 0) return;
    // rows are numbered without gaps: a gap means the rows were pruned before this process read them
    if (rows[0]!.seq !== seq + 1) hub.emit(null);
    else for (const { id, domain, slug } of rows) hub.emit({ id, domain, slug });
    seq = rows.at(-1)!.seq;
  };
  const hub = createLinkChangeHub({
    start: () => {
      version = read();
      timer = setInterval(poll, POLL_EVERY_MS);
      timer.unref();
    },
    stop: () => clearInterval(timer),
  });
  return {
    ...hub,
    poll,
    own(change) {
      reads?.end();
      hub.emit(change);
      if (++owned % PRUNE_EVERY === 0 && db.open) prune.run((lastSeq.get() ?? 0) - KEEP_ROWS);
    },
  };
}
