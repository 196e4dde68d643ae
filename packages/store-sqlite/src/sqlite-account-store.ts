import { domainError, err, ok } from '@shortener/core';
import type {
  Account,
  AccountChanges,
  AccountKind,
  AccountStore,
  ApiKeyRecord,
  KeyOrigin,
  KeyRole,
  Result,
  Role,
} from '@shortener/core';
import type { Database, Statement } from 'better-sqlite3';
import { isConstraintError } from './database.js';
import { recordOf, recordsOf, rowOf } from './row-mapping.js';

export interface AccountRow {
  readonly id: string;
  readonly name: string;
  readonly kind: AccountKind;
  readonly role: Role;
  readonly created_at: number;
  readonly disabled_at: number | null;
}

interface ApiKeyRow {
  readonly id: string;
  readonly account_id: string;
  readonly name: string;
  readonly key_hash: string;
  readonly prefix: string;
  readonly created_at: number;
  readonly created_via: KeyOrigin;
  readonly last_used_at: number | null;
  readonly revoked_at: number | null;
  readonly role: KeyRole;
  /** A JSON list, or NULL for no limit. */
  readonly domains: string | null;
  readonly url_hosts: string | null;
}

interface KeyWithAccountRow extends ApiKeyRow {
  readonly account_name: string;
  readonly account_kind: AccountKind;
  readonly account_role: Role;
  readonly account_created_at: number;
  readonly account_disabled_at: number | null;
}

/** A key and its account from one joined row, mapped by hand: it is read on every keyed request. */
function keyAndAccountOf(row: KeyWithAccountRow): { key: ApiKeyRecord; account: Account } {
  return {
    key: {
      id: row.id,
      accountId: row.account_id,
      name: row.name,
      keyHash: row.key_hash,
      prefix: row.prefix,
      createdAt: row.created_at,
      createdVia: row.created_via,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
      role: row.role,
      domains: listOf(row.domains),
      urlHosts: listOf(row.url_hosts),
    },
    account: {
      id: row.account_id,
      name: row.account_name,
      kind: row.account_kind,
      role: row.account_role,
      createdAt: row.account_created_at,
      disabledAt: row.account_disabled_at,
    },
  };
}

/** A key's limit as stored: a JSON list, or NULL for none. */
const listOf = (text: string | null): readonly string[] | null =>
  text === null ? null : (JSON.parse(text) as string[]);
const listText = (list: readonly string[] | null): string | null =>
  list === null ? null : JSON.stringify(list);

/** The key of a row, its limits' JSON read back. */
const keyOf = (row: ApiKeyRow): ApiKeyRecord => ({
  ...(recordOf<ApiKeyRecord>(row) as ApiKeyRecord),
  domains: listOf(row.domains),
  urlHosts: listOf(row.url_hosts),
});
const keyOrNull = (row: ApiKeyRow | undefined): ApiKeyRecord | null =>
  row === undefined ? null : keyOf(row);

/** The row of a key: its limits as JSON text. */
const keyRowOf = (key: ApiKeyRecord): ApiKeyRow => ({
  ...rowOf<ApiKeyRow>(key),
  domains: listText(key.domains),
  url_hosts: listText(key.urlHosts),
});

/** Keys kept by {@link createKeyCache} at most: a full cache starts again empty. */
const MAX_CACHED_KEYS = 1000;

type KeyAndAccount = ReturnType<typeof keyAndAccountOf>;

/**
 * The key and account of each presented API key, kept between requests: authentication reads them for
 * every keyed request (a join, about 15 of a creation's 220 CPU-µs under load). Exact: the store's own
 * writes to keys and accounts empty it, and another connection's commit (a `shortener` command, another
 * server process) changes `PRAGMA data_version`, which every look-up reads first (2.4 µs, the join 5.7).
 * Unknown keys are not kept, so made-up keys cannot fill it.
 */
function createKeyCache(db: Database) {
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  const entries = new Map<string, KeyAndAccount>();
  let version = -1;
  return {
    get(keyHash: string): KeyAndAccount | undefined {
      const now = dataVersion.get() ?? 0;
      if (now !== version) {
        entries.clear();
        version = now;
      }
      return entries.get(keyHash);
    },
    set(keyHash: string, found: KeyAndAccount): void {
      if (entries.size >= MAX_CACHED_KEYS) entries.clear();
      entries.set(keyHash, found);
    },
    clear: () => entries.clear(),
  };
}

