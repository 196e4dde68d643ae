import { domainError, err, ok } from '@shortener/core';
import type { Account, AccountStore, ApiKeyRecord } from '@shortener/core';
import { latest } from './memory-state.js';

/** The AccountStore in memory, and the removal of a team's account its TeamStore needs. */
export type MemoryAccountStore = AccountStore & {
  /** Removes the account and its keys; false when there is none. */
  removeAccount(id: string): boolean;
};

/** Creates an AccountStore in memory. Records are copied in and out. */
export function createMemoryAccountStore(): MemoryAccountStore {
  const accounts = new Map<string, Account>();
  const accountIdsByName = new Map<string, string>();
  const { dropKeysOf, ...keys } = apiKeyMethods(accounts);

  return {
    createAccount: async (account) => {
      if (accountIdsByName.has(account.name.toLowerCase())) {
        return err(domainError('invalid_request', 'An account with this name exists already.', 'name'));
      }
      if (accounts.has(account.id)) throw new Error(`Duplicate account id ${account.id}`);
      accounts.set(account.id, { ...account });
      accountIdsByName.set(account.name.toLowerCase(), account.id);
      return ok({ ...account });
    },
    findAccountById: async (id) => copyAccount(accounts.get(id)),
    findAccountByName: async (name) => {
      const id = accountIdsByName.get(name.toLowerCase());
      return id === undefined ? null : copyAccount(accounts.get(id));
    },
    listAccounts: async () => [...accounts.values()].sort(oldestFirst).map((account) => ({ ...account })),
    updateAccount: async (id, changes) => {
      const account = accounts.get(id);
      if (account === undefined) return null;
      const changed = { ...account, ...changes };
      accounts.set(id, changed);
      return { ...changed };
    },
    ...keys,
    removeAccount: (id) => {
      const account = accounts.get(id);
      if (account === undefined) return false;
      accounts.delete(id);
      accountIdsByName.delete(account.name.toLowerCase());
      dropKeysOf(id);
      return true;
    },
  };
}

type ApiKeyMethod =
  | 'addApiKey'
  | 'findApiKeyByHash'
  | 'findApiKeyWithAccount'
  | 'findApiKeyById'
  | 'listApiKeys'
  | 'revokeApiKey'
  | 'touchApiKey';

/** The API key methods; a key is found with its account in `accounts`. */
function apiKeyMethods(
  accounts: ReadonlyMap<string, Account>,
): Pick<AccountStore, ApiKeyMethod> & { dropKeysOf(accountId: string): void } {
  const keys = new Map<string, ApiKeyRecord>();
  const keyIdsByHash = new Map<string, string>();
  const keyById = (id: string | undefined): ApiKeyRecord | null => {
    const key = id === undefined ? undefined : keys.get(id);
    return key === undefined ? null : copyKey(key);
  };

  return {
    addApiKey: async (key) => {
      if (keys.has(key.id) || keyIdsByHash.has(key.keyHash)) throw new Error(`Duplicate API key ${key.id}`);
      keys.set(key.id, copyKey(key));
      keyIdsByHash.set(key.keyHash, key.id);
    },
    findApiKeyByHash: async (keyHash) => keyById(keyIdsByHash.get(keyHash)),
    findApiKeyWithAccount: async (keyHash) => {
      const key = keyById(keyIdsByHash.get(keyHash));
      const account = key === null ? null : copyAccount(accounts.get(key.accountId));
      return key === null || account === null ? null : { key, account };
    },
    findApiKeyById: async (id) => keyById(id),
    listApiKeys: async (accountId) =>
      [...keys.values()]
        .filter((key) => key.accountId === accountId)
        .sort(oldestFirst)
        .map(copyKey),
    revokeApiKey: async (id, at) => {
      const key = keys.get(id);
      if (key === undefined || key.revokedAt !== null) return false;
      keys.set(id, { ...key, revokedAt: at });
      return true;
    },
    touchApiKey: async (id, at) => {
      const key = keys.get(id);
      if (key !== undefined) keys.set(id, { ...key, lastUsedAt: latest(key.lastUsedAt, at) });
    },
    dropKeysOf: (accountId) => {
      for (const key of [...keys.values()].filter((k) => k.accountId === accountId)) {
        keys.delete(key.id);
        keyIdsByHash.delete(key.keyHash);
      }
    },
  };
}

/** A copy of the key, its limits' lists too. */
function copyKey(key: ApiKeyRecord): ApiKeyRecord {
  const copy = (list: readonly string[] | null) => (list === null ? null : [...list]);
  return { ...key, domains: copy(key.domains), urlHosts: copy(key.urlHosts) };
}

function copyAccount(account: Account | undefined): Account | null {
  return account === undefined ? null : { ...account };
}

/** Sorts records by creation, oldest first (then by id). */
export function oldestFirst(
  a: { createdAt: number; id: string },
  b: { createdAt: number; id: string },
): number {
  if (a.createdAt !== b.createdAt) return a.createdAt - b.createdAt;
  return a.id === b.id ? 0 : a.id < b.id ? -1 : 1;
}
