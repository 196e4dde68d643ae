import type { Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { aLink, FIXTURE_TIME } from './fixtures.js';
import { givenAccount, givenLink } from './fresh-stores.js';

const YEAR = 365 * 86_400_000;

/**
 * What `import` of an export relies on: `insert` writes a whole record as given, whatever its status,
 * and a refused insert leaves nothing behind.
 */
export function describeLinkImport(stores: () => Stores): void {
  describe('insert of an exported record', () => {
    it('keeps a used-up, expired, disabled link with its hashes and past dates as written', async () => {
      const account = await givenAccount(stores());
      const link = aLink({
        passwordHash: 'scrypt$16384$8$1$c2FsdA==$aGFzaA==',
        editTokenHash: 'a'.repeat(64),
        accountId: account.id,
        maxClicks: 1,
        clicks: 1,
        lastClickAt: FIXTURE_TIME - YEAR + 7,
        expiresAt: FIXTURE_TIME - YEAR + 9,
        disabled: true,
        publicStats: false,
        createdAt: FIXTURE_TIME - 2 * YEAR,
        updatedAt: FIXTURE_TIME - YEAR,
        createdBy: 'alice',
        updatedBy: 'key:shk_0a1b',
      });
      expect(await stores().links.insert(link)).toStrictEqual({ ok: true, value: link });
      expect(await stores().links.tryConsumeClick(link.id, FIXTURE_TIME)).toBe(false);
      expect(await stores().links.findBySlug(link.domain, link.slug)).toStrictEqual(link);
    });

    it("sums the clicks imported as bare totals on an account's links only", async () => {
      const [alice, bob] = [await givenAccount(stores()), await givenAccount(stores())];
      await givenLink(stores(), { accountId: alice.id, clicks: 9, importedClicks: 7 });
      await givenLink(stores(), { accountId: alice.id, clicks: 5, importedClicks: 5 });
      await givenLink(stores(), { accountId: bob.id, clicks: 2, importedClicks: 2 });
      await givenLink(stores(), { clicks: 3, importedClicks: 3 });
      expect(await stores().links.importedClicks(alice.id)).toBe(12);
      expect(await stores().links.importedClicks(bob.id)).toBe(2);
      expect(await stores().links.importedClicks('00000000-0000-4000-8000-000000000009')).toBe(0);
    });

    it('leaves no trace of a record refused because its slug is taken', async () => {
      const first = await givenLink(stores(), { slug: 'kept', clicks: 4 });
      const refused = aLink({ slug: 'kept', clicks: 9, url: 'https://other.example/' });
      const result = await stores().links.insert(refused);
      expect(result.ok ? null : result.error.code).toBe('slug_taken');
      expect(await stores().links.findById(refused.id)).toBeNull();
      expect(await stores().links.findById(first.id)).toStrictEqual(first);
      const all = (await stores().links.listAll?.({ limit: 10 })) ?? [first];
      expect(all.map((link) => link.id)).toEqual([first.id]);
    });
  });
}