/** The AccountStore on a better-sqlite3 connection (already migrated). Statements are prepared once, here. */
export function createSqliteAccountStore(db: Database): AccountStore {
  const s = statementsOf(db);
  const keys = createKeyCache(db);
  /** A write to keys or accounts: the cached keys are dropped with it. */
  const writing = <T>(write: () => T): T => {
    keys.clear();
    return write();
  };
  return {
    createAccount: async (account) => createAccount(s, account),
    findAccountById: async (id) => recordOf<Account>(s.accountById.get(id)),
    findAccountByName: async (name) => recordOf<Account>(s.accountByName.get(name)),
    listAccounts: async () => recordsOf<Account>(s.allAccounts.all()),
    updateAccount: async (id, changes) => writing(() => updateAccount(s, id, changes)),
    addApiKey: async (key) => writing(() => void s.insertKey.run(keyRowOf(key))),
    findApiKeyByHash: async (keyHash) => keyOrNull(s.keyByHash.get(keyHash)),
    findApiKeyWithAccount: async (keyHash) => {
      const cached = keys.get(keyHash);
      if (cached !== undefined) return cached;
      const row = s.keyWithAccount.get(keyHash);
      if (row === undefined) return null;
      const found = keyAndAccountOf(row);
      keys.set(keyHash, found);
      return found;
    },
    findApiKeyById: async (id) => keyOrNull(s.keyById.get(id)),
    listApiKeys: async (accountId) => s.keysOf.all(accountId).map(keyOf),
    revokeApiKey: async (id, at) => writing(() => s.revoke.run(at, id).changes === 1),
    touchApiKey: async (id, at) => writing(() => void s.touchKey.run(at, id)),
  };
}

type Statements = ReturnType<typeof statementsOf>;

/** The statements of the accounts and their API keys. */
function statementsOf(db: Database) {
  return {
    insertAccount: prepareInsertAccount(db),
    changeAccount: db.prepare<[Role | null, number, number | null, string], AccountRow>(
      `UPDATE accounts SET role = coalesce(?, role), disabled_at = CASE WHEN ? THEN ? ELSE disabled_at END
       WHERE id = ? RETURNING *`,
    ),
    accountById: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?'),
    accountByName: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE lower(name) = lower(?)'),
    allAccounts: db.prepare<[], AccountRow>('SELECT * FROM accounts ORDER BY created_at, id'),
    insertKey: db.prepare<ApiKeyRow>(
      `INSERT INTO api_keys (id, account_id, name, key_hash, prefix, created_at, created_via, last_used_at,
         revoked_at, role, domains, url_hosts)
       VALUES (@id, @account_id, @name, @key_hash, @prefix, @created_at, @created_via, @last_used_at,
         @revoked_at, @role, @domains, @url_hosts)`,
    ),
    keyByHash: db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = ?'),
    keyById: db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE id = ?'),
    // authentication's one read per request: the key's columns, then its account's as `account_…`
    keyWithAccount: db.prepare<[string], KeyWithAccountRow>(
      `SELECT k.*, a.name AS account_name, a.kind AS account_kind, a.role AS account_role,
         a.created_at AS account_created_at, a.disabled_at AS account_disabled_at
       FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_hash = ?`,
    ),
    keysOf: db.prepare<[string], ApiKeyRow>(
      'SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at, id',
    ),
    revoke: db.prepare<[number, string]>(
      'UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL',
    ),
    touchKey: db.prepare<[number, string]>(
      'UPDATE api_keys SET last_used_at = max(coalesce(last_used_at, 0), ?) WHERE id = ?',
    ),
  };
}

/** The statement inserting an account (a person's, or a team's with its first owner). */
export const prepareInsertAccount = (db: Database): Statement<AccountRow> =>
  db.prepare<AccountRow>(
    `INSERT INTO accounts (id, name, kind, role, created_at, disabled_at)
     VALUES (@id, @name, @kind, @role, @created_at, @disabled_at)`,
  );

/** Inserts the account with `insertAccount` ({@link prepareInsertAccount}); a taken name is refused. */
export function createAccount(
  s: { readonly insertAccount: Statement<AccountRow> },
  account: Account,
): Result<Account> {
  try {
    s.insertAccount.run(rowOf<AccountRow>(account));
    return ok({ ...account });
  } catch (error) {
    // the name (in any case) is the table's only UNIQUE constraint; a duplicate id stays a thrown bug.
    if (isConstraintError(error, 'UNIQUE')) {
      return err(domainError('invalid_request', 'An account with this name exists.', 'name'));
    }
    throw error;
  }
}

function updateAccount(s: Statements, id: string, changes: AccountChanges): Account | null {
  const disabled = changes.disabledAt !== undefined;
  return recordOf<Account>(
    s.changeAccount.get(changes.role ?? null, disabled ? 1 : 0, changes.disabledAt ?? null, id),
  );
}
