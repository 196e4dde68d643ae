import { domainError, err, ok } from '@shortener/core';
import type {
  ChallengePurpose,
  ChallengeRecord,
  CredentialStore,
  InviteRecord,
  Passkey,
  Result,
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
  const s = statementsOf(db);
  const addChallenge = db.transaction((row: ChallengeRow) => {
    s.pruneChallenges.run(row.created_at);
    s.insertChallenge.run(row);
  });

  return {
    setPasswordHash: async (accountId, hash) =>
      void (hash === null ? s.removePassword.run(accountId) : s.setPassword.run(accountId, hash)),
    passwordHashOf: async (accountId) => s.passwordOf.get(accountId) ?? null,
    addPasskey: async (passkey) => addPasskey(s, passkey),
    findPasskey: async (id) => passkeyOf(s.passkeyById.get(id)),
    listPasskeys: async (accountId) => s.passkeysOf.all(accountId).map((row) => passkeyOf(row) as Passkey),
    usePasskey: async (id, counter, at) => void s.usePasskey.run(counter, at, id),
    deletePasskey: async (accountId, id) => s.deletePasskey.run(accountId, id).changes === 1,
    renamePasskey: async (accountId, id, name) => s.renamePasskey.run(name, accountId, id).changes === 1,
    addInvite: async (invite) => void s.insertInvite.run(rowOf<InviteRow>(invite)),
    findInvite: async (tokenHash) => recordOf<InviteRecord>(s.inviteByHash.get(tokenHash)),
    consumeInvite: async (tokenHash, at) => recordOf<InviteRecord>(s.consumeInvite.get(at, tokenHash, at)),
    addChallenge: async (challenge) => addChallenge.immediate(rowOf<ChallengeRow>(challenge)),
    consumeChallenge: async (challenge, at) => {
      const row = s.takeChallenge.get(challenge);
      return row === undefined || at >= row.expires_at ? null : recordOf<ChallengeRecord>(row);
    },
  };
}

/** The statements of the passwords, passkeys, invites and challenges, prepared once. */
function statementsOf(db: Database) {
  return {
    setPassword: db.prepare<[string, string]>(
      `INSERT INTO account_passwords (account_id, password_hash) VALUES (?, ?)
       ON CONFLICT (account_id) DO UPDATE SET password_hash = excluded.password_hash`,
    ),
    removePassword: db.prepare<[string]>('DELETE FROM account_passwords WHERE account_id = ?'),
    passwordOf: db
      .prepare<[string], string>('SELECT password_hash FROM account_passwords WHERE account_id = ?')
      .pluck(),
    insertPasskey: db.prepare<PasskeyRow>(
      `INSERT INTO passkeys (id, account_id, public_key, counter, transports, name, created_at, last_used_at)
       VALUES (@id, @account_id, @public_key, @counter, @transports, @name, @created_at, @last_used_at)`,
    ),
    passkeyById: db.prepare<[string], PasskeyRow>('SELECT * FROM passkeys WHERE id = ?'),
    passkeysOf: db.prepare<[string], PasskeyRow>(
      'SELECT * FROM passkeys WHERE account_id = ? ORDER BY created_at, id',
    ),
    usePasskey: db.prepare<[number, number, string]>(
      'UPDATE passkeys SET counter = ?, last_used_at = max(coalesce(last_used_at, 0), ?) WHERE id = ?',
    ),
    deletePasskey: db.prepare<[string, string]>('DELETE FROM passkeys WHERE account_id = ? AND id = ?'),
    renamePasskey: db.prepare<[string, string, string]>(
      'UPDATE passkeys SET name = ? WHERE account_id = ? AND id = ?',
    ),
    insertInvite: db.prepare<InviteRow>(
      `INSERT INTO invites (token_hash, account_id, created_at, expires_at, used_at)
       VALUES (@token_hash, @account_id, @created_at, @expires_at, @used_at)`,
    ),
    inviteByHash: db.prepare<[string], InviteRow>('SELECT * FROM invites WHERE token_hash = ?'),
    consumeInvite: db.prepare<[number, string, number], InviteRow>(
      `UPDATE invites SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?
       RETURNING token_hash, account_id, created_at, expires_at, NULL AS used_at`,
    ),
    insertChallenge: db.prepare<ChallengeRow>(
      `INSERT INTO webauthn_challenges (challenge, purpose, account_id, invite_hash, created_at, expires_at)
       VALUES (@challenge, @purpose, @account_id, @invite_hash, @created_at, @expires_at)`,
    ),
    pruneChallenges: db.prepare<[number]>('DELETE FROM webauthn_challenges WHERE expires_at <= ?'),
    takeChallenge: db.prepare<[string], ChallengeRow>(
      'DELETE FROM webauthn_challenges WHERE challenge = ? RETURNING *',
    ),
  };
}

function addPasskey(s: ReturnType<typeof statementsOf>, passkey: Passkey): Result<Passkey> {
  try {
    s.insertPasskey.run(rowOf<PasskeyRow>({ ...passkey, transports: JSON.stringify(passkey.transports) }));
    return ok({ ...passkey, transports: [...passkey.transports] });
  } catch (error) {
    if (!isConstraintError(error, 'PRIMARYKEY')) throw error;
    return err(domainError('invalid_request', 'This passkey is registered already.', 'passkey'));
  }
}

/** The passkey of a row: its transports are stored as JSON. */
function passkeyOf(row: PasskeyRow | undefined): Passkey | null {
  const record = recordOf<Passkey & { transports: unknown }>(row);
  return record === null
    ? null
    : { ...record, transports: JSON.parse(String(record.transports)) as string[] };
}
