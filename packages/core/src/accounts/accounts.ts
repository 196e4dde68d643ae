import type { Caller, CoreDeps } from '../deps.js';
import { resolveLinkDomain } from '../links/references.js';
import type { CreateKeyInput } from './key-schemas.js';
import { accountFor, hostAllowed, keyRoleWithin, withinKeyLimits } from './permissions.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { digestsEqual, generateSecret, randomUuid, sha256Hex } from '../secrets.js';
import type { Account, ApiKeyRecord, KeyOrigin, Role } from './account.js';

type Deps = Pick<CoreDeps, 'accounts' | 'clock' | 'random'>;

const ACCOUNT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;
const API_KEY = /^shk_[0-9A-Za-z]{32}$/;
/** A key's `lastUsedAt` is written at most this often, so a busy key costs no write per request. */
const KEY_TOUCH_MS = 60_000;

/** Whether `name` is a valid account name: 1-64 of letters, digits, `_ . @ -`, starting alphanumeric. */
export function isAccountName(name: string): boolean {
  return ACCOUNT_NAME.test(name);
}

/** Code points that render as nothing (zero-width spaces and joiners, soft hyphens, variation selectors). */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * A name as it is stored and shown (decisions §14): NFKC-normalised (full-width and other compatibility
 * forms become their plain letters), without invisible code points, trimmed.
 */
export function normalizeAccountName(name: string): string {
  return name.normalize('NFKC').replace(INVISIBLE, '').trim();
}

/**
 * The key a name is unique and looked up by: its normalised form in lower case. This is the only way a
 * name is compared: sign-in, sign-up, invites, the admin page, the CLI, the limits and every store (which
 * match it against `lower(name)`: valid names are ASCII once normalised), so `alice`, `ALICE`, `ａｌｉｃｅ`
 * and ` alice\u200b` are one name.
 */
export function accountNameKey(name: string): string {
  return normalizeAccountName(name).toLowerCase();
}

/** The account of a name in any of its spellings ({@link accountNameKey}), or null. */
export function findAccountByName(deps: Pick<Deps, 'accounts'>, name: string): Promise<Account | null> {
  return deps.accounts.findAccountByName(accountNameKey(name));
}

/**
 * Creates an account (operator, invite or open sign-up). Names: 1-64 of letters, digits, `_ . @ -`,
 * unique without regard to case; the account keeps the spelling it was given.
 */
export async function createAccount(deps: Deps, name: string, role: Role = 'user'): Promise<Result<Account>> {
  const trimmed = normalizeAccountName(name);
  if (!isAccountName(trimmed)) {
    return err(domainError('invalid_request', 'Account names are 1-64 letters, digits, _ . @ -.', 'name'));
  }
  return deps.accounts.createAccount({
    id: randomUuid(deps.random),
    name: trimmed,
    kind: 'person',
    role,
    createdAt: deps.clock.now(),
    disabledAt: null,
  });
}

/** Finds an account by id or name. */
export async function findAccount(deps: Pick<Deps, 'accounts'>, reference: string): Promise<Result<Account>> {
  const found =
    (await deps.accounts.findAccountById(reference)) ?? (await findAccountByName(deps, reference));
  return found ? ok(found) : err(domainError('not_found', 'No such account.', 'account'));
}

/**
 * Disables (or enables again) an account. A disabled account cannot sign in, and its sessions end and its
 * keys are refused until it is enabled.
 */
export async function setAccountDisabled(
  deps: Pick<CoreDeps, 'accounts' | 'sessions' | 'clock'>,
  reference: string,
  disabled: boolean,
): Promise<Result<Account>> {
  const account = await findAccount(deps, reference);
  if (!account.ok) return account;
  const changed = await deps.accounts.updateAccount(account.value.id, {
    disabledAt: disabled ? (account.value.disabledAt ?? deps.clock.now()) : null,
  });
  if (changed === null) return err(domainError('not_found', 'No such account.', 'account'));
  if (disabled) await deps.sessions.deleteSessions(changed.id, null);
  return ok(changed);
}

/** A key that authenticated, with its account (a person's or a team's). */
export interface AuthenticatedKey extends ApiKeyRecord {
  readonly account: Account;
}

/** What a key may do (decisions §21); the default is an `admin` key without limits. */
export type KeyLimits = Pick<ApiKeyRecord, 'role' | 'domains' | 'urlHosts'>;

/** A key that may do all its account allows. */
export const FULL_KEY: KeyLimits = { role: 'admin', domains: null, urlHosts: null };

/**
 * A new API key: the secret is returned once and only its SHA-256 is stored (decisions §2), with its
 * role and limits (decisions §21), which the maker has checked against its own.
 */
