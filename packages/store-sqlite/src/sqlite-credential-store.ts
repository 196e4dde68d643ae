import { domainError, err, ok } from '@shortener/core';
import type {
  ChallengePurpose,
  ChallengeRecord,
  CredentialStore,
  InviteRecord,
  Passkey,
} from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { recordOf, rowOf } from './row-mapping.js';
import { isConstraintError } from './database.js';

interface PasskeyRow {
  readonly id: string;
  readonly account_id: string;
  readonly public_key: string;
  readonly counter: number;
  /** JSON array of strings. */
  readonly transports: string;
  readonly name: string;
  readonly created_at: number;
  readonly last_used_at: number | null;
}

interface InviteRow {
  readonly token_hash: string;
  readonly account_id: string;
  readonly created_at: number;
  readonly expires_at: number;
  readonly used_at: number | null;
}

interface ChallengeRow {
  readonly challenge: string;
  readonly purpose: ChallengePurpose;
  readonly account_id: string | null;
  readonly invite_hash: string | null;
  readonly created_at: number;
  readonly expires_at: number;
}

/** The CredentialStore on a better-sqlite3 connection (already migrated). */
export function createSqliteCredentialStore(db: Database): CredentialStore {
  const setPassword = db.prepare<[string, string]>(
    `INSERT INTO account_passwords (account_id, password_hash) VALUES (?, ?)
     ON CONFLICT (account_id) DO UPDATE SET password_hash = excluded.password_hash`,
  );
  const removePassword = db.prepare<[string]>('DELETE FROM account_passwords WHERE account_id = ?');
  const passwordOf = db
    .prepare<[string], string>('SELECT password_hash FROM account_passwords WHERE account_id = ?')
    .pluck();
  const insertPasskey = db.prepare<PasskeyRow>(
    `INSERT INTO passkeys (id, account_id, public_key, counter, transports, name, created_at, last_used_at)
     VALUES (@id, @account_id, @public_key, @counter, @transports, @name, @created_at, @last_used_at)`,
  );
  const passkeyById = db.prepare<[string], PasskeyRow>('SELECT * FROM passkeys WHERE id = ?');
  const passkeysOf = db.prepare<[string], PasskeyRow>(
    'SELECT * FROM passkeys WHERE account_id = ? ORDER BY created_at, id',
  );
  const usePasskey = db.prepare<[number, number, string]>(
    'UPDATE passkeys SET counter = ?, last_used_at = max(coalesce(last_used_at, 0), ?) WHERE id = ?',
  );
  const deletePasskey = db.prepare<[string, string]>('DELETE FROM passkeys WHERE account_id = ? AND id = ?');
  const renamePasskey = db.prepare<[string, string, string]>(
    'UPDATE passkeys SET name = ? WHERE account_id = ? AND id = ?',
  );
  const insertInvite = db.prepare<InviteRow>(
    `INSERT INTO invites (token_hash, account_id, created_at, expires_at, used_at)
     VALUES (@token_hash, @account_id, @created_at, @expires_at, @used_at)`,
  );
  const inviteByHash = db.prepare<[string], InviteRow>('SELECT * FROM invites WHERE token_hash = ?');
  const consumeInvite = db.prepare<[number, string, number], InviteRow>(
    `UPDATE invites SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
     RETURNING token_hash, account_id, created_at, expires_at, NULL AS used_at`,
  );
  const insertChallenge = db.prepare<ChallengeRow>(
    `INSERT INTO webauthn_challenges (challenge, purpose, account_id, invite_hash, created_at, expires_at)
     VALUES (@challenge, @purpose, @account_id, @invite_hash, @created_at, @expires_at)`,
  );
  const pruneChallenges = db.prepare<[number]>('DELETE FROM webauthn_challenges WHERE expires_at <= ?');
  const takeChallenge = db.prepare<[string], ChallengeRow>(
    'DELETE FROM webauthn_challenges WHERE challenge = ? RETURNING *',
  );
  const addChallenge = db.transaction((row: ChallengeRow) => {
    pruneChallenges.run(row.created_at);
    insertChallenge.run(row);
  });

  const addPasskey = (passkey: Passkey) => {
    try {
      insertPasskey.run(rowOf<PasskeyRow>({ ...passkey, transports: JSON.stringify(passkey.transports) }));
      return ok({ ...passkey, transports: [...passkey.transports] });
    } catch (error) {
      if (!isConstraintError(error, 'PRIMARYKEY')) throw error;
      return err(domainError('invalid_request', 'This passkey is registered already.', 'passkey'));
    }
  };

  return {
    setPasswordHash: async (accountId, hash) =>
      void (hash === null ? removePassword.run(accountId) : setPassword.run(accountId, hash)),
    passwordHashOf: async (accountId) => passwordOf.get(accountId) ?? null,
    addPasskey: async (passkey) => addPasskey(passkey),
    findPasskey: async (id) => passkeyOf(passkeyById.get(id)),
    listPasskeys: async (accountId) => passkeysOf.all(accountId).map((row) => passkeyOf(row) as Passkey),
    usePasskey: async (id, counter, at) => void usePasskey.run(counter, at, id),
    deletePasskey: async (accountId, id) => deletePasskey.run(accountId, id).changes === 1,
    renamePasskey: async (accountId, id, name) => renamePasskey.run(name, accountId, id).changes === 1,
    addInvite: async (invite) => void insertInvite.run(rowOf<InviteRow>(invite)),
    findInvite: async (tokenHash) => recordOf<InviteRecord>(inviteByHash.get(tokenHash)),
    consumeInvite: async (tokenHash, at) => recordOf<InviteRecord>(consumeInvite.get(at, tokenHash, at)),
    addChallenge: async (challenge) => addChallenge.immediate(rowOf<ChallengeRow>(challenge)),
    consumeChallenge: async (challenge, at) => {
      const row = takeChallenge.get(challenge);
      return row === undefined || at >= row.expires_at ? null : recordOf<ChallengeRecord>(row);
    },
  };
}

/** The passkey of a row: its transports are stored as JSON. */
function passkeyOf(row: PasskeyRow | undefined): Passkey | null {
  const record = recordOf<Passkey & { transports: unknown }>(row);
  return record === null
    ? null
    : { ...record, transports: JSON.parse(String(record.transports)) as string[] };
}
