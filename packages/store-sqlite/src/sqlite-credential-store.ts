import { domainError, err, ok } from '@shortener/core';
import type {
  ChallengePurpose,
  ChallengeRecord,
  CredentialStore,
  InviteRecord,
  Passkey,
} from '@shortener/core';
import type { Database } from 'better-sqlite3';
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
      insertPasskey.run(toPasskeyRow(passkey));
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
    findPasskey: async (id) => toPasskey(passkeyById.get(id)),
    listPasskeys: async (accountId) => passkeysOf.all(accountId).map((row) => toPasskey(row)),
    usePasskey: async (id, counter, at) => void usePasskey.run(counter, at, id),
    deletePasskey: async (accountId, id) => deletePasskey.run(accountId, id).changes === 1,
    addInvite: async (invite) => void insertInvite.run(toInviteRow(invite)),
    findInvite: async (tokenHash) => toInvite(inviteByHash.get(tokenHash)),
    consumeInvite: async (tokenHash, at) => toInvite(consumeInvite.get(at, tokenHash, at)),
    addChallenge: async (challenge) => addChallenge.immediate(toChallengeRow(challenge)),
    consumeChallenge: async (challenge, at) => {
      const row = takeChallenge.get(challenge);
      return row === undefined || at >= row.expires_at ? null : toChallenge(row);
    },
  };
}

function toPasskeyRow(p: Passkey): PasskeyRow {
  return {
    id: p.id,
    account_id: p.accountId,
    public_key: p.publicKey,
    counter: p.counter,
    transports: JSON.stringify(p.transports),
    name: p.name,
    created_at: p.createdAt,
    last_used_at: p.lastUsedAt,
  };
}

function toPasskey(row: PasskeyRow): Passkey;
function toPasskey(row: PasskeyRow | undefined): Passkey | null;
function toPasskey(row: PasskeyRow | undefined): Passkey | null {
  if (row === undefined) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    publicKey: row.public_key,
    counter: row.counter,
    transports: JSON.parse(row.transports) as string[],
    name: row.name,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
  };
}

function toInviteRow(i: InviteRecord): InviteRow {
  return {
    token_hash: i.tokenHash,
    account_id: i.accountId,
    created_at: i.createdAt,
    expires_at: i.expiresAt,
    used_at: i.usedAt,
  };
}

function toInvite(row: InviteRow | undefined): InviteRecord | null {
  if (row === undefined) return null;
  return {
    tokenHash: row.token_hash,
    accountId: row.account_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    usedAt: row.used_at,
  };
}

function toChallengeRow(c: ChallengeRecord): ChallengeRow {
  return {
    challenge: c.challenge,
    purpose: c.purpose,
    account_id: c.accountId,
    invite_hash: c.inviteHash,
    created_at: c.createdAt,
    expires_at: c.expiresAt,
  };
}

function toChallenge(row: ChallengeRow): ChallengeRecord {
  return {
    challenge: row.challenge,
    purpose: row.purpose,
    accountId: row.account_id,
    inviteHash: row.invite_hash,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}
