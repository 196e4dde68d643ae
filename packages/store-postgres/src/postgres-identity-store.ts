import type { IdentityLink, IdentityStore } from '@shortener/core';
import type { Pool } from 'pg';
import { selectList } from './link-rows.js';

const IDENTITY = selectList([
  ['issuer', 'issuer'],
  ['subject', 'subject'],
  ['account_id', 'accountId'],
  ['linked_at', 'linkedAt'],
]);

// One statement: of concurrent links of one identity exactly one inserts (and returns) its row.
const LINK = `INSERT INTO identities (issuer, subject, account_id, linked_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT DO NOTHING RETURNING 1`;

/** The IdentityStore on a pg pool (schema migrated). */
export function createPostgresIdentityStore(pool: Pool): IdentityStore {
  return {
    linkIdentity: async ({ issuer, subject, accountId, linkedAt }) =>
      (await pool.query(LINK, [issuer, subject, accountId, linkedAt])).rows.length === 1,
    findIdentity: async (issuer, subject) =>
      (
        await pool.query<IdentityLink>(
          `SELECT ${IDENTITY} FROM identities WHERE issuer = $1 AND subject = $2`,
          [issuer, subject],
        )
      ).rows[0] ?? null,
    listIdentities: async (accountId) =>
      (
        await pool.query<IdentityLink>(
          `SELECT ${IDENTITY} FROM identities WHERE account_id = $1 ORDER BY linked_at, issuer, subject`,
          [accountId],
        )
      ).rows,
    unlinkIdentity: async (accountId, issuer, subject) =>
      (
        await pool.query('DELETE FROM identities WHERE account_id = $1 AND issuer = $2 AND subject = $3', [
          accountId,
          issuer,
          subject,
        ])
      ).rowCount === 1,
  };
}
