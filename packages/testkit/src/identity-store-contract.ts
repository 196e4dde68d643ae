import type { IdentityLink, Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { FIXTURE_TIME } from './fixtures.js';
import { givenAccount, useFreshStores } from './fresh-stores.js';

const ISSUER = 'https://accounts.example.com';
const OTHER_ISSUER = 'https://login.example.org/tenant';
let sequence = 0;

/** A link of a new subject at {@link ISSUER} to `accountId`, linked at {@link FIXTURE_TIME}; overrides win. */
export function anIdentity(accountId: string, overrides: Partial<IdentityLink> = {}): IdentityLink {
  sequence += 1;
  return {
    issuer: ISSUER,
    subject: `10769150${String(sequence).padStart(8, '0')}`,
    accountId,
    linkedAt: FIXTURE_TIME,
    ...overrides,
  };
}

/**
 * Registers the IdentityStore contract (decisions §22): every IdentityStore must pass it (memory,
 * SQLite, PostgreSQL). An identity, (issuer, subject), is linked to one account, under any number of
 * concurrent links too.
 */
export function describeIdentityStoreContract(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: IdentityStore contract`, () => {
    const stores = useFreshStores(open);
    describeLinks(stores);
    describeListsAndUnlinks(stores);
  });
}

function describeLinks(stores: () => Stores): void {
  describe('links', () => {
    it('links an identity and finds it by issuer and subject', async () => {
      const s = stores();
      const alice = await givenAccount(s);
      const link = anIdentity(alice.id, { linkedAt: FIXTURE_TIME + 7 });
      expect(await s.identities.linkIdentity(link)).toBe(true);
      expect(await s.identities.findIdentity(link.issuer, link.subject)).toStrictEqual(link);
      expect(await s.identities.findIdentity(OTHER_ISSUER, link.subject)).toBeNull();
      expect(await s.identities.findIdentity(link.issuer, `${link.subject}1`)).toBeNull();
    });

    it('links an identity once: a second link, to the same account or another, is refused and changes nothing', async () => {
      const s = stores();
      const [alice, bob] = [await givenAccount(s), await givenAccount(s)];
      const link = anIdentity(alice.id);
      expect(await s.identities.linkIdentity(link)).toBe(true);
      expect(await s.identities.linkIdentity({ ...link, linkedAt: FIXTURE_TIME + 1 })).toBe(false);
      expect(
        await s.identities.linkIdentity({ ...link, accountId: bob.id, linkedAt: FIXTURE_TIME + 2 }),
      ).toBe(false);
      expect(await s.identities.findIdentity(link.issuer, link.subject)).toStrictEqual(link);
      expect(await s.identities.listIdentities(alice.id)).toStrictEqual([link]);
      expect(await s.identities.listIdentities(bob.id)).toStrictEqual([]);
    });

    it('takes the same subject at another issuer for another identity', async () => {
      const s = stores();
      const [alice, bob] = [await givenAccount(s), await givenAccount(s)];
      const at = anIdentity(alice.id);
      const elsewhere = { ...at, issuer: OTHER_ISSUER, accountId: bob.id };
      expect(await s.identities.linkIdentity(at)).toBe(true);
      expect(await s.identities.linkIdentity(elsewhere)).toBe(true);
      expect(await s.identities.findIdentity(ISSUER, at.subject)).toStrictEqual(at);
      expect(await s.identities.findIdentity(OTHER_ISSUER, at.subject)).toStrictEqual(elsewhere);
    });

    it('links an identity to exactly one of 20 accounts linking it at once', async () => {
      const s = stores();
      const accounts = [];
      for (let i = 0; i < 20; i += 1) accounts.push(await givenAccount(s));
      const link = anIdentity(accounts[0]?.id ?? '');
      // every connection of a pool opened first (concurrent reads), so the links really overlap
      await Promise.all(accounts.map(() => s.identities.findIdentity(link.issuer, link.subject)));
      const outcomes = await Promise.all(
        accounts.map((account) => s.identities.linkIdentity({ ...link, accountId: account.id })),
      );
      expect(outcomes.filter((linked) => linked)).toHaveLength(1);
      const winner = accounts[outcomes.indexOf(true)]?.id ?? '';
      expect(await s.identities.findIdentity(link.issuer, link.subject)).toStrictEqual({
        ...link,
        accountId: winner,
      });
      const listed = await Promise.all(accounts.map((account) => s.identities.listIdentities(account.id)));
      expect(listed.flat()).toStrictEqual([{ ...link, accountId: winner }]);
    });
  });
}

function describeListsAndUnlinks(stores: () => Stores): void {
  describe('lists and unlinks', () => {
    it("lists the account's identities only, oldest link first", async () => {
      const s = stores();
      const [alice, bob] = [await givenAccount(s), await givenAccount(s)];
      const later = anIdentity(alice.id, { linkedAt: FIXTURE_TIME + 20 });
      const earlier = anIdentity(alice.id, { issuer: OTHER_ISSUER, linkedAt: FIXTURE_TIME + 10 });
      const bobs = anIdentity(bob.id, { linkedAt: FIXTURE_TIME + 15 });
      for (const link of [later, bobs, earlier]) expect(await s.identities.linkIdentity(link)).toBe(true);
      expect(await s.identities.listIdentities(alice.id)).toStrictEqual([earlier, later]);
      expect(await s.identities.listIdentities(bob.id)).toStrictEqual([bobs]);
      expect(await s.identities.listIdentities('no-such-account')).toStrictEqual([]);
    });

    it("unlinks an identity of the account once, and no other account's", async () => {
      const s = stores();
      const [alice, bob] = [await givenAccount(s), await givenAccount(s)];
      const alices = anIdentity(alice.id);
      const bobs = anIdentity(bob.id);
      await s.identities.linkIdentity(alices);
      await s.identities.linkIdentity(bobs);
      expect(await s.identities.unlinkIdentity(alice.id, bobs.issuer, bobs.subject)).toBe(false);
      expect(await s.identities.unlinkIdentity(alice.id, OTHER_ISSUER, alices.subject)).toBe(false);
      expect(await s.identities.unlinkIdentity(alice.id, alices.issuer, alices.subject)).toBe(true);
      expect(await s.identities.unlinkIdentity(alice.id, alices.issuer, alices.subject)).toBe(false);
      expect(await s.identities.findIdentity(alices.issuer, alices.subject)).toBeNull();
      expect(await s.identities.listIdentities(alice.id)).toStrictEqual([]);
      expect(await s.identities.findIdentity(bobs.issuer, bobs.subject)).toStrictEqual(bobs);
    });

    it('links an unlinked identity again, to any account', async () => {
      const s = stores();
      const [alice, bob] = [await givenAccount(s), await givenAccount(s)];
      const link = anIdentity(alice.id);
      await s.identities.linkIdentity(link);
      await s.identities.unlinkIdentity(alice.id, link.issuer, link.subject);
      const again = { ...link, accountId: bob.id, linkedAt: FIXTURE_TIME + 1 };
      expect(await s.identities.linkIdentity(again)).toBe(true);
      expect(await s.identities.findIdentity(link.issuer, link.subject)).toStrictEqual(again);
    });
  });
}
