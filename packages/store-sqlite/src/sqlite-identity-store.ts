import type { IdentityLink, IdentityStore } from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { recordOf, recordsOf, rowOf } from './row-mapping.js';

interface IdentityRow {
  readonly issuer: string;
  readonly subject: string;
  readonly account_id: string;
  readonly linked_at: number;
}

/**
 * The IdentityStore on a better-sqlite3 connection (migrated). A link is one INSERT that does nothing
 * on the (issuer, subject) key taken, so of concurrent links of one identity exactly one changes a row.
 */
export function createSqliteIdentityStore(db: Database): IdentityStore {
  const s = statementsOf(db);
  return {
    linkIdentity: async (link) => s.insert.run(rowOf<IdentityRow>(link)).changes === 1,
    findIdentity: async (issuer, subject) => recordOf<IdentityLink>(s.identity.get(issuer, subject)),
    listIdentities: async (accountId) => recordsOf<IdentityLink>(s.identitiesOf.all(accountId)),
    unlinkIdentity: async (accountId, issuer, subject) =>
      s.delete.run(accountId, issuer, subject).changes === 1,
  };
}

/** The statements of the identities, prepared once. */
function statementsOf(db: Database) {
  return {
    insert: db.prepare<IdentityRow>(
      `INSERT INTO identities (issuer, subject, account_id, linked_at)
       VALUES (@issuer, @subject, @account_id, @linked_at) ON CONFLICT DO NOTHING`,
    ),
    identity: db.prepare<[string, string], IdentityRow>(
      'SELECT * FROM identities WHERE issuer = ? AND subject = ?',
    ),
    identitiesOf: db.prepare<[string], IdentityRow>(
      'SELECT * FROM identities WHERE account_id = ? ORDER BY linked_at, issuer, subject',
    ),
    delete: db.prepare<[string, string, string]>(
      'DELETE FROM identities WHERE account_id = ? AND issuer = ? AND subject = ?',
    ),
  };
}
