import type { SessionRecord, SessionStore } from '@shortener/core';
import type { Pool } from 'pg';
import { selectList } from './link-rows.js';

const SESSION = selectList([
  ['id', 'id'],
  ['account_id', 'accountId'],
  ['token_hash', 'tokenHash'],
  ['created_at', 'createdAt'],
  ['last_seen_at', 'lastSeenAt'],
  ['device', 'device'],
  ['browser', 'browser'],
]);

/** The SessionStore on a pg pool (schema migrated). */
export function createPostgresSessionStore(pool: Pool): SessionStore {
  const run = async (text: string, values: unknown[]) => (await pool.query(text, values)).rowCount ?? 0;
  return {
    addSession: async ({ id, accountId, tokenHash, createdAt, lastSeenAt, device, browser }) =>
      void (await run(
        `INSERT INTO sessions (id, account_id, token_hash, created_at, last_seen_at, device, browser)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, accountId, tokenHash, createdAt, lastSeenAt, device, browser],
      )),
    findSessionByHash: async (tokenHash) =>
      (await pool.query<SessionRecord>(`SELECT ${SESSION} FROM sessions WHERE token_hash = $1`, [tokenHash]))
        .rows[0] ?? null,
    touchSession: async (id, at) =>
      void (await run('UPDATE sessions SET last_seen_at = GREATEST(last_seen_at, $2) WHERE id = $1', [
        id,
        at,
      ])),
    listSessions: async (accountId) =>
      (
        await pool.query<SessionRecord>(
          `SELECT ${SESSION} FROM sessions WHERE account_id = $1 ORDER BY last_seen_at DESC, id`,
          [accountId],
        )
      ).rows,
    deleteSession: async (accountId, id) =>
      (await run('DELETE FROM sessions WHERE account_id = $1 AND id = $2', [accountId, id])) === 1,
    deleteSessions: (accountId, exceptId) =>
      run('DELETE FROM sessions WHERE account_id = $1 AND id IS DISTINCT FROM $2', [accountId, exceptId]),
    pruneSessions: async (seenBefore, createdBefore) =>
      void (await run('DELETE FROM sessions WHERE last_seen_at < $1 OR created_at < $2', [
        seenBefore,
        createdBefore,
      ])),
  };
}
