import type { LinkChanges, Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { aLink, FIXTURE_TIME, anInsertedLink } from './fixtures.js';
import { givenAccount, givenLink, useFreshStores } from './fresh-stores.js';
import { describeLinkClaims, describeLinkClicks } from './link-store-contract-clicks.js';
import { describeLinkHealth } from './link-store-contract-health.js';
import { describeLinkImport } from './link-store-contract-import.js';
import { describeIdempotencyClaims } from './link-store-contract-idempotency.js';
import { describeLinkListing } from './link-store-contract-list.js';
import { describeLinkOrganising } from './link-store-contract-organise.js';

/**
 * Registers the LinkStore contract: every LinkStore must pass it. Each test gets stores from `open`
 * and closes them afterwards.
 */
export function describeLinkStoreContract(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: LinkStore contract`, () => {
    const stores = useFreshStores(open);
    describeInsertAndFind(stores);
    describeInsertMany(stores);
    describeUpdateAndDelete(stores);
    describeLinkListing(stores);
    describeLinkClicks(stores);
    describeLinkClaims(stores);
    describeLinkImport(stores);
    describeIdempotencyClaims(stores);
    describeLinkOrganising(stores);
    describeLinkHealth(stores);
  });
}

function describeInsertAndFind(stores: () => Stores): void {
  describe('insert and find', () => {
    it('returns every field unchanged when every optional field is set', async () => {
      const account = await givenAccount(stores());
      const link = aLink({
        title: 'A title',
        passwordHash: 'scrypt$16384$8$1$c2FsdA$aGFzaA',
        publicStats: false,
        expiresAt: FIXTURE_TIME + 86_400_000 + 123,
        startsAt: FIXTURE_TIME + 3_600_000 + 45,
        maxClicks: 10,
        clicks: 3,
        lastClickAt: FIXTURE_TIME + 5,
        disabled: true,
        accountId: account.id,
        editTokenHash: 'e'.repeat(64),
        createdAt: FIXTURE_TIME + 1,
        updatedAt: FIXTURE_TIME + 2,
        createdBy: 'alice',
        updatedBy: 'key:shk_ab12',
      });
      expect(await stores().links.insert(link)).toStrictEqual({ ok: true, value: link });
      expect(await stores().links.findById(link.id)).toStrictEqual(link);
      expect(await stores().links.findBySlug(link.domain, link.slug)).toStrictEqual(link);
    });

    it('returns every field unchanged when every optional field is null', async () => {
      const link = await anInsertedLink(stores().links, { publicStats: true, disabled: false });
      expect(await stores().links.findById(link.id)).toStrictEqual(link);
      expect(await stores().links.findBySlug(link.domain, link.slug)).toStrictEqual(link);
    });

    it('returns null for an unknown id or slug', async () => {
      await givenLink(stores(), { slug: 'known' });
      expect(await stores().links.findById('00000000-0000-4000-8000-ffffffffffff')).toBeNull();
      expect(await stores().links.findBySlug('sho.rt', 'unknown')).toBeNull();
      expect(await stores().links.findBySlug('other.example', 'known')).toBeNull();
    });

    it('refuses a second link with the same domain and slug with slug_taken', async () => {
      const first = await givenLink(stores(), { slug: 'taken' });
      const result = await stores().links.insert(aLink({ slug: 'taken', url: 'https://other.example/' }));
      expect(result.ok ? null : result.error.code).toBe('slug_taken');
      const again = await stores().links.insert(aLink({ slug: 'taken', domain: 'SHO.RT' }));
      expect(again.ok ? null : again.error.code).toBe('slug_taken');
      expect(await stores().links.findBySlug('sho.rt', 'taken')).toStrictEqual(first);
    });

    it('accepts the same slug on another domain', async () => {
      const a = await givenLink(stores(), { slug: 'shared', domain: 'sho.rt' });
      const b = await givenLink(stores(), { slug: 'shared', domain: 'localhost:3000' });
      expect(await stores().links.findBySlug('sho.rt', 'shared')).toStrictEqual(a);
      expect(await stores().links.findBySlug('localhost:3000', 'shared')).toStrictEqual(b);
    });

    it('stores the domain lower-case and the slug as given, found exactly, then in any case', async () => {
      const link = aLink({ slug: 'MiXed', domain: 'Sho.RT' });
      const stored = { ...link, domain: 'sho.rt' };
      expect(await stores().links.insert(link)).toStrictEqual({ ok: true, value: stored });
      expect(await stores().links.findById(link.id)).toStrictEqual(stored);
      expect(await stores().links.findBySlug('sho.rt', 'MiXed')).toStrictEqual(stored);
      expect(await stores().links.findBySlug('SHO.rt', 'mixed')).toStrictEqual(stored);
      expect(await stores().links.findForRedirect('sho.rt', 'MIXED')).toMatchObject({ id: link.id });
    });

    it('keeps codes that differ only in case apart (decisions §25), a lower-case one first', async () => {
      const upper = await givenLink(stores(), {
        slug: '2V',
        url: 'https://upper.example/',
        createdAt: FIXTURE_TIME,
      });
      const mixed = await givenLink(stores(), {
        slug: 'aB',
        url: 'https://mixed.example/',
        createdAt: FIXTURE_TIME,
      });
      const lower = await givenLink(stores(), {
        slug: '2v',
        url: 'https://lower.example/',
        createdAt: FIXTURE_TIME + 1,
      });
      const older = await givenLink(stores(), {
        slug: 'AB',
        url: 'https://older.example/',
        createdAt: FIXTURE_TIME - 1,
      });
      expect(await stores().links.findBySlug('sho.rt', '2V')).toStrictEqual(upper);
      expect(await stores().links.findBySlug('sho.rt', '2v')).toStrictEqual(lower);
      expect((await stores().links.findForRedirect('sho.rt', '2V'))?.id).toBe(upper.id);
      expect((await stores().links.findForRedirect('sho.rt', '2v'))?.id).toBe(lower.id);
      // no exact match: the lower-case link, else the oldest
      await givenLink(stores(), { slug: 'XY', createdAt: FIXTURE_TIME - 5 });
      const newerLower = await givenLink(stores(), { slug: 'xy', createdAt: FIXTURE_TIME + 5 });
      expect((await stores().links.findBySlug('sho.rt', 'Xy'))?.id).toBe(newerLower.id);
      expect((await stores().links.findBySlug('sho.rt', 'ab'))?.id).toBe(older.id);
      expect((await stores().links.findForRedirect('sho.rt', 'Ab'))?.id).toBe(older.id);
      expect((await stores().links.findBySlug('sho.rt', 'aB'))?.id).toBe(mixed.id);
      const again = await stores().links.insert(aLink({ slug: '2V' }));
      expect(again.ok ? null : again.error.code).toBe('slug_taken');
    });
  });
}

function describeInsertMany(stores: () => Stores): void {
  describe('insertMany', () => {
    it('inserts every link of a batch but the duplicate, answering in input order', async () => {
      await givenLink(stores(), { slug: 'existing' });
      const batch = [aLink({ slug: 'first' }), aLink({ slug: 'existing' }), aLink({ slug: 'last' })];
      const results = await stores().links.insertMany(batch);
      expect(results.map((r) => (r.ok ? r.value.id : r.error.code))).toEqual([
        batch[0]?.id,
        'slug_taken',
        batch[2]?.id,
      ]);
      expect(await stores().links.findBySlug('sho.rt', 'first')).toStrictEqual(batch[0]);
      expect(await stores().links.findBySlug('sho.rt', 'last')).toStrictEqual(batch[2]);
      expect(await stores().links.findById(batch[1]?.id ?? '')).toBeNull();
    });

    it('refuses the second of two links with the same slug in one batch, not one in another case', async () => {
      const batch = [aLink({ slug: 'twice' }), aLink({ slug: 'twice' }), aLink({ slug: 'Twice' })];
      const results = await stores().links.insertMany(batch);
      expect(results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['ok', 'slug_taken', 'ok']);
      expect(await stores().links.findBySlug('sho.rt', 'twice')).toStrictEqual(batch[0]);
      expect(await stores().links.findBySlug('sho.rt', 'Twice')).toStrictEqual(batch[2]);
    });

    it('answers an empty batch with no results', async () => {
      expect(await stores().links.insertMany([])).toEqual([]);
    });
  });
}

function describeUpdateAndDelete(stores: () => Stores): void {
  describe('update and delete', () => {
    it('changes only the given fields and updatedAt', async () => {
      const link = await givenLink(stores(), { title: 'Old', clicks: 4, lastClickAt: FIXTURE_TIME });
      const changes = {
        title: 'New',
        maxClicks: 9,
        startsAt: FIXTURE_TIME + 60_000,
        disabled: true,
        updatedAt: FIXTURE_TIME + 1,
      };
      const expected = { ...link, ...changes };
      expect(await stores().links.update(link.id, changes)).toStrictEqual(expected);
      expect(await stores().links.findById(link.id)).toStrictEqual(expected);
    });

    it('sets fields to null when the changes say null', async () => {
      const account = await givenAccount(stores());
      const link = await givenLink(stores(), {
        title: 'T',
        passwordHash: 'scrypt$x',
        expiresAt: FIXTURE_TIME + 10,
        startsAt: FIXTURE_TIME + 5,
        maxClicks: 3,
        accountId: account.id,
        editTokenHash: 'f'.repeat(64),
      });
      const changes = {
        title: null,
        passwordHash: null,
        expiresAt: null,
        startsAt: null,
        maxClicks: null,
        accountId: null,
        editTokenHash: null,
        updatedAt: FIXTURE_TIME + 1,
      };
      expect(await stores().links.update(link.id, changes)).toStrictEqual({ ...link, ...changes });
    });

    it('never changes clicks, id, domain or slug', async () => {
      const link = await givenLink(stores(), { slug: 'fixed' });
      await stores().links.tryConsumeClick(link.id, FIXTURE_TIME + 1);
      await stores().links.tryConsumeClick(link.id, FIXTURE_TIME + 2);
      const sneaky = { url: 'https://new.example/', updatedAt: FIXTURE_TIME + 3, clicks: 99, slug: 'moved' };
      const updated = await stores().links.update(link.id, sneaky as LinkChanges);
      const expected = {
        ...link,
        url: 'https://new.example/',
        clicks: 2,
        lastClickAt: FIXTURE_TIME + 2,
        updatedAt: FIXTURE_TIME + 3,
      };
      expect(updated).toStrictEqual(expected);
      expect(await stores().links.findBySlug('sho.rt', 'fixed')).toStrictEqual(expected);
    });

    it('records who changed a link, never changing who made it (decisions §21)', async () => {
      const link = await givenLink(stores(), { createdBy: 'alice' });
      expect(link.createdBy).toBe('alice');
      const sneaky = { updatedBy: 'key:shk_ab12', createdBy: 'mallory', updatedAt: FIXTURE_TIME + 1 };
      const expected = { ...link, updatedBy: 'key:shk_ab12', updatedAt: FIXTURE_TIME + 1 };
      expect(await stores().links.update(link.id, sneaky as LinkChanges)).toStrictEqual(expected);
      expect(await stores().links.findById(link.id)).toStrictEqual(expected);
      const batch = [aLink({ createdBy: 'bob' }), aLink({ createdBy: null })];
      await stores().links.insertMany(batch);
      const found = await Promise.all(batch.map((l) => stores().links.findById(l.id)));
      expect(found.map((l) => l?.createdBy)).toEqual(['bob', null]);
    });

    it('answers null when updating an unknown link', async () => {
      const result = await stores().links.update('00000000-0000-4000-8000-ffffffffffff', {
        title: 'x',
        updatedAt: FIXTURE_TIME,
      });
      expect(result).toBeNull();
    });

    it('deletes a link once, after which it is gone and its slug is free', async () => {
      const link = await givenLink(stores(), { slug: 'gone' });
      expect(await stores().links.delete(link.id)).toBe(true);
      expect(await stores().links.delete(link.id)).toBe(false);
      expect(await stores().links.findById(link.id)).toBeNull();
      expect(await stores().links.findBySlug('sho.rt', 'gone')).toBeNull();
      expect((await stores().links.insert(aLink({ slug: 'gone' }))).ok).toBe(true);
    });
  });
}
