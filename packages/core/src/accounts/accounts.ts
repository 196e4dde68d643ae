import type { CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { digestsEqual, generateSecret, randomUuid, sha256Hex } from '../secrets.js';
import type { Account, ApiKeyRecord } from './account.js';

type Deps = Pick<CoreDeps, 'accounts' | 'clock' | 'random'>;

const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;
const API_KEY = /^shk_[0-9A-Za-z]{32}$/;

/** Creates an account (operator only). Names: 1-64 of letters, digits, `_ . @ -`. */
export async function createAccount(deps: Deps, name: string): Promise<Result<Account>> {
  const trimmed = name.trim();
  if (!ACCOUNT_NAME.test(trimmed)) {
    return err(domainError('invalid_request', 'Account names are 1-64 letters, digits, _ . @ -.', 'name'));
  }
  return deps.accounts.createAccount({
    id: randomUuid(deps.random),
    name: trimmed,
    createdAt: deps.clock.now(),
  });
}

/** Finds an account by id or name. */
export async function findAccount(deps: Pick<Deps, 'accounts'>, reference: string): Promise<Result<Account>> {
  const found =
    (await deps.accounts.findAccountById(reference)) ??
    (await deps.accounts.findAccountByName(reference.trim()));
  return found ? ok(found) : err(domainError('not_found', 'No such account.', 'account'));
}

/** A new API key: the secret is returned once and only its SHA-256 is stored (decisions §2). */
export async function createApiKey(
  deps: Deps,
  accountReference: string,
): Promise<Result<{ readonly key: ApiKeyRecord; readonly secret: string }>> {
  const account = await findAccount(deps, accountReference);
  if (!account.ok) return account;
  const secret = generateSecret(deps.random, 'shk_');
  const key: ApiKeyRecord = {
    id: randomUuid(deps.random),
    accountId: account.value.id,
    keyHash: sha256Hex(secret),
    prefix: secret.slice(0, 8),
    createdAt: deps.clock.now(),
    revokedAt: null,
  };
  await deps.accounts.addApiKey(key);
  return ok({ key, secret });
}

/** The keys of an account, revoked ones included. */
export async function listApiKeys(deps: Deps, accountReference: string): Promise<Result<ApiKeyRecord[]>> {
  const account = await findAccount(deps, accountReference);
  return account.ok ? ok(await deps.accounts.listApiKeys(account.value.id)) : account;
}

/** Revokes a key by id; `not_found` when there is no such live key. */
export async function revokeApiKey(deps: Deps, keyId: string): Promise<Result<true>> {
  const revoked = await deps.accounts.revokeApiKey(keyId.trim(), deps.clock.now());
  return revoked ? ok(true) : err(domainError('not_found', 'No such active key.', 'key'));
}

/** The account of a presented API key; `unauthorized` when malformed, unknown or revoked. */
export async function authenticateApiKey(
  deps: Pick<Deps, 'accounts'>,
  presented: string,
): Promise<Result<ApiKeyRecord>> {
  const bad = err(domainError('unauthorized', 'The API key is not valid.'));
  if (!API_KEY.test(presented)) return bad;
  const hash = sha256Hex(presented);
  const key = await deps.accounts.findApiKeyByHash(hash);
  if (key === null || key.revokedAt !== null || !digestsEqual(key.keyHash, hash)) return bad;
  return ok(key);
}
