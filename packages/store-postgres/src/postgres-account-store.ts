import { domainError, err, ok } from '@shortener/core';
import type { Account, AccountStore, ApiKeyRecord, Result } from '@shortener/core';
import type { Pool, PoolClient } from 'pg';
import { isUniqueViolation } from './database.js';
import { selectList } from './link-rows.js';

/** The select list of an account row as an {@link Account}. */
export const ACCOUNT = selectList([
  ['id', 'id'],
  ['name', 'name'],
  ['kind', 'kind'],
  ['role', 'role'],
  ['created_at', 'createdAt'],
  ['disabled_at', 'disabledAt'],
]);

const API_KEY = selectList([
  ['id', 'id'],
  ['account_id', 'accountId'],
  ['name', 'name'],
  ['key_hash', 'keyHash'],
  ['prefix', 'prefix'],
  ['created_at', 'createdAt'],
  ['created_via', 'createdVia'],
  ['last_used_at', 'lastUsedAt'],
  ['revoked_at', 'revokedAt'],
  ['role', 'role'],
  ['domains', 'domains'],
  ['url_hosts', 'urlHosts'],
]);

// one round trip per authenticated request: the key and its account as two JSON objects
const KEY_WITH_ACCOUNT = `SELECT json_build_object('id', k.id, 'accountId', k.account_id, 'name', k.name,
    'keyHash', k.key_hash, 'prefix', k.prefix, 'createdAt', k.created_at, 'createdVia', k.created_via,
    'lastUsedAt', k.last_used_at, 'revokedAt', k.revoked_at, 'role', k.role, 'domains', k.domains,
    'urlHosts', k.url_hosts) AS key,
  json_build_object('id', a.id, 'name', a.name, 'kind', a.kind, 'role', a.role, 'createdAt', a.created_at,
    'disabledAt', a.disabled_at) AS account
  FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = $1`;

const INSERT_KEY = `INSERT INTO api_keys
  (id, account_id, name, key_hash, prefix, created_at, created_via, last_used_at, revoked_at, role, domains,
    url_hosts)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`;

// A change given as undefined keeps its column: `$n::boolean` says whether to write it.
const UPDATE_ACCOUNT = `UPDATE accounts SET role = COALESCE($2, role),
  disabled_at = CASE WHEN $3::boolean THEN $4::bigint ELSE disabled_at END WHERE id = $1 RETURNING ${ACCOUNT}`;

/** The AccountStore on a pg pool (schema migrated). */
export function createPostgresAccountStore(pool: Pool): AccountStore {
  const one = async <T extends object>(text: string, values: unknown[]): Promise<T | null> =>
    (await pool.query<T>(text, values)).rows[0] ?? null;
  const all = async <T extends object>(text: string, values: unknown[] = []): Promise<T[]> =>
    (await pool.query<T>(text, values)).rows;

  return {
    createAccount: (account) => createAccount(pool, account),
    findAccountById: (id) => one<Account>(`SELECT ${ACCOUNT} FROM accounts WHERE id = $1`, [id]),
    findAccountByName: (name) =>
      one<Account>(`SELECT ${ACCOUNT} FROM accounts WHERE lower(name) = lower($1)`, [name]),
    listAccounts: () => all<Account>(`SELECT ${ACCOUNT} FROM accounts ORDER BY created_at, id`),
    updateAccount: (id, changes) =>
      one<Account>(UPDATE_ACCOUNT, [
        id,
        changes.role ?? null,
        changes.disabledAt !== undefined,
        changes.disabledAt ?? null,
      ]),
    addApiKey: (key) => addApiKey(pool, key),
    findApiKeyByHash: (hash) =>
      one<ApiKeyRecord>(`SELECT ${API_KEY} FROM api_keys WHERE key_hash = $1`, [hash]),
    findApiKeyWithAccount: async (hash) => {
      const { rows } = await pool.query<{ key: ApiKeyRecord; account: Account }>(KEY_WITH_ACCOUNT, [hash]);
      return rows[0] ?? null;
    },
    findApiKeyById: (id) => one<ApiKeyRecord>(`SELECT ${API_KEY} FROM api_keys WHERE id = $1`, [id]),
    listApiKeys: (accountId) =>
      all<ApiKeyRecord>(`SELECT ${API_KEY} FROM api_keys WHERE account_id = $1 ORDER BY created_at, id`, [
        accountId,
      ]),
    revokeApiKey: async (id, at) =>
      (await pool.query('UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL', [id, at]))
        .rowCount === 1,
    touchApiKey: async (id, at) =>
      void (await pool.query(
        'UPDATE api_keys SET last_used_at = GREATEST(COALESCE(last_used_at, 0), $2) WHERE id = $1',
        [id, at],
      )),
  };
}

/**
 * Inserts the account (on the pool, or in a transaction: a team with its first owner); a taken name is
 * refused. In a transaction the refused insert leaves it aborted, and its COMMIT rolls back.
 */
export async function createAccount(db: Pool | PoolClient, account: Account): Promise<Result<Account>> {
  const { id, name, kind, role, createdAt, disabledAt } = account;
  try {
    await db.query(
      'INSERT INTO accounts (id, name, kind, role, created_at, disabled_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [id, name, kind, role, createdAt, disabledAt],
    );
    return ok({ ...account });
  } catch (error) {
    // the name (in any case) is the only UNIQUE constraint; a duplicate id stays a thrown bug
    const taken = ['accounts_name_key', 'accounts_name_lower'].some((c) => isUniqueViolation(error, c));
    if (!taken) throw error;
    return err(domainError('invalid_request', 'An account with this name exists.', 'name'));
  }
}

async function addApiKey(pool: Pool, key: ApiKeyRecord): Promise<void> {
  const { id, accountId, name, keyHash, prefix, createdAt, createdVia, lastUsedAt, revokedAt, role } = key;
  // JSON text: pg would send a list as a PostgreSQL array
  const json = (list: readonly string[] | null) => (list === null ? null : JSON.stringify(list));
  await pool.query(INSERT_KEY, [
    id,
    accountId,
    name,
    keyHash,
    prefix,
    createdAt,
    createdVia,
    lastUsedAt,
    revokedAt,
    role,
    json(key.domains),
    json(key.urlHosts),
  ]);
}
