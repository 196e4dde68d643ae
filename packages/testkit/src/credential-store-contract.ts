import type { Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { aPasskey, anInvite, FIXTURE_TIME } from './fixtures.js';
import { givenAccount, useFreshStores } from './fresh-stores.js';

const challengeOf = (challenge: string, accountId: string | null, at = FIXTURE_TIME) => ({
  challenge,
  purpose: 'register' as const,
  accountId,
  inviteHash: null,
  createdAt: at,
  expiresAt: at + 300_000,
});

/**
 * Registers the CredentialStore contract: passwords, passkeys, invites and WebAuthn challenges. Every
 * CredentialStore must pass it (memory, SQLite, and any network store).
 */
export function describeCredentialStoreContract(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: CredentialStore contract`, () => {
    const stores = useFreshStores(open);
    const credentials = () => stores().credentials;

    it('sets, replaces and removes a password hash per account', async () => {
      const [alice, bob] = [await givenAccount(stores()), await givenAccount(stores())];
      expect(await credentials().passwordHashOf(alice.id)).toBeNull();
      await credentials().setPasswordHash(alice.id, 'scrypt$1');
      await credentials().setPasswordHash(alice.id, 'scrypt$2');
      expect(await credentials().passwordHashOf(alice.id)).toBe('scrypt$2');
      expect(await credentials().passwordHashOf(bob.id)).toBeNull();
      await credentials().setPasswordHash(alice.id, null);
      expect(await credentials().passwordHashOf(alice.id)).toBeNull();
    });

    it('keeps passkeys per account, refuses a registered id and records their use', async () => {
      const { id: accountId } = await givenAccount(stores());
      const other = await givenAccount(stores());
      const first = aPasskey({ accountId, createdAt: FIXTURE_TIME + 1 });
      const second = aPasskey({ accountId, createdAt: FIXTURE_TIME + 2, transports: [] });
      expect(await credentials().addPasskey(second)).toStrictEqual({ ok: true, value: second });
      await credentials().addPasskey(first);
      await credentials().addPasskey(aPasskey({ accountId: other.id }));
      const again = await credentials().addPasskey({ ...first, accountId: other.id });
      expect(again.ok ? null : [again.error.code, again.error.field]).toEqual(['invalid_request', 'passkey']);
      expect(await credentials().listPasskeys(accountId)).toStrictEqual([first, second]);
      await credentials().usePasskey(first.id, 7, FIXTURE_TIME + 60);
      expect(await credentials().findPasskey(first.id)).toStrictEqual({
        ...first,
        counter: 7,
        lastUsedAt: FIXTURE_TIME + 60,
      });
      expect(await credentials().findPasskey('unknown')).toBeNull();
    });

    it("deletes a passkey of its account, not another account's", async () => {
      const { id: accountId } = await givenAccount(stores());
      const other = await givenAccount(stores());
      const passkey = aPasskey({ accountId });
      await credentials().addPasskey(passkey);
      expect(await credentials().deletePasskey(other.id, passkey.id)).toBe(false);
      expect(await credentials().deletePasskey(accountId, passkey.id)).toBe(true);
      expect(await credentials().findPasskey(passkey.id)).toBeNull();
    });

    it("renames a passkey of its account, not another account's", async () => {
      const { id: accountId } = await givenAccount(stores());
      const other = await givenAccount(stores());
      const passkey = aPasskey({ accountId });
      await credentials().addPasskey(passkey);
      expect(await credentials().renamePasskey(other.id, passkey.id, 'stolen')).toBe(false);
      expect(await credentials().renamePasskey(accountId, 'unknown', 'nothing')).toBe(false);
      expect(await credentials().renamePasskey(accountId, passkey.id, 'Work laptop')).toBe(true);
      expect(await credentials().findPasskey(passkey.id)).toStrictEqual({ ...passkey, name: 'Work laptop' });
    });

    it('uses an invite once, and never after it expired', async () => {
      const { id: accountId } = await givenAccount(stores());
      const invite = anInvite({ accountId });
      const late = anInvite({ accountId });
      await credentials().addInvite(invite);
      await credentials().addInvite(late);
      expect(await credentials().findInvite(invite.tokenHash)).toStrictEqual(invite);
      expect(await credentials().consumeInvite(invite.tokenHash, FIXTURE_TIME + 5)).toStrictEqual(invite);
      expect(await credentials().consumeInvite(invite.tokenHash, FIXTURE_TIME + 6)).toBeNull();
      expect(await credentials().findInvite(invite.tokenHash)).toStrictEqual({
        ...invite,
        usedAt: FIXTURE_TIME + 5,
      });
      expect(await credentials().consumeInvite(late.tokenHash, late.expiresAt)).toBeNull();
      expect(await credentials().consumeInvite('f'.repeat(64), FIXTURE_TIME)).toBeNull();
    });

    it('lets exactly one of many concurrent uses of an invite win', async () => {
      const { id: accountId } = await givenAccount(stores());
      const invite = anInvite({ accountId });
      await credentials().addInvite(invite);
      const uses = await Promise.all(
        Array.from({ length: 8 }, (_, i) => credentials().consumeInvite(invite.tokenHash, FIXTURE_TIME + i)),
      );
      expect(uses.filter((use) => use !== null)).toHaveLength(1);
    });

    it('gives a challenge back once, and not after it expired', async () => {
      const { id: accountId } = await givenAccount(stores());
      const live = challengeOf('live', accountId);
      const stale = challengeOf('stale', null);
      await credentials().addChallenge(live);
      await credentials().addChallenge(stale);
      expect(await credentials().consumeChallenge('live', FIXTURE_TIME + 1)).toStrictEqual(live);
      expect(await credentials().consumeChallenge('live', FIXTURE_TIME + 2)).toBeNull();
      expect(await credentials().consumeChallenge('stale', stale.expiresAt)).toBeNull();
      expect(await credentials().consumeChallenge('unknown', FIXTURE_TIME)).toBeNull();
    });

    it('drops the challenges expired by the time a new one is added', async () => {
      await credentials().addChallenge(challengeOf('old', null));
      await credentials().addChallenge(challengeOf('new', null, FIXTURE_TIME + 300_000));
      expect(await credentials().consumeChallenge('old', FIXTURE_TIME)).toBeNull();
      expect(await credentials().consumeChallenge('new', FIXTURE_TIME + 300_001)).not.toBeNull();
    });
  });
}
