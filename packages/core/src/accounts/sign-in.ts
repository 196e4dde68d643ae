import type { CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import type { GuessLimitDeps } from '../limits/guess-limit.js';
import { guessUnderLimit, tooManyGuesses } from '../limits/guess-limit.js';
import type { Throttled } from '../limits/guess-limit.js';
import type { RateWindow } from '../ports.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { hashPassword, verifyPassword } from '../secrets.js';
import { limitSubjectOf } from '../urls/ip.js';
import type { Account } from './account.js';
import { accountNameKey, findAccountByName } from './accounts.js';
import type { SessionRecord } from './credentials.js';
import { requireRecentSignIn, startSession } from './sessions.js';
import type { SignedIn } from './sessions.js';

type Deps = Pick<CoreDeps, 'accounts' | 'credentials' | 'sessions' | 'clock' | 'random'>;

/** Account passwords are 8-128 characters (decisions §10). */
export const PASSWORD_LENGTH = { min: 8, max: 128 } as const;

const WINDOW_MS = 15 * 60_000;
/** Failed sign-ins allowed per account and per client address (an IPv6 one by its prefix) in 15 minutes. */
export const SIGN_IN_LIMITS = { perAccount: 10, perAddress: 30, windowMs: WINDOW_MS } as const;
const SIGN_IN_WINDOW = (limit: number): RateWindow[] => [{ windowMs: WINDOW_MS, limit }];

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
 * ones, so timing does not tell them apart either. No limit: {@link signIn} is the guarded entry.
 */
export async function signInWithPassword(
  deps: Deps,
  name: string,
  password: string,
): Promise<Result<Account>> {
  const account = await findAccountByName(deps, name);
  const stored = account === null ? null : await deps.credentials.passwordHashOf(account.id);
  decoy ??= hashPassword('decoy password', deps.random);
  const matches = await verifyPassword(password.slice(0, 4 * PASSWORD_LENGTH.max), stored ?? (await decoy));
  if (account === null || stored === null || !matches || account.disabledAt !== null) {
    return err(domainError('unauthorized', WRONG));
  }
  return ok(account);
}

/** What the guarded sign-in and password change need: the stores and the limiter. */
export type ThrottledDeps = Deps & GuessLimitDeps & Pick<CoreDeps, 'config'>;

/**
 * Signs in with a name and password under the guess limits of decisions §10 and §14: 10 wrong
 * passwords per account and 30 per client address (an IPv6 one by its prefix) in 15 minutes. Each
 * attempt is counted before the password is checked and given back when it was right, so concurrent
 * guesses cannot outrun the limit. The address is a key of the limiter only, never written anywhere.
 */
export async function signIn(
  deps: ThrottledDeps,
  name: string,
  password: string,
  ip: string,
): Promise<Throttled<Account>> {
  const subject = limitSubjectOf(ip, deps.config.limits.ipv6PrefixBits);
  const budgets = [
    { key: `sign-in:account:${accountNameKey(name)}`, windows: SIGN_IN_WINDOW(SIGN_IN_LIMITS.perAccount) },
    { key: `sign-in:address:${subject}`, windows: SIGN_IN_WINDOW(SIGN_IN_LIMITS.perAddress) },
  ];
  let signedIn: Result<Account> = err(domainError('unauthorized', WRONG));
  const guess = await guessUnderLimit(deps, budgets, async () => {
    signedIn = await signInWithPassword(deps, name, password);
    return signedIn.ok;
  });
  return guess.allowed ? signedIn : tooManyGuesses(guess, 'Too many failed sign-ins; try again later.');
}

/**
 * Changes the signed-in account's password: the current one must match (`unauthorized` on the field
 * `current_password`; wrong ones are limited like sign-ins, 10 per account in 15 minutes), and every
 * other session of the account ends (decisions §10). An account without a password needs a recent
 * sign-in instead (decisions §14).
 */
export async function changePassword(
  deps: ThrottledDeps,
  signedIn: SignedIn,
  current: string,
  next: string,
): Promise<Throttled<true>> {
  const checked = checkNewPassword(next);
  if (!checked.ok) return checked;
  const stored = await deps.credentials.passwordHashOf(signedIn.account.id);
  if (stored === null) {
    const recent = requireRecentSignIn(deps, signedIn);
    if (!recent.ok) return recent;
  } else {
    const budgets = [
      {
        key: `password-change:${signedIn.account.id}`,
        windows: SIGN_IN_WINDOW(SIGN_IN_LIMITS.perAccount),
      },
    ];
    const guess = await guessUnderLimit(deps, budgets, () =>
      verifyPassword(current.slice(0, 4 * PASSWORD_LENGTH.max), stored),
    );
    if (!guess.allowed) return tooManyGuesses(guess, 'Too many wrong passwords; try again later.');
    if (!guess.right) {
      return err(domainError('unauthorized', 'The current password is wrong.', 'current_password'));
    }
  }
  await deps.credentials.setPasswordHash(signedIn.account.id, await hashPassword(next, deps.random));
  await deps.sessions.deleteSessions(signedIn.account.id, signedIn.session.id);
  return ok(true);
}

/**
 * Confirms the password in a signed-in session (decisions §14, before what gives lasting access): under
 * the sign-in limits, and when right the session is replaced by a new one (its token returned for the
 * cookie), which counts as a recent sign-in.
 */
export async function confirmSignIn(
  deps: ThrottledDeps,
  signedIn: SignedIn,
  password: string,
  ip: string,
): Promise<Throttled<{ readonly token: string; readonly session: SessionRecord }>> {
  const account = await signIn(deps, signedIn.account.name, password, ip);
  if (!account.ok) return account;
  const { device, browser } = signedIn.session;
  const started = await startSession(deps, account.value.id, { device, browser });
  await deps.sessions.deleteSession(signedIn.account.id, signedIn.session.id);
  return ok(started);
}
