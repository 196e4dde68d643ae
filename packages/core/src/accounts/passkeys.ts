import type { CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import type { PasskeyCeremony } from '../ports.js';
import type { GuessLimitDeps, Throttled } from '../limits/guess-limit.js';
import { spendGuess, tooManyGuesses } from '../limits/guess-limit.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { limitSubjectOf } from '../urls/ip.js';
import type { Account } from './account.js';
import type { ChallengePurpose, ChallengeRecord } from './credentials.js';
import { consumeInvite, openInvite } from './invites.js';
import { requireRecentSignIn } from './sessions.js';
import type { SignedIn } from './sessions.js';

/** The core plus the WebAuthn ceremonies of the edge. */
export type PasskeyDeps = Pick<
  CoreDeps,
  'accounts' | 'credentials' | 'sessions' | 'events' | 'clock' | 'random' | 'config'
> & { readonly passkeys: PasskeyCeremony };

/** A WebAuthn challenge must be answered within 5 minutes. */
const CHALLENGE_TTL_MS = 5 * 60_000;

const refused = () => err(domainError('unauthorized', 'The passkey could not be verified.'));

async function issueChallenge(
  deps: PasskeyDeps,
  purpose: ChallengePurpose,
  accountId: string | null,
  inviteHash: string | null,
): Promise<string> {
  const challenge = Buffer.from(deps.random.bytes(32)).toString('base64url');
  const createdAt = deps.clock.now();
  await deps.credentials.addChallenge({
    challenge,
    purpose,
    accountId,
    inviteHash,
    createdAt,
    expiresAt: createdAt + CHALLENGE_TTL_MS,
  });
  return challenge;
}

/** The challenge an answer claims, used up; null when it is unknown, expired or for another purpose. */
async function takeChallenge(
  deps: PasskeyDeps,
  response: unknown,
  purpose: ChallengePurpose,
): Promise<{ record: ChallengeRecord; credentialId: string } | null> {
  const claims = deps.passkeys.claimsOf(response);
  if (claims === null) return null;
  const record = await deps.credentials.consumeChallenge(claims.challenge, deps.clock.now());
  return record?.purpose === purpose ? { record, credentialId: claims.credentialId } : null;
}

/**
 * Where a new passkey comes from: a signed-in session (which must be a recent sign-in, decisions §14), or
 * an invite link (token).
 */
export type PasskeyEnrolment = { readonly signedIn: SignedIn } | { readonly inviteToken: string };

/** Options for the browser to register a passkey for the account of `enrolment`. */
export async function beginPasskeyRegistration(
  deps: PasskeyDeps,
  enrolment: PasskeyEnrolment,
): Promise<Result<unknown>> {
  let account: Account | null;
  let inviteHash: string | null = null;
  if ('inviteToken' in enrolment) {
    const opened = await openInvite(deps, enrolment.inviteToken);
    if (!opened.ok) return opened;
    account = opened.value.account;
    inviteHash = opened.value.invite.tokenHash;
  } else {
    const recent = requireRecentSignIn(deps, enrolment.signedIn);
    if (!recent.ok) return recent;
    account = enrolment.signedIn.account;
  }
  const challenge = await issueChallenge(deps, 'register', account.id, inviteHash);
  const exclude = await deps.credentials.listPasskeys(account.id);
  return ok(await deps.passkeys.registrationOptions({ challenge, account, exclude }));
}

/**
 * Verifies the browser's registration answer and stores the passkey. Through an invite, the invite is
 * then used up (and the account's other sessions end); `unauthorized` when the answer does not verify
 * or was not asked of this enrolment.
 */
export async function finishPasskeyRegistration(
  deps: PasskeyDeps,
  enrolment: PasskeyEnrolment,
  response: unknown,
): Promise<Result<Account>> {
  const taken = await takeChallenge(deps, response, 'register');
  if (taken === null) return refused();
  const { record } = taken;
  const viaInvite = 'inviteToken' in enrolment;
  const opened = viaInvite ? await openInvite(deps, enrolment.inviteToken) : null;
  if (opened !== null && !opened.ok) return opened;
  const recent = viaInvite ? ok(true) : requireRecentSignIn(deps, enrolment.signedIn);
  if (!recent.ok) return recent;
  const expectedInvite = opened === null ? null : opened.value.invite.tokenHash;
  const expectedAccount = viaInvite ? opened?.value.account.id : enrolment.signedIn.account.id;
  if (record.accountId !== expectedAccount || record.inviteHash !== expectedInvite) return refused();
  const verified = await deps.passkeys.verifyRegistration(response, record.challenge);
  if (verified === null) return refused();
  if (opened !== null) {
    const consumed = await consumeInvite(deps, opened.value.invite);
    if (!consumed.ok) return consumed;
  }
  const now = deps.clock.now();
  const added = await deps.credentials.addPasskey({
    ...verified,
    accountId: record.accountId,
    name: `Passkey ${new Date(now).toISOString().slice(0, 10)}`,
    createdAt: now,
    lastUsedAt: null,
  });
  if (!added.ok) return added;
  const account = await deps.accounts.findAccountById(record.accountId);
  return account === null ? err(domainError('not_found', 'No such account.', 'account')) : ok(account);
}

/**
 * Sign-in challenges one client address (an IPv6 one by its prefix) may have stored per minute: anyone
 * may ask for one, so what an anonymous caller can make the store keep is bounded (each expires after
 * 5 minutes and is pruned).
 */
export const PASSKEY_OPTIONS_PER_MINUTE = 20;

/**
 * Options for the browser to sign in with any passkey of this site, at most
 * {@link PASSKEY_OPTIONS_PER_MINUTE} per client address (`rate_limited` beyond; spent before the
 * challenge is stored, so concurrent calls cannot outrun it). The address is a key of the limiter only.
 */
export async function beginPasskeySignIn(
  deps: PasskeyDeps & GuessLimitDeps,
  ip: string,
): Promise<Throttled<unknown>> {
  const subject = limitSubjectOf(ip, deps.config.limits.ipv6PrefixBits);
  const windows = [{ windowMs: 60_000, limit: PASSKEY_OPTIONS_PER_MINUTE }];
  const spent = await spendGuess(deps, [{ key: `passkey-options:${subject}`, windows }]);
  if (!spent.allowed) return tooManyGuesses(spent, 'Too many passkey sign-ins started; try again later.');
  return ok(await deps.passkeys.authenticationOptions(await issueChallenge(deps, 'sign_in', null, null)));
}

/** The account of a verified passkey sign-in; `unauthorized` otherwise (unknown passkey, disabled account…). */
export async function finishPasskeySignIn(deps: PasskeyDeps, response: unknown): Promise<Result<Account>> {
  const taken = await takeChallenge(deps, response, 'sign_in');
  const passkey = taken === null ? null : await deps.credentials.findPasskey(taken.credentialId);
  if (taken === null || passkey === null) return refused();
  const counter = await deps.passkeys.verifyAuthentication(response, taken.record.challenge, passkey);
  if (counter === null) return refused();
  const account = await deps.accounts.findAccountById(passkey.accountId);
  if (account === null || account.disabledAt !== null) return refused();
  await deps.credentials.usePasskey(passkey.id, counter, deps.clock.now());
  return ok(account);
}

/**
 * Renames a passkey of the account (1-64 characters, trimmed): `invalid_request` on the field `name`
 * for another length, `not_found` for a passkey the account does not have.
 */
export async function renamePasskey(
  deps: Pick<CoreDeps, 'credentials'>,
  accountId: string,
  id: string,
  name: string,
): Promise<Result<true>> {
  const trimmed = name.trim();
  const length = [...trimmed].length;
  if (length < 1 || length > 64) {
    return err(domainError('invalid_request', 'A passkey name has 1-64 characters.', 'name'));
  }
  return (await deps.credentials.renamePasskey(accountId, id, trimmed))
    ? ok(true)
    : err(domainError('not_found', 'No such passkey.', 'passkey'));
}
