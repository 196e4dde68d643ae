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
} from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { codeOf, TEST_CONFIG, useCoreHarness, valueOf } from './core-harness.js';
import type { Harness } from './core-harness.js';

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

async function invited(h: Harness, name: string, password = 'correct horse'): Promise<string> {
  const invite = valueOf(await inviteAccount(h, name));
  valueOf(await acceptInviteWithPassword(h, tokenOf(invite.url), password));
  return invite.account.id;
}

/** Invites, passwords and sessions through core on a real store (decisions §10). */
export function describeSignInSuite(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: invites, passwords and sessions`, () => {
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
      const { secret } = valueOf(await createApiKey(h, 'kim', 'laptop'));
      valueOf(await setAccountDisabled(h, 'kim', true));
      expect(codeOf(await signInWithPassword(h, 'kim', 'correct horse'))).toBe('unauthorized');
      expect(codeOf(await authenticateSession(h, token))).toBe('unauthorized');
      expect(codeOf(await authenticateApiKey(h, secret))).toBe('unauthorized');
      valueOf(await setAccountDisabled(h, 'kim', false));
      valueOf(await authenticateApiKey(h, secret));
    });

    it('signs up only when SIGNUP is open, and invites only existing accounts when closed', async () => {
      const h = harness();
      expect(codeOf(await signUp(h, 'lee', 'a good password'))).toBe('forbidden');
      const open = { ...h, config: { ...TEST_CONFIG, signup: 'open' as const } };
      valueOf(await signUp(open, 'lee', 'a good password'));
      expect(codeOf(await signUp(open, 'lee', 'a good password'))).toBe('invalid_request');
      const closed = { ...h, config: { ...TEST_CONFIG, signup: 'closed' as const } };
      expect(codeOf(await inviteAccount(closed, 'newcomer'))).toBe('forbidden');
      valueOf(await inviteAccount(closed, 'lee'));
    });
  });
}
