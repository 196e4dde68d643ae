import type { CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import type { RateLimiter, RateWindow } from '../ports.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { hashPassword, verifyPassword } from '../secrets.js';
import { limitSubjectOf } from '../urls/ip.js';
import type { Account } from './account.js';
import type { SignedIn } from './sessions.js';

type Deps = Pick<CoreDeps, 'accounts' | 'credentials' | 'sessions' | 'clock' | 'random'>;

/** Account passwords are 8-128 characters (decisions §10). */
export const PASSWORD_LENGTH = { min: 8, max: 128 } as const;

const WINDOW_MS = 15 * 60_000;
/** Failed sign-ins allowed per account and per client address (an IPv6 one by its prefix) in 15 minutes. */
export const SIGN_IN_LIMITS = { perAccount: 10, perAddress: 30, windowMs: WINDOW_MS } as const;

const WRONG = 'The name or the password is wrong.';

/** `invalid_request` on the field `password` unless it is 8-128 characters. */
export function checkNewPassword(password: string): Result<string> {
  const length = [...password].length;
  if (length < PASSWORD_LENGTH.min || length > PASSWORD_LENGTH.max) {
    return err(domainError('invalid_request', 'A password has 8-128 characters.', 'password'));
  }
  return ok(password);
}

/** Sets the account's password (scrypt, decisions §10) after checking its length. */
export async function setAccountPassword(
  deps: Deps,
  accountId: string,
  password: string,
): Promise<Result<true>> {
  const checked = checkNewPassword(password);
  if (!checked.ok) return checked;
  await deps.credentials.setPasswordHash(accountId, await hashPassword(password, deps.random));
  return ok(true);
}

let decoy: Promise<string> | undefined;

/**
 * The account of a name and password; `unauthorized` with one message whether the name is unknown, the
 * password wrong, the account without a password or disabled. Unknown names cost one scrypt like known
 * ones, so timing does not tell them apart either.
 */
export async function signInWithPassword(
  deps: Deps,
  name: string,
  password: string,
): Promise<Result<Account>> {
  const account = await deps.accounts.findAccountByName(name.trim());
  const stored = account === null ? null : await deps.credentials.passwordHashOf(account.id);
  decoy ??= hashPassword('decoy password', deps.random);
  const matches = await verifyPassword(password.slice(0, 4 * PASSWORD_LENGTH.max), stored ?? (await decoy));
  if (account === null || stored === null || !matches || account.disabledAt !== null) {
    return err(domainError('unauthorized', WRONG));
  }
  return ok(account);
}

/**
 * Changes the signed-in account's password: the current one must match (`unauthorized` on the field
 * `current_password`), and every other session of the account ends (decisions §10).
 */
export async function changePassword(
  deps: Deps,
  signedIn: SignedIn,
  current: string,
  next: string,
): Promise<Result<true>> {
  const checked = checkNewPassword(next);
  if (!checked.ok) return checked;
  const stored = await deps.credentials.passwordHashOf(signedIn.account.id);
  if (stored !== null && !(await verifyPassword(current.slice(0, 4 * PASSWORD_LENGTH.max), stored))) {
    return err(domainError('unauthorized', 'The current password is wrong.', 'current_password'));
  }
  await deps.credentials.setPasswordHash(signedIn.account.id, await hashPassword(next, deps.random));
  await deps.sessions.deleteSessions(signedIn.account.id, signedIn.session.id);
  return ok(true);
}

/** What the sign-in throttle needs. */
export interface ThrottleDeps {
  readonly rateLimiter: RateLimiter;
  readonly clock: CoreDeps['clock'];
  readonly config: CoreDeps['config'];
}

function throttleKeys(deps: ThrottleDeps, name: string, ip: string): [string, RateWindow[]][] {
  const subject = limitSubjectOf(ip, deps.config.limits.ipv6PrefixBits);
  return [
    [`sign-in:account:${name.trim()}`, [{ windowMs: WINDOW_MS, limit: SIGN_IN_LIMITS.perAccount }]],
    [`sign-in:address:${subject}`, [{ windowMs: WINDOW_MS, limit: SIGN_IN_LIMITS.perAddress }]],
  ];
}

/**
 * Milliseconds until a sign-in for `name` from `ip` may be tried again (0: now). The address is only a
 * key of the limiter, never written anywhere.
 */
export async function signInRetryAfter(deps: ThrottleDeps, name: string, ip: string): Promise<number> {
  let wait = 0;
  for (const [key, windows] of throttleKeys(deps, name, ip)) {
    const peek = await deps.rateLimiter.hit(key, windows, 0, deps.clock.now());
    if (peek.remaining === 0) wait = Math.max(wait, peek.resetMs, 1);
  }
  return wait;
}

/** Counts one failed sign-in for `name` and for the client address. */
export async function countFailedSignIn(deps: ThrottleDeps, name: string, ip: string): Promise<void> {
  for (const [key, windows] of throttleKeys(deps, name, ip)) {
    await deps.rateLimiter.hit(key, windows, 1, deps.clock.now());
  }
}
