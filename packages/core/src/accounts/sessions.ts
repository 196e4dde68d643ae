import type { Caller, CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { digestsEqual, generateSecret, randomUuid, sha256Hex } from '../secrets.js';
import type { Account } from './account.js';
import type { SessionRecord } from './credentials.js';

type Deps = Pick<CoreDeps, 'accounts' | 'sessions' | 'clock' | 'random'>;

const DAY = 24 * 3_600_000;
/** A session unused this long has ended (decisions §10). */
export const SESSION_IDLE_MS = 14 * DAY;
/** A session ends this long after sign-in, however much it is used (decisions §10). */
export const SESSION_MAX_MS = 90 * DAY;
/**
 * What gives lasting access (a passkey added or removed, an API key made in the browser, a password set
 * without one) needs a password or passkey entered in the session within this long (decisions §14).
 */
export const RECENT_SIGN_IN_MS = 10 * 60_000;
/** `lastSeenAt` is written at most this often, so a busy session costs no write per request. */
const TOUCH_MS = 60_000;
const SESSION_TOKEN = /^ses_[0-9A-Za-z]{32}$/;

/** A signed-in browser: the session and its account. */
export interface SignedIn {
  readonly session: SessionRecord;
  readonly account: Account;
}

/**
 * Starts a session for the account: returns the token for the cookie (`ses_` + 32 base62, shown only
 * here) and the session, stored by the token's SHA-256. Sessions past their expiry are pruned on the way.
 */
export async function startSession(
  deps: Deps,
  accountId: string,
  client: Pick<SessionRecord, 'device' | 'browser'> = { device: null, browser: null },
): Promise<{ readonly token: string; readonly session: SessionRecord }> {
  const now = deps.clock.now();
  await deps.sessions.pruneSessions(now - SESSION_IDLE_MS, now - SESSION_MAX_MS);
  const token = generateSecret(deps.random, 'ses_');
  const session: SessionRecord = {
    id: randomUuid(deps.random),
    accountId,
    tokenHash: sha256Hex(token),
    createdAt: now,
    lastSeenAt: now,
    device: client.device,
    browser: client.browser,
  };
  await deps.sessions.addSession(session);
  return { token, session };
}

/**
 * `forbidden` (field `recent_sign_in`) unless the session began with a password or passkey within
 * {@link RECENT_SIGN_IN_MS}: a session starts at a sign-in, and confirming the password starts a new one.
 */
export function requireRecentSignIn(deps: Pick<CoreDeps, 'clock'>, signedIn: SignedIn): Result<true> {
  if (deps.clock.now() - signedIn.session.createdAt < RECENT_SIGN_IN_MS) return ok(true);
  return err(domainError('forbidden', 'Enter your password or use a passkey again first.', 'recent_sign_in'));
}

/** Whether a session has ended by its idle or absolute expiry at `now`. */
export function sessionExpired(session: SessionRecord, now: number): boolean {
  return now - session.lastSeenAt >= SESSION_IDLE_MS || now - session.createdAt >= SESSION_MAX_MS;
}

/**
 * The session of a cookie token and its account; `unauthorized` when malformed, unknown, expired or of a
 * disabled account. Records the use (at most once a minute), which moves the idle expiry.
 */
export async function authenticateSession(deps: Deps, token: string): Promise<Result<SignedIn>> {
  const bad = err(domainError('unauthorized', 'The session has ended. Sign in again.'));
  if (!SESSION_TOKEN.test(token)) return bad;
  const hash = sha256Hex(token);
  const session = await deps.sessions.findSessionByHash(hash);
  if (session === null || !digestsEqual(session.tokenHash, hash)) return bad;
  const now = deps.clock.now();
  if (sessionExpired(session, now)) {
    await deps.sessions.deleteSession(session.accountId, session.id);
    return bad;
  }
  const account = await deps.accounts.findAccountById(session.accountId);
  if (account === null || account.disabledAt !== null) return bad;
  if (now - session.lastSeenAt < TOUCH_MS) return ok({ session, account });
  await deps.sessions.touchSession(session.id, now);
  return ok({ session: { ...session, lastSeenAt: now }, account });
}

/** Ends the session of a cookie token (signing out); nothing happens for an unknown token. */
export async function endSession(deps: Deps, token: string): Promise<void> {
  if (!SESSION_TOKEN.test(token)) return;
  const session = await deps.sessions.findSessionByHash(sha256Hex(token));
  if (session !== null) await deps.sessions.deleteSession(session.accountId, session.id);
}

/** The account's live sessions, most recently seen first (settings lists them). */
export async function listSessions(deps: Deps, accountId: string): Promise<SessionRecord[]> {
  const now = deps.clock.now();
  return (await deps.sessions.listSessions(accountId)).filter((s) => !sessionExpired(s, now));
}

/** Ends one session of the account by id; `not_found` when it has no such session. */
export async function endSessionById(deps: Deps, accountId: string, id: string): Promise<Result<true>> {
  return (await deps.sessions.deleteSession(accountId, id))
    ? ok(true)
    : err(domainError('not_found', 'No such session.', 'session'));
}

/**
 * The caller of an admin's requests on `/admin` (decisions §10): the operator's rights over every link,
 * as the `shortener` CLI has them. Null for any other account, and for a disabled admin.
 */
export function adminCallerOf(signedIn: SignedIn): Caller | null {
  const { account } = signedIn;
  if (account.role !== 'admin' || account.disabledAt !== null) return null;
  return { accountId: account.id, editToken: null, operator: true };
}
