import type { CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { GuessLimitDeps, Throttled } from '../limits/guess-limit.js';
import { spendGuess, tooManyGuesses } from '../limits/guess-limit.js';
import { digestsEqual, generateSecret, sha256Hex } from '../secrets.js';
import { limitSubjectOf } from '../urls/ip.js';
import type { Account } from './account.js';
import { createAccount, findAccountByName } from './accounts.js';
import type { InviteRecord } from './credentials.js';
import { checkNewPassword, setAccountPassword } from './sign-in.js';

type Deps = Pick<
  CoreDeps,
  'accounts' | 'credentials' | 'sessions' | 'events' | 'clock' | 'random' | 'config'
>;

const HOUR = 3_600_000;
/** An invite link works for 48 hours (decisions §10). */
export const INVITE_TTL_MS = 48 * 3_600_000;
const INVITE_TOKEN = /^inv_[0-9A-Za-z]{32}$/;

/** A new invite: the one-time URL is shown once; only the token's SHA-256 is stored. */
export interface Invite {
  readonly account: Account;
  /** `{base_url}/account/invite/{token}`. */
  readonly url: string;
  readonly expiresAt: number;
  /** False when the account existed: the link then resets its credentials. */
  readonly created: boolean;
}

/**
 * Invites a person (`shortener accounts invite NAME [--admin]`): creates the account when the name is
 * new (refused with `forbidden` when `SIGNUP=closed`), or makes a reset link for an existing one.
 * `admin` makes the account an admin; an existing admin stays one without it. With `newOnly` (the admin
 * page, which makes new accounts only) a name taken in any spelling is refused with `invalid_request` on
 * `name`, so nobody's credentials can be reset or role raised there.
 */
export async function inviteAccount(
  deps: Deps,
  name: string,
  admin = false,
  options: { readonly newOnly?: boolean } = {},
): Promise<Result<Invite>> {
  let account = await findAccountByName(deps, name);
  const created = account === null;
  if (account !== null && options.newOnly === true) {
    return err(domainError('invalid_request', 'An account with this name exists already.', 'name'));
  }
  if (account === null) {
    if (deps.config.signup === 'closed') {
      return err(domainError('forbidden', 'SIGNUP is closed: only existing accounts get invite links.'));
    }
    const made = await createAccount(deps, name, admin ? 'admin' : 'user');
    if (!made.ok) return made;
    account = made.value;
  } else if (admin && account.role !== 'admin') {
    account = (await deps.accounts.updateAccount(account.id, { role: 'admin' })) ?? account;
  }
  return ok(await inviteLinkOf(deps, account, created));
}

/**
 * A reset link for an existing account (`/admin`'s "Reset…", by the account's id, so no spelling of a
 * name is involved): the invite link of {@link inviteAccount} for an account that exists. When it is
 * used, the account's sessions and passkeys end, its webhooks are removed and the new password replaces
 * the old (decisions §10); its links and API keys stay. `not_found` for an unknown id.
 */
export async function resetLinkFor(deps: Deps, accountId: string): Promise<Result<Invite>> {
  const account = await deps.accounts.findAccountById(accountId);
  if (account === null) return err(domainError('not_found', 'No such account.', 'account'));
  return ok(await inviteLinkOf(deps, account, false));
}

/** Stores a new invite token of `account` (its hash) and gives its one-time URL. */
async function inviteLinkOf(deps: Deps, account: Account, created: boolean): Promise<Invite> {
  const token = generateSecret(deps.random, 'inv_');
  const now = deps.clock.now();
  const expiresAt = now + INVITE_TTL_MS;
  await deps.credentials.addInvite({
    tokenHash: sha256Hex(token),
    accountId: account.id,
    createdAt: now,
    expiresAt,
    usedAt: null,
  });
  const url = `${deps.config.baseUrl}/account/invite/${token}`;
  return { account, url, expiresAt, created };
}

/** An invite that can still be used, and its account. */
export interface OpenInvite {
  readonly invite: InviteRecord;
  readonly account: Account;
}

/** The invite of a token while it is unused, unexpired and its account enabled; `not_found` otherwise. */
export async function openInvite(deps: Deps, token: string): Promise<Result<OpenInvite>> {
  const gone = err(domainError('not_found', 'This invite link is unknown, used or expired.', 'invite'));
  if (!INVITE_TOKEN.test(token)) return gone;
  const hash = sha256Hex(token);
  const invite = await deps.credentials.findInvite(hash);
  if (invite === null || !digestsEqual(invite.tokenHash, hash)) return gone;
  if (invite.usedAt !== null || deps.clock.now() >= invite.expiresAt) return gone;
  const account = await deps.accounts.findAccountById(invite.accountId);
  if (account === null || account.disabledAt !== null) return gone;
  return ok({ invite, account });
}

/**
 * Uses the invite up (once, atomically), ends every session of its account and removes its passkeys
 * (decisions §14) and its webhooks (issue 38): a reset link shuts out whoever held the old credentials
 * or a stolen session, and whatever feed of the account's links they set up. `not_found` when another
 * request used it first.
 */
export async function consumeInvite(deps: Deps, invite: InviteRecord): Promise<Result<true>> {
  const used = await deps.credentials.consumeInvite(invite.tokenHash, deps.clock.now());
  if (used === null)
    return err(domainError('not_found', 'This invite link is unknown, used or expired.', 'invite'));
  await deps.sessions.deleteSessions(invite.accountId, null);
  for (const passkey of await deps.credentials.listPasskeys(invite.accountId)) {
    await deps.credentials.deletePasskey(invite.accountId, passkey.id);
  }
  for (const webhook of await deps.events.listWebhooks(invite.accountId)) {
    await deps.events.deleteWebhook(webhook.id);
  }
  return ok(true);
}

/** Sets the password through an invite link; the link is then used up. */
export async function acceptInviteWithPassword(
  deps: Deps,
  token: string,
  password: string,
): Promise<Result<Account>> {
  const checked = checkNewPassword(password);
  if (!checked.ok) return checked;
  const opened = await openInvite(deps, token);
  if (!opened.ok) return opened;
  const consumed = await consumeInvite(deps, opened.value.invite);
  if (!consumed.ok) return consumed;
  await setAccountPassword(deps, opened.value.account.id, password);
  return ok(opened.value.account);
}

/** What an open sign-up needs: the stores and the limiter of the sign-up limit. */
export type SignUpDeps = Deps & GuessLimitDeps;

/**
 * Creates an account with a password, when `SIGNUP=open` (`forbidden` otherwise), at most
 * `limits.signupPerHour` per client address (an IPv6 one by its prefix) per hour (decisions §14): the
 * unit is spent before the account is made, so concurrent sign-ups cannot outrun the limit, and given
 * back when none was made. The address is a key of the limiter only.
 */
export async function signUp(
  deps: SignUpDeps,
  name: string,
  password: string,
  ip: string,
): Promise<Throttled<Account>> {
  if (deps.config.signup !== 'open') return err(domainError('forbidden', 'Sign-up is not open here.'));
  const checked = checkNewPassword(password);
  if (!checked.ok) return checked;
  const { limits } = deps.config;
  const subject = limitSubjectOf(ip, limits.ipv6PrefixBits);
  const budget = { key: `signup:${subject}`, windows: [{ windowMs: HOUR, limit: limits.signupPerHour }] };
  const spent = await spendGuess(deps, [budget]);
  if (!spent.allowed) return tooManyGuesses(spent, 'Too many accounts from this address; try again later.');
  const account = await createAccount(deps, name);
  await spent.settle(!account.ok);
  if (!account.ok) return account;
  await setAccountPassword(deps, account.value.id, password);
  return account;
}
