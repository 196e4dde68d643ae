import type { PasskeyCeremony, PasskeyDeps, Stores } from '@shortener/core';
import {
  beginPasskeyRegistration,
  PASSKEY_OPTIONS_PER_MINUTE,
  beginPasskeySignIn,
  finishPasskeyRegistration,
  finishPasskeySignIn,
  inviteAccount,
  openInvite,
  setAccountDisabled,
  startSession,
  authenticateSession,
} from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { codeOf, useCoreHarness, valueOf } from './core-harness.js';

/** What the stand-in authenticator answers: the challenge it signed and whether its signature holds. */
interface FakeAnswer {
  readonly challenge: string;
  readonly credentialId: string;
  readonly counter: number;
  readonly signed: boolean;
}

/**
 * A stand-in for the WebAuthn library: options carry the challenge, and an answer verifies when it
 * signed the expected challenge. The real ceremony (SimpleWebAuthn) is proven in Chromium.
 */
const fakeCeremony: PasskeyCeremony = {
  registrationOptions: async ({ challenge, account, exclude }) => ({
    challenge,
    user: account.name,
    exclude: exclude.map((p) => p.id),
  }),
  verifyRegistration: async (response, challenge) => {
    const answer = response as FakeAnswer;
    if (!answer.signed || answer.challenge !== challenge) return null;
    return {
      id: answer.credentialId,
      publicKey: 'cHVibGlj',
      counter: answer.counter,
      transports: ['internal'],
    };
  },
  authenticationOptions: async (challenge) => ({ challenge }),
  verifyAuthentication: async (response, challenge, passkey) => {
    const answer = response as FakeAnswer;
    return answer.signed && answer.challenge === challenge && answer.credentialId === passkey.id
      ? answer.counter
      : null;
  },
  claimsOf: (response) => {
    const answer = response as Partial<FakeAnswer> | null;
    return typeof answer?.challenge === 'string' && typeof answer.credentialId === 'string'
      ? { challenge: answer.challenge, credentialId: answer.credentialId }
      : null;
  },
};

/** The client address of the sign-ins (a key of the limiter only). */
const IP = '192.0.2.7';

const challengeIn = (options: unknown) => (options as { challenge: string }).challenge;
const answer = (options: unknown, credentialId: string, counter = 1, signed = true): FakeAnswer => ({
  challenge: challengeIn(options),
  credentialId,
  counter,
  signed,
});

