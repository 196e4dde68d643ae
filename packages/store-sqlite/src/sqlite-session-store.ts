import type { SessionRecord, SessionStore } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { recordOf, recordsOf, rowOf } from './row-mapping.js';

interface SessionRow {
  readonly id: string;
  readonly account_id: string;
  readonly token_hash: string;
  readonly created_at: number;
  readonly last_seen_at: number;
  readonly device: string | null;
  readonly browser: string | null;
}

/** The SessionStore on a better-sqlite3 connection (already migrated). */
export function createSqliteSessionStore(db: Database): SessionStore {
  const insert = db.prepare<SessionRow>(
    `INSERT INTO sessions (id, account_id, token_hash, created_at, last_seen_at, device, browser)
     VALUES (@id, @account_id, @token_hash, @created_at, @last_seen_at, @device, @browser)`,
  );
  const byHash = db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE token_hash = ?');
  const touch = db.prepare<[number, string]>(
    'UPDATE sessions SET last_seen_at = max(last_seen_at, ?) WHERE id = ?',
  );
  const ofAccount = db.prepare<[string], SessionRow>(
    'SELECT * FROM sessions WHERE account_id = ? ORDER BY last_seen_at DESC, id',
  );
  const deleteOne = db.prepare<[string, string]>('DELETE FROM sessions WHERE account_id = ? AND id = ?');
  const deleteAll = db.prepare<[string, string]>('DELETE FROM sessions WHERE account_id = ? AND id IS NOT ?');
  const prune = db.prepare<[number, number]>('DELETE FROM sessions WHERE last_seen_at < ? OR created_at < ?');

  return {
    addSession: async (session) => void insert.run(rowOf<SessionRow>(session)),
    findSessionByHash: async (tokenHash) => recordOf<SessionRecord>(byHash.get(tokenHash)),
    touchSession: async (id, at) => void touch.run(at, id),
    listSessions: async (accountId) => recordsOf<SessionRecord>(ofAccount.all(accountId)),
    deleteSession: async (accountId, id) => deleteOne.run(accountId, id).changes === 1,
    deleteSessions: async (accountId, exceptId) => deleteAll.run(accountId, exceptId ?? '').changes,
    pruneSessions: async (seenBefore, createdBefore) => void prune.run(seenBefore, createdBefore),
  };
}
