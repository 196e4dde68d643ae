import type { Stores } from '@shortener/core';
import {
  INVITE_TTL_MS,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  acceptInviteWithPassword,
  authenticateApiKey,
  authenticateSession,
  changePassword,
  createAccount,
  createApiKey,
  endSession,
  inviteAccount,
  listSessions,
  openInvite,
  setAccountDisabled,
  sha256Hex,
  signInWithPassword,
  signUp,
  startSession,
  RECENT_SIGN_IN_MS,
  SIGN_IN_LIMITS,
  confirmSignIn,
  guessUnderLimit,
  requireRecentSignIn,
  signIn,
} from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { codeOf, TEST_CONFIG, useCoreHarness, valueOf } from './core-harness.js';
import type { Harness } from './core-harness.js';

const IP = '192.0.2.9';
const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

async function invited(h: Harness, name: string, password = 'correct horse'): Promise<string> {
  const invite = valueOf(await inviteAccount(h, name));
  valueOf(await acceptInviteWithPassword(h, tokenOf(invite.url), password));
  return invite.account.id;
}

/** Invites, passwords and sessions through core on a real store (decisions §10). */
export function describeSignInSuite(name: string, open: () => Promise<Stores>): void {
  // a scrypt per password checked or set: tens of them take seconds on a busy machine, and an embedding
  // project runs these with vitest's default of 5 s
  describe(`${name}: invites, passwords and sessions`, { timeout: 30_000 }, () => {
    const harness = useCoreHarness(open);

    it('invites a new account with a one-time link of 48 hours, stored hashed', async () => {
      const h = harness();
      const invite = valueOf(await inviteAccount(h, 'dana', true));
      expect(invite).toMatchObject({ created: true, account: { name: 'dana', role: 'admin' } });
      expect(invite.url).toMatch(/^https:\/\/app\.example\/account\/invite\/inv_[0-9A-Za-z]{32}$/);
      expect(invite.expiresAt).toBe(h.clock.now() + INVITE_TTL_MS);
      const token = tokenOf(invite.url);
      expect(await h.credentials.findInvite(token)).toBeNull();
      expect(await h.credentials.findInvite(sha256Hex(token))).not.toBeNull();
      valueOf(await acceptInviteWithPassword(h, token, 'a good password'));
      expect(codeOf(await acceptInviteWithPassword(h, token, 'a good password'))).toBe('not_found');
      expect(valueOf(await signInWithPassword(h, 'dana', 'a good password')).id).toBe(invite.account.id);
    });

    it('refuses an expired invite and a password of the wrong length without using the link', async () => {
      const h = harness();
      const token = tokenOf(valueOf(await inviteAccount(h, 'erin')).url);
      expect(codeOf(await acceptInviteWithPassword(h, token, 'short'))).toBe('invalid_request');
      expect(codeOf(await acceptInviteWithPassword(h, token, 'x'.repeat(129)))).toBe('invalid_request');
      h.clock.advance(INVITE_TTL_MS);
      expect(codeOf(await openInvite(h, token))).toBe('not_found');
      expect(codeOf(await openInvite(h, 'inv_nonsense'))).toBe('not_found');
    });

    it('makes a reset link for an existing account that ends its sessions', async () => {
      const h = harness();
      const accountId = await invited(h, 'frank', 'first password');
      const { token: old } = await startSession(h, accountId);
      const reset = valueOf(await inviteAccount(h, 'frank'));
      expect(reset).toMatchObject({ created: false, account: { id: accountId, role: 'user' } });
      valueOf(await acceptInviteWithPassword(h, tokenOf(reset.url), 'second password'));
      expect(codeOf(await authenticateSession(h, old))).toBe('unauthorized');
      expect(codeOf(await signInWithPassword(h, 'frank', 'first password'))).toBe('unauthorized');
      valueOf(await signInWithPassword(h, 'frank', 'second password'));
    });

    it('gives the same answer for an unknown name, a wrong password and no password', async () => {
      const h = harness();
      await invited(h, 'gina');
      valueOf(await createAccount(h, 'nopass'));
      const answers = [
        await signInWithPassword(h, 'gina', 'wrong password'),
        await signInWithPassword(h, 'ghost', 'correct horse'),
        await signInWithPassword(h, 'nopass', 'correct horse'),
      ];
      expect(answers.map((a) => (a.ok ? 'ok' : `${a.error.code}: ${a.error.message}`))).toEqual(
        Array(3).fill('unauthorized: The name or the password is wrong.'),
      );
    });

    it('keeps a session alive while used, and ends it after 14 idle days or 90 days', async () => {
      const h = harness();
      const accountId = await invited(h, 'hank');
      const { token, session } = await startSession(h, accountId);
      expect(token).toMatch(/^ses_[0-9A-Za-z]{32}$/);
      expect(session.tokenHash).toBe(sha256Hex(token));
      for (let day = 0; day < 6; day++) {
        h.clock.advance(SESSION_IDLE_MS - 1);
        expect(valueOf(await authenticateSession(h, token)).account.name).toBe('hank');
      }
      h.clock.set(session.createdAt + SESSION_MAX_MS);
      expect(codeOf(await authenticateSession(h, token))).toBe('unauthorized');
      const idle = await startSession(h, accountId);
      h.clock.advance(SESSION_IDLE_MS);
      expect(codeOf(await authenticateSession(h, idle.token))).toBe('unauthorized');
      expect(await listSessions(h, accountId)).toEqual([]);
    });

    it('ends a session on sign-out and refuses malformed tokens', async () => {
      const h = harness();
      const { token } = await startSession(h, await invited(h, 'ivy'));
      await endSession(h, token);
      expect(codeOf(await authenticateSession(h, token))).toBe('unauthorized');
      expect(codeOf(await authenticateSession(h, 'ses_short'))).toBe('unauthorized');
    });

    it('changes a password and ends every other session', async () => {
      const h = harness();
      const accountId = await invited(h, 'jack', 'old password');
      const here = await startSession(h, accountId);
      const elsewhere = await startSession(h, accountId);
      const signedIn = valueOf(await authenticateSession(h, here.token));
      expect(codeOf(await changePassword(h, signedIn, 'not it', 'new password'))).toBe('unauthorized');
      valueOf(await changePassword(h, signedIn, 'old password', 'new password'));
      expect(codeOf(await authenticateSession(h, elsewhere.token))).toBe('unauthorized');
      valueOf(await authenticateSession(h, here.token));
      valueOf(await signInWithPassword(h, 'jack', 'new password'));
    });

    it('refuses sign-in, sessions and keys of a disabled account until it is enabled', async () => {
      const h = harness();
      const accountId = await invited(h, 'kim');
      const { token } = await startSession(h, accountId);
      const { secret } = valueOf(await createApiKey(h, 'kim', 'laptop', 'cli'));
      valueOf(await setAccountDisabled(h, 'kim', true));
      expect(codeOf(await signInWithPassword(h, 'kim', 'correct horse'))).toBe('unauthorized');
      expect(codeOf(await authenticateSession(h, token))).toBe('unauthorized');
      expect(codeOf(await authenticateApiKey(h, secret))).toBe('unauthorized');
      valueOf(await setAccountDisabled(h, 'kim', false));
      valueOf(await authenticateApiKey(h, secret));
    });

    it('signs up only when SIGNUP is open, and invites only existing accounts when closed', async () => {
      const h = harness();
      expect(codeOf(await signUp(h, 'lee', 'a good password', IP))).toBe('forbidden');
      const open = { ...h, config: { ...TEST_CONFIG, signup: 'open' as const } };
      valueOf(await signUp(open, 'lee', 'a good password', IP));
      expect(codeOf(await signUp(open, 'lee', 'a good password', IP))).toBe('invalid_request');
      const closed = { ...h, config: { ...TEST_CONFIG, signup: 'closed' as const } };
      expect(codeOf(await inviteAccount(closed, 'newcomer'))).toBe('forbidden');
      valueOf(await inviteAccount(closed, 'lee'));
    });

    it('makes at most 3 accounts per address per hour by open sign-up, however many at once', async () => {
      const h = harness();
      const open = { ...h, config: { ...TEST_CONFIG, signup: 'open' as const } };
      expect(codeOf(await signUp(open, 'bad name!', 'a good password', '2001:db8:1::1'))).toBe(
        'invalid_request',
      );
      const made = await Promise.all(
        Array.from({ length: 20 }, (_, i) => signUp(open, `bot${i}`, 'a good password', `2001:db8:1::${i}`)),
      );
      expect(made.filter((m) => m.ok)).toHaveLength(TEST_CONFIG.limits.signupPerHour);
      expect(made.filter((m) => !m.ok && m.error.code === 'rate_limited')).toHaveLength(
        20 - TEST_CONFIG.limits.signupPerHour,
      );
      valueOf(await signUp(open, 'elsewhere', 'a good password', '198.51.100.20'));
      h.clock.advance(3_600_000);
      valueOf(await signUp(open, 'later', 'a good password', '2001:db8:1::99'));
    });

    it('treats names alike whatever their case, keeping the spelling given (decisions §14)', async () => {
      const h = harness();
      const accountId = await invited(h, 'Alice', 'alice password');
      expect(codeOf(await createAccount(h, 'alice'))).toBe('invalid_request');
      expect(codeOf(await createAccount(h, 'ALICE'))).toBe('invalid_request');
      expect(valueOf(await signInWithPassword(h, 'ALICE', 'alice password'))).toMatchObject({
        id: accountId,
        name: 'Alice',
      });
      expect(valueOf(await signInWithPassword(h, 'ａｌｉｃｅ', 'alice password')).id).toBe(accountId);
      expect(valueOf(await inviteAccount(h, 'aLiCe'))).toMatchObject({
        created: false,
        account: { id: accountId },
      });
    });

    it('checks no more of 100 concurrent wrong sign-ins than the limit, and refunds a right one', async () => {
      const h = harness();
      await invited(h, 'mona', 'mona password');
      const guesses = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          signIn(h, i % 2 ? 'mona' : 'MONA', i === 50 ? 'mona password' : `guess ${i}`, '203.0.113.7'),
        ),
      );
      const limited = guesses.filter((g) => !g.ok && g.error.code === 'rate_limited');
      const checked = guesses.length - limited.length;
      expect(checked).toBeLessThanOrEqual(SIGN_IN_LIMITS.perAccount + 1);
      expect(limited.length).toBeGreaterThanOrEqual(100 - SIGN_IN_LIMITS.perAccount - 1);
      expect(limited.every((g) => 'retryAfterMs' in g && g.retryAfterMs > 0)).toBe(true);
    });

    it('limits wrong sign-ins per address across accounts', async () => {
      const h = harness();
      const tries = await Promise.all(
        Array.from({ length: 40 }, (_, i) => signIn(h, `ghost${i}`, 'wrong password', '2001:db8::1')),
      );
      expect(tries.filter((t) => !t.ok && t.error.code === 'rate_limited')).toHaveLength(
        40 - SIGN_IN_LIMITS.perAddress,
      );
      // another address of the same /64 is the same subject
      expect(codeOf(await signIn(h, 'ghost', 'wrong password', '2001:db8::2'))).toBe('rate_limited');
      expect(codeOf(await signIn(h, 'ghost', 'wrong password', '198.51.100.1'))).toBe('unauthorized');
    });

    it('gives back the try of a right password, so the owner is never locked out by their own sign-ins', async () => {
      const h = harness();
      await invited(h, 'nell', 'nell password');
      for (let i = 0; i < 3 * SIGN_IN_LIMITS.perAccount; i++) {
        valueOf(await signIn(h, 'nell', 'nell password', '192.0.2.1'));
      }
    });

    it('limits guesses of the current password on a change', async () => {
      const h = harness();
      const accountId = await invited(h, 'olga', 'olga password');
      const signedIn = valueOf(await authenticateSession(h, (await startSession(h, accountId)).token));
      const changes = await Promise.all(
        Array.from({ length: 30 }, (_, i) => changePassword(h, signedIn, `guess ${i}`, 'new password')),
      );
      expect(changes.filter((c) => !c.ok && c.error.code === 'rate_limited')).toHaveLength(
        30 - SIGN_IN_LIMITS.perAccount,
      );
      expect(codeOf(await changePassword(h, signedIn, 'olga password', 'new password'))).toBe('rate_limited');
    });

    it('gives back the try of a check that failed instead of answering (the store away)', async () => {
      const h = harness();
      const budgets = [{ key: 'one-try', windows: [{ windowMs: 60_000, limit: 1 }] }];
      const away = () => Promise.reject(new Error('the store is away'));
      await expect(guessUnderLimit(h, budgets, away)).rejects.toThrow('the store is away');
      expect(await guessUnderLimit(h, budgets, async () => false)).toMatchObject({
        allowed: true,
        right: false,
      });
      expect(await guessUnderLimit(h, budgets, async () => true)).toMatchObject({ allowed: false });
    });

    it('confirms the password in a session by starting a new one', async () => {
      const h = harness();
      const accountId = await invited(h, 'pia', 'pia password');
      const old = await startSession(h, accountId);
      const signedIn = valueOf(await authenticateSession(h, old.token));
      h.clock.advance(RECENT_SIGN_IN_MS);
      expect(codeOf(requireRecentSignIn(h, signedIn))).toBe('forbidden');
      expect(codeOf(await confirmSignIn(h, signedIn, 'wrong password', '192.0.2.2'))).toBe('unauthorized');
      const fresh = valueOf(await confirmSignIn(h, signedIn, 'pia password', '192.0.2.2'));
      expect(codeOf(await authenticateSession(h, old.token))).toBe('unauthorized');
      valueOf(requireRecentSignIn(h, valueOf(await authenticateSession(h, fresh.token))));
    });
  });
}
