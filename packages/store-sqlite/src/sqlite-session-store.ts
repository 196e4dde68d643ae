import type { SessionRecord, SessionStore } from '@shortener/core';
import type { Database } from 'better-sqlite3';

interface SessionRow {
  readonly id: string;
  readonly account_id: string;
  readonly token_hash: string;
  readonly created_at: number;
  readonly last_seen_at: number;
}

/** The SessionStore on a better-sqlite3 connection (already migrated). */
export function createSqliteSessionStore(db: Database): SessionStore {
  const insert = db.prepare<SessionRow>(
    `INSERT INTO sessions (id, account_id, token_hash, created_at, last_seen_at)
     VALUES (@id, @account_id, @token_hash, @created_at, @last_seen_at)`,
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
    addSession: async (session) =>
      void insert.run({
        id: session.id,
        account_id: session.accountId,
        token_hash: session.tokenHash,
        created_at: session.createdAt,
        last_seen_at: session.lastSeenAt,
      }),
    findSessionByHash: async (tokenHash) => toSession(byHash.get(tokenHash)),
    touchSession: async (id, at) => void touch.run(at, id),
    listSessions: async (accountId) => ofAccount.all(accountId).map((row) => toSession(row)),
    deleteSession: async (accountId, id) => deleteOne.run(accountId, id).changes === 1,
    deleteSessions: async (accountId, exceptId) => deleteAll.run(accountId, exceptId ?? '').changes,
    pruneSessions: async (seenBefore, createdBefore) => void prune.run(seenBefore, createdBefore),
  };
}

function toSession(row: SessionRow): SessionRecord;
function toSession(row: SessionRow | undefined): SessionRecord | null;
function toSession(row: SessionRow | undefined): SessionRecord | null {
  if (row === undefined) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    tokenHash: row.token_hash,
    createdAt: row.created_at,
    lastSeenAt: row.last_seen_at,
  };
}
