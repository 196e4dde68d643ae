import { domainError, err, ok } from '@shortener/core';
import type { ChallengeRecord, CredentialStore, InviteRecord, Passkey } from '@shortener/core';
import type { Pool } from 'pg';
import { isUniqueViolation } from './database.js';
import { selectList } from './link-rows.js';

const PASSKEY = selectList([
  ['id', 'id'],
  ['account_id', 'accountId'],
  ['public_key', 'publicKey'],
  ['counter', 'counter'],
  ['transports', 'transports'],
  ['name', 'name'],
  ['created_at', 'createdAt'],
  ['last_used_at', 'lastUsedAt'],
]);

const INVITE = selectList([
  ['token_hash', 'tokenHash'],
  ['account_id', 'accountId'],
  ['created_at', 'createdAt'],
  ['expires_at', 'expiresAt'],
  ['used_at', 'usedAt'],
]);

const CHALLENGE = selectList([
  ['challenge', 'challenge'],
  ['purpose', 'purpose'],
  ['account_id', 'accountId'],
  ['invite_hash', 'inviteHash'],
  ['created_at', 'createdAt'],
  ['expires_at', 'expiresAt'],
]);

const SET_PASSWORD = `INSERT INTO account_passwords (account_id, password_hash) VALUES ($1, $2)
  ON CONFLICT (account_id) DO UPDATE SET password_hash = excluded.password_hash`;

const INSERT_PASSKEY = `INSERT INTO passkeys (id, account_id, public_key, counter, transports, name, created_at, last_used_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;

// One statement: of two concurrent calls one wins, and the invite is returned as it was (unused).
const CONSUME_INVITE = `UPDATE invites SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2
  RETURNING ${INVITE.replace('used_at AS "usedAt"', 'NULL::bigint AS "usedAt"')}`;

const ADD_CHALLENGE = `WITH expired AS (DELETE FROM webauthn_challenges WHERE expires_at <= $5)
  INSERT INTO webauthn_challenges (challenge, purpose, account_id, invite_hash, created_at, expires_at)
  VALUES ($1, $2, $3, $4, $5, $6)`;

/** The CredentialStore on a pg pool (schema migrated). */
export function createPostgresCredentialStore(pool: Pool): CredentialStore {
  const one = async <T extends object>(text: string, values: unknown[]): Promise<T | null> =>
    (await pool.query<T>(text, values)).rows[0] ?? null;
  const run = async (text: string, values: unknown[]) => (await pool.query(text, values)).rowCount ?? 0;

  const addPasskey = async (passkey: Passkey) => {
    const { id, accountId, publicKey, counter, transports, name, createdAt, lastUsedAt } = passkey;
    try {
      await run(INSERT_PASSKEY, [id, accountId, publicKey, counter, transports, name, createdAt, lastUsedAt]);
      return ok({ ...passkey, transports: [...transports] });
    } catch (error) {
      if (!isUniqueViolation(error, 'passkeys_pkey')) throw error;
      return err(domainError('invalid_request', 'This passkey is registered already.', 'passkey'));
    }
  };

  return {
    setPasswordHash: async (accountId, hash) =>
      void (await (hash === null
        ? run('DELETE FROM account_passwords WHERE account_id = $1', [accountId])
        : run(SET_PASSWORD, [accountId, hash]))),
    passwordHashOf: async (accountId) =>
      (
        await one<{ hash: string }>(
          'SELECT password_hash AS hash FROM account_passwords WHERE account_id = $1',
          [accountId],
        )
      )?.hash ?? null,
    addPasskey,
    findPasskey: (id) => one<Passkey>(`SELECT ${PASSKEY} FROM passkeys WHERE id = $1`, [id]),
    listPasskeys: async (accountId) =>
      (
        await pool.query<Passkey>(
          `SELECT ${PASSKEY} FROM passkeys WHERE account_id = $1 ORDER BY created_at, id`,
          [accountId],
        )
      ).rows,
    usePasskey: async (id, counter, at) =>
      void (await run(
        'UPDATE passkeys SET counter = $2, last_used_at = GREATEST(COALESCE(last_used_at, 0), $3) WHERE id = $1',
        [id, counter, at],
      )),
    deletePasskey: async (accountId, id) =>
      (await run('DELETE FROM passkeys WHERE account_id = $1 AND id = $2', [accountId, id])) === 1,
    renamePasskey: async (accountId, id, name) =>
      (await run('UPDATE passkeys SET name = $3 WHERE account_id = $1 AND id = $2', [
        accountId,
        id,
        name,
      ])) === 1,
    addInvite: async ({ tokenHash, accountId, createdAt, expiresAt, usedAt }) =>
      void (await run(
        'INSERT INTO invites (token_hash, account_id, created_at, expires_at, used_at) VALUES ($1, $2, $3, $4, $5)',
        [tokenHash, accountId, createdAt, expiresAt, usedAt],
      )),
    findInvite: (tokenHash) =>
      one<InviteRecord>(`SELECT ${INVITE} FROM invites WHERE token_hash = $1`, [tokenHash]),
    consumeInvite: (tokenHash, at) => one<InviteRecord>(CONSUME_INVITE, [tokenHash, at]),
    addChallenge: async (c) =>
      void (await run(ADD_CHALLENGE, [
        c.challenge,
        c.purpose,
        c.accountId,
        c.inviteHash,
        c.createdAt,
        c.expiresAt,
      ])),
    consumeChallenge: async (challenge, at) => {
      const taken = await one<ChallengeRecord>(
        `DELETE FROM webauthn_challenges WHERE challenge = $1 RETURNING ${CHALLENGE}`,
        [challenge],
      );
      return taken === null || at >= taken.expiresAt ? null : taken;
    },
  };
}