/** Passkeys through core on a real store, with a stand-in WebAuthn library (decisions §10). */
export function describePasskeySuite(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: passkeys`, () => {
    const core = useCoreHarness(open);
    const harness = (): PasskeyDeps & ReturnType<typeof core> => ({ ...core(), passkeys: fakeCeremony });
    const inviteTokenOf = async (h: ReturnType<typeof harness>, who: string) => {
      const { url } = valueOf(await inviteAccount(h, who));
      return url.slice(url.lastIndexOf('/') + 1);
    };
    /** Registers `who` through an invite with the passkey `credentialId`. */
    const registeredByInvite = async (h: ReturnType<typeof harness>, who: string, credentialId: string) => {
      const inviteToken = await inviteTokenOf(h, who);
      const options = valueOf(await beginPasskeyRegistration(h, { inviteToken }));
      return valueOf(await finishPasskeyRegistration(h, { inviteToken }, answer(options, credentialId)));
    };
    /** Registers `who` with the passkey `a` and signs them in now. */
    const signedInWithPasskey = async (h: ReturnType<typeof harness>, who: string) => {
      const { id: accountId } = await registeredByInvite(h, who, 'a');
      const signedIn = valueOf(await authenticateSession(h, (await startSession(h, accountId)).token));
      return { accountId, signedIn };
    };

    it('registers a passkey through an invite, uses the invite up and signs in with it', async () => {
      const h = harness();
      const inviteToken = await inviteTokenOf(h, 'mia');
      const options = valueOf(await beginPasskeyRegistration(h, { inviteToken }));
      const account = valueOf(await finishPasskeyRegistration(h, { inviteToken }, answer(options, 'cred-1')));
      expect(account.name).toBe('mia');
      expect(codeOf(await openInvite(h, inviteToken))).toBe('not_found');
      const signIn = valueOf(await beginPasskeySignIn(h, IP));
      expect(valueOf(await finishPasskeySignIn(h, answer(signIn, 'cred-1', 5))).id).toBe(account.id);
      expect(await h.credentials.findPasskey('cred-1')).toMatchObject({
        counter: 5,
        lastUsedAt: h.clock.now(),
      });
    });

    it('adds a passkey to a signed-in account, listing its passkeys to exclude', async () => {
      const h = harness();
      const { accountId, signedIn } = await signedInWithPasskey(h, 'noah');
      const second = valueOf(await beginPasskeyRegistration(h, { signedIn }));
      expect(second).toMatchObject({ user: 'noah', exclude: ['a'] });
      valueOf(await finishPasskeyRegistration(h, { signedIn }, answer(second, 'b')));
      expect((await h.credentials.listPasskeys(accountId)).map((p) => p.id)).toEqual(['a', 'b']);
    });

    it('adds a passkey only within 10 minutes of a sign-in (decisions §14)', async () => {
      const h = harness();
      const { accountId, signedIn } = await signedInWithPasskey(h, 'nora');
      h.clock.advance(8 * 60_000);
      const options = valueOf(await beginPasskeyRegistration(h, { signedIn }));
      h.clock.advance(2 * 60_000); // the challenge lives 5 minutes; the sign-in is now 10 minutes old
      expect(codeOf(await beginPasskeyRegistration(h, { signedIn }))).toBe('forbidden');
      expect(codeOf(await finishPasskeyRegistration(h, { signedIn }, answer(options, 'late')))).toBe(
        'forbidden',
      );
      expect((await h.credentials.listPasskeys(accountId)).map((p) => p.id)).toEqual(['a']);
    });

    it('removes every passkey and session when a reset link is used (decisions §14)', async () => {
      const h = harness();
      const owen = await registeredByInvite(h, 'owen', 'thief');
      const stolen = await startSession(h, owen.id);
      const reset = await inviteTokenOf(h, 'OWEN');
      const options = valueOf(await beginPasskeyRegistration(h, { inviteToken: reset }));
      valueOf(await finishPasskeyRegistration(h, { inviteToken: reset }, answer(options, 'owner')));
      expect((await h.credentials.listPasskeys(owen.id)).map((p) => p.id)).toEqual(['owner']);
      expect(codeOf(await authenticateSession(h, stolen.token))).toBe('unauthorized');
      const signIn = valueOf(await beginPasskeySignIn(h, IP));
      expect(codeOf(await finishPasskeySignIn(h, answer(signIn, 'thief')))).toBe('unauthorized');
    });

    it('refuses a replayed, unsigned or foreign answer', async () => {
      const h = harness();
      const inviteToken = await inviteTokenOf(h, 'olga');
      const options = valueOf(await beginPasskeyRegistration(h, { inviteToken }));
      const other = await inviteTokenOf(h, 'pete');
      expect(codeOf(await finishPasskeyRegistration(h, { inviteToken: other }, answer(options, 'x')))).toBe(
        'unauthorized',
      );
      const again = valueOf(await beginPasskeyRegistration(h, { inviteToken }));
      expect(codeOf(await finishPasskeyRegistration(h, { inviteToken }, answer(again, 'x', 1, false)))).toBe(
        'unauthorized',
      );
      const third = valueOf(await beginPasskeyRegistration(h, { inviteToken }));
      valueOf(await finishPasskeyRegistration(h, { inviteToken }, answer(third, 'x')));
      const signIn = valueOf(await beginPasskeySignIn(h, IP));
      valueOf(await finishPasskeySignIn(h, answer(signIn, 'x')));
      expect(codeOf(await finishPasskeySignIn(h, answer(signIn, 'x')))).toBe('unauthorized');
      expect(
        codeOf(await finishPasskeySignIn(h, answer(valueOf(await beginPasskeySignIn(h, IP)), 'unknown'))),
      ).toBe('unauthorized');
      expect(codeOf(await finishPasskeySignIn(h, { nonsense: true }))).toBe('unauthorized');
    });

    it('stores at most 20 sign-in challenges a minute per address, however many are asked for at once', async () => {
      const h = harness();
      const answers = await Promise.all(Array.from({ length: 100 }, () => beginPasskeySignIn(h, IP)));
      expect(answers.filter((a) => a.ok)).toHaveLength(PASSKEY_OPTIONS_PER_MINUTE);
      expect(new Set(answers.filter((a) => !a.ok).map(codeOf))).toStrictEqual(new Set(['rate_limited']));
      expect(valueOf(await beginPasskeySignIn(h, '2001:db8::1'))).toBeDefined();
      h.clock.advance(60_000);
      expect(valueOf(await beginPasskeySignIn(h, IP))).toBeDefined();
    });

    it('refuses an expired challenge and a disabled account', async () => {
      const h = harness();
      const account = await registeredByInvite(h, 'quinn', 'q');
      const late = valueOf(await beginPasskeySignIn(h, IP));
      h.clock.advance(5 * 60_000);
      expect(codeOf(await finishPasskeySignIn(h, answer(late, 'q')))).toBe('unauthorized');
      valueOf(await setAccountDisabled(h, account.id, true));
      expect(
        codeOf(await finishPasskeySignIn(h, answer(valueOf(await beginPasskeySignIn(h, IP)), 'q'))),
      ).toBe('unauthorized');
    });

    it('ends the sessions of the account when a passkey is set through a reset link', async () => {
      const h = harness();
      const account = await registeredByInvite(h, 'rosa', 'r1');
      const { token } = await startSession(h, account.id);
      const reset = await inviteTokenOf(h, 'rosa');
      const again = valueOf(await beginPasskeyRegistration(h, { inviteToken: reset }));
      valueOf(await finishPasskeyRegistration(h, { inviteToken: reset }, answer(again, 'r2')));
      expect(codeOf(await authenticateSession(h, token))).toBe('unauthorized');
    });
  });
}