export async function createApiKey(
  deps: Deps,
  accountReference: string,
  name: string,
  createdVia: KeyOrigin,
  limits: KeyLimits = FULL_KEY,
): Promise<Result<{ readonly key: ApiKeyRecord; readonly secret: string }>> {
  const account = await findAccount(deps, accountReference);
  if (!account.ok) return account;
  const secret = generateSecret(deps.random, 'shk_');
  const key: ApiKeyRecord = {
    id: randomUuid(deps.random),
    accountId: account.value.id,
    name: name.trim(),
    keyHash: sha256Hex(secret),
    prefix: secret.slice(0, 8),
    createdAt: deps.clock.now(),
    createdVia,
    lastUsedAt: null,
    revokedAt: null,
    ...limits,
  };
  await deps.accounts.addApiKey(key);
  return ok({ key, secret });
}

/** The keys of an account, revoked ones included. */
export async function listApiKeys(deps: Deps, accountReference: string): Promise<Result<ApiKeyRecord[]>> {
  const account = await findAccount(deps, accountReference);
  return account.ok ? ok(await deps.accounts.listApiKeys(account.value.id)) : account;
}

/**
 * Revokes a key by id; `not_found` when there is no such live key, or (with `accountId`) when it belongs
 * to another account, so ids of other accounts' keys reveal nothing.
 */
export async function revokeApiKey(deps: Deps, keyId: string, accountId?: string): Promise<Result<true>> {
  const missing = err(domainError('not_found', 'No such active key.', 'key'));
  const id = keyId.trim();
  if (accountId !== undefined && (await deps.accounts.findApiKeyById(id))?.accountId !== accountId) {
    return missing;
  }
  return (await deps.accounts.revokeApiKey(id, deps.clock.now())) ? ok(true) : missing;
}

/**
 * The key of a presented API key; `unauthorized` when malformed, unknown, revoked or of a disabled
 * account. Records the use (`lastUsedAt`, at most once a minute).
 */
export async function authenticateApiKey(
  deps: Pick<Deps, 'accounts' | 'clock'>,
  presented: string,
): Promise<Result<AuthenticatedKey>> {
  const bad = err(domainError('unauthorized', 'The API key is not valid.'));
  if (!API_KEY.test(presented)) return bad;
  const hash = sha256Hex(presented);
  const found = await deps.accounts.findApiKeyWithAccount(hash);
  if (found === null) return bad;
  const { key, account } = found;
  if (key.revokedAt !== null || !digestsEqual(key.keyHash, hash) || account.disabledAt !== null) return bad;
  const now = deps.clock.now();
  if (key.lastUsedAt === null || now - key.lastUsedAt >= KEY_TOUCH_MS) {
    await deps.accounts.touchApiKey(key.id, now);
    return ok({ ...key, lastUsedAt: now, account });
  }
  return ok({ ...key, account });
}

/**
 * A key made by a caller for the account it acts for (`POST /api/v1/keys`, decisions §21): needs the
 * right to manage keys there; its role never stronger than the maker's, its domains ones the account may
 * create on, and within the maker's own limits when the maker is a limited key.
 */
export async function makeApiKey(
  deps: Deps & Pick<CoreDeps, 'config' | 'hosts'>,
  caller: Caller,
  input: CreateKeyInput,
  createdVia: KeyOrigin,
): Promise<Result<{ readonly key: ApiKeyRecord; readonly secret: string }>> {
  const account = accountFor(caller, 'keys.manage');
  if (!account.ok) return account;
  const role = input.role ?? 'admin';
  if (!keyRoleWithin(role, caller.grant))
    return err(domainError('forbidden', `A ${role} key would be stronger than its maker.`, 'role'));
  const domains = input.domains === undefined ? (caller.grant?.domains ?? null) : input.domains;
  for (const domain of domains ?? []) {
    const usable = resolveLinkDomain(deps, domain, account.value);
    if (!usable.ok) return err({ ...usable.error, field: 'domains' });
    if (!withinKeyLimits(caller, { domain: usable.value.host }).ok)
      return err(domainError('forbidden', `This key may not create on ${domain}.`, 'domains'));
  }
  const held = caller.grant?.urlHosts ?? null;
  const urlHosts = input.url_hosts ?? held;
  if (held !== null && !(urlHosts ?? []).every((host) => hostAllowed(host, held)))
    return err(domainError('forbidden', 'A key’s url_hosts stay within its maker’s.', 'url_hosts'));
  return createApiKey(deps, account.value, input.name, createdVia, { role, domains, urlHosts });
}
