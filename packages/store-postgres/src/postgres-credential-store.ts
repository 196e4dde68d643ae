import { domainError, err, ok } from '@shortener/core';
import type { ChallengeRecord, CredentialStore, InviteRecord, Passkey, Result } from '@shortener/core';
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
  return { ...passwordAndPasskeyMethods(pool), ...inviteAndChallengeMethods(pool) };
}

type PasswordAndPasskeyMethods = Pick<
  CredentialStore,
  | 'setPasswordHash'
  | 'passwordHashOf'
  | 'addPasskey'
  | 'findPasskey'
  | 'listPasskeys'
  | 'usePasskey'
  | 'deletePasskey'
  | 'renamePasskey'
>;

function passwordAndPasskeyMethods(pool: Pool): PasswordAndPasskeyMethods {
  return {
    setPasswordHash: async (accountId, hash) =>
      void (await (hash === null
        ? run(pool, 'DELETE FROM account_passwords WHERE account_id = $1', [accountId])
        : run(pool, SET_PASSWORD, [accountId, hash]))),
    passwordHashOf: async (accountId) =>
      (
        await one<{ hash: string }>(
          pool,
          'SELECT password_hash AS hash FROM account_passwords WHERE account_id = $1',
          [accountId],
        )
      )?.hash ?? null,
    addPasskey: (passkey) => addPasskey(pool, passkey),
    findPasskey: (id) => one<Passkey>(pool, `SELECT ${PASSKEY} FROM passkeys WHERE id = $1`, [id]),
    listPasskeys: async (accountId) =>
      (
        await pool.query<Passkey>(
          `SELECT ${PASSKEY} FROM passkeys WHERE account_id = $1 ORDER BY created_at, id`,
          [accountId],
        )
      ).rows,
    usePasskey: async (id, counter, at) =>
      void (await run(
        pool,
        'UPDATE passkeys SET counter = $2, last_used_at = GREATEST(COALESCE(last_used_at, 0), $3) WHERE id = $1',
        [id, counter, at],
      )),
    deletePasskey: async (accountId, id) =>
      (await run(pool, 'DELETE FROM passkeys WHERE account_id = $1 AND id = $2', [accountId, id])) === 1,
    renamePasskey: async (accountId, id, name) =>
      (await run(pool, 'UPDATE passkeys SET name = $3 WHERE account_id = $1 AND id = $2', [
        accountId,
        id,
        name,
      ])) === 1,
  };
}

type InviteAndChallengeMethods = Pick<
  CredentialStore,
  'addInvite' | 'findInvite' | 'consumeInvite' | 'addChallenge' | 'consumeChallenge'
>;

function inviteAndChallengeMethods(pool: Pool): InviteAndChallengeMethods {
  return {
    addInvite: async ({ tokenHash, accountId, createdAt, expiresAt, usedAt }) =>
      void (await run(
        pool,
        'INSERT INTO invites (token_hash, account_id, created_at, expires_at, used_at) VALUES ($1, $2, $3, $4, $5)',
        [tokenHash, accountId, createdAt, expiresAt, usedAt],
      )),
    findInvite: (tokenHash) =>
      one<InviteRecord>(pool, `SELECT ${INVITE} FROM invites WHERE token_hash = $1`, [tokenHash]),
    consumeInvite: (tokenHash, at) => one<InviteRecord>(pool, CONSUME_INVITE, [tokenHash, at]),
    addChallenge: async (c) =>
      void (await run(pool, ADD_CHALLENGE, [
        c.challenge,
        c.purpose,
        c.accountId,
        c.inviteHash,
        c.createdAt,
        c.expiresAt,
      ])),
    consumeChallenge: async (challenge, at) => {
      const taken = await one<ChallengeRecord>(
        pool,
        `DELETE FROM webauthn_challenges WHERE challenge = $1 RETURNING ${CHALLENGE}`,
        [challenge],
      );
      return taken === null || at >= taken.expiresAt ? null : taken;
    },
  };
}

async function addPasskey(pool: Pool, passkey: Passkey): Promise<Result<Passkey>> {
  const { id, accountId, publicKey, counter, transports, name, createdAt, lastUsedAt } = passkey;
  try {
    await run(pool, INSERT_PASSKEY, [
      id,
      accountId,
      publicKey,
      counter,
      transports,
      name,
      createdAt,
      lastUsedAt,
    ]);
    return ok({ ...passkey, transports: [...transports] });
  } catch (error) {
    if (!isUniqueViolation(error, 'passkeys_pkey')) throw error;
    return err(domainError('invalid_request', 'This passkey is registered already.', 'passkey'));
  }
}

/** The first row of a query, or null. */
async function one<T extends object>(pool: Pool, text: string, values: unknown[]): Promise<T | null> {
  return (await pool.query<T>(text, values)).rows[0] ?? null;
}

/** How many rows a statement changed. */
async function run(pool: Pool, text: string, values: unknown[]): Promise<number> {
  return (await pool.query(text, values)).rowCount ?? 0;
}
