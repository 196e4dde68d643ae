import type { LinkRecord, RedirectRule, Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { FIXTURE_TIME, aLink } from './fixtures.js';
import { givenAccount, givenLink } from './fresh-stores.js';

const ids = (links: readonly LinkRecord[]): string[] => links.map((link) => link.id);

const RULES: readonly RedirectRule[] = [
  { when: { device: ['mobile'], os: ['ios'] }, url: 'https://apps.example/ios' },
  { when: { language: ['de'], country: ['AT', 'DE'] }, url: 'https://example.de/' },
  {
    when: { query: { ref: 'mail' }, after: FIXTURE_TIME, before: FIXTURE_TIME + 86_400_000 },
    url: 'https://example.com/mail?utm_source=x',
  },
];

/** The part of the LinkStore contract for decisions §15: tags, rules and the redirect settings. */
export function describeLinkOrganising(stores: () => Stores): void {
  describe('tags, rules and redirect settings', () => {
    it('keeps tags, rules (in order), forwarding, status and crawlability as inserted', async () => {
      const link = await givenLink(stores(), {
        tags: ['summer', 'print'],
        rules: RULES,
        forwardQuery: true,
        redirectStatus: 307,
        crawlable: true,
      });
      expect(await stores().links.findById(link.id)).toStrictEqual(link);
      expect(await stores().links.findBySlug(link.domain, link.slug)).toStrictEqual(link);
    });

    it('answers no tags, no rules and the defaults for a plain link', async () => {
      const link = await givenLink(stores());
      const found = await stores().links.findById(link.id);
      expect(found).toMatchObject({
        tags: [],
        rules: [],
        forwardQuery: false,
        redirectStatus: null,
        crawlable: false,
        split: null,
      });
    });

    it('replaces tags and rules on update, and removes them with empty lists', async () => {
      const link = await givenLink(stores(), { tags: ['a'], rules: RULES.slice(0, 1) });
      const changes = {
        tags: ['b', 'c'],
        rules: RULES.slice(1),
        crawlable: true,
        updatedAt: FIXTURE_TIME + 1,
      };
      expect(await stores().links.update(link.id, changes)).toStrictEqual({ ...link, ...changes });
      const cleared = { tags: [], rules: [], redirectStatus: null, updatedAt: FIXTURE_TIME + 2 };
      expect(await stores().links.update(link.id, cleared)).toStrictEqual({
        ...link,
        ...changes,
        ...cleared,
      });
      expect(await stores().links.findById(link.id)).toStrictEqual({ ...link, ...changes, ...cleared });
    });

    it('keeps a split test as inserted, replaces it on update and removes it with null', async () => {
      const split = [
        { url: 'https://example.com/a', weight: 70 },
        { url: 'https://example.com/b?utm_source=x', weight: 30 },
      ];
      const link = await givenLink(stores(), { split });
      expect(await stores().links.findBySlug(link.domain, link.slug)).toStrictEqual(link);
      const changed = { split: [...split].reverse(), updatedAt: FIXTURE_TIME + 1 };
      expect(await stores().links.update(link.id, changed)).toStrictEqual({ ...link, ...changed });
      const kept = await stores().links.update(link.id, { title: 'T', updatedAt: FIXTURE_TIME + 2 });
      expect(kept?.split).toStrictEqual(changed.split);
      await stores().links.update(link.id, { split: null, updatedAt: FIXTURE_TIME + 3 });
      expect((await stores().links.findById(link.id))?.split).toBeNull();
    });

    it('keeps the tags when an update does not name them', async () => {
      const link = await givenLink(stores(), { tags: ['keep'], rules: RULES });
      const updated = await stores().links.update(link.id, { title: 'T', updatedAt: FIXTURE_TIME + 1 });
      expect(updated).toMatchObject({ tags: ['keep'], rules: RULES });
    });

    it('lists the links carrying every tag asked for', async () => {
      const { id: accountId } = await givenAccount(stores());
      const both = await givenLink(stores(), { accountId, tags: ['a', 'b'], createdAt: FIXTURE_TIME + 2 });
      const onlyA = await givenLink(stores(), { accountId, tags: ['a'], createdAt: FIXTURE_TIME + 1 });
      await givenLink(stores(), { accountId, tags: ['b', 'c'] });
      await givenLink(stores(), { tags: ['a', 'b'] }); // another owner
      const list = (tags: string[]) => stores().links.list({ accountId, limit: 50, tags });
      expect(ids(await list(['a', 'b']))).toEqual([both.id]);
      expect(ids(await list(['a']))).toEqual([both.id, onlyA.id]);
      expect(await list(['d'])).toEqual([]);
      const all = await stores().links.listAll?.({ limit: 50, tags: ['a', 'b'] });
      if (all !== undefined) expect(all).toHaveLength(2);
    });

    it('keeps tags as spelled and finds them by key, after an update and a batch insert too (§25)', async () => {
      const { id: accountId } = await givenAccount(stores());
      const menu = await givenLink(stores(), {
        accountId,
        tags: ['Café Menu', '東京'],
        createdAt: FIXTURE_TIME + 2,
      });
      const sale = await givenLink(stores(), { accountId, tags: ['x'], createdAt: FIXTURE_TIME + 1 });
      expect((await stores().links.findById(menu.id))?.tags).toEqual(['Café Menu', '東京']);
      await stores().links.update(sale.id, {
        tags: ['Spring Sale', 'CAFÉ MENU'],
        updatedAt: FIXTURE_TIME + 3,
      });
      const [batch] = await stores().links.insertMany([
        aLink({ id: 'tagged-in-a-batch', slug: 'tagged-in-a-batch', accountId, tags: ['spring sale'] }),
      ]);
      expect(batch?.ok).toBe(true);
      const list = (tags: string[]) => stores().links.list({ accountId, limit: 50, tags });
      expect(ids(await list(['café menu']))).toEqual([menu.id, sale.id]);
      expect(ids(await list(['spring sale']))).toEqual([sale.id, 'tagged-in-a-batch']);
      expect(ids(await list(['東京', 'café menu']))).toEqual([menu.id]);
      expect(await list(['x'])).toEqual([]);
    });

    it('counts each tag once by key, named by its least spelling (§25)', async () => {
      const { id: accountId } = await givenAccount(stores());
      await givenLink(stores(), { accountId, tags: ['café menu'], clicks: 1 });
      await givenLink(stores(), { accountId, tags: ['Café Menu', '東京'], clicks: 2 });
      expect(await stores().links.tagCounts(accountId)).toEqual([
        { name: 'Café Menu', links: 2, clicks: 3 },
        { name: '東京', links: 1, clicks: 2 },
      ]);
    });

    it('lists the slugs of the crawlable links of one domain', async () => {
      await givenLink(stores(), { slug: 'open-b', crawlable: true });
      await givenLink(stores(), { slug: 'open-a', crawlable: true });
      await givenLink(stores(), { slug: 'hidden' });
      await givenLink(stores(), { slug: 'elsewhere', domain: 'other.rt', crawlable: true });
      expect(await stores().links.crawlableSlugs('sho.rt')).toEqual(['open-a', 'open-b']);
    });

    it("counts the links and clicks of each tag of an account's links, by name", async () => {
      const { id: accountId } = await givenAccount(stores());
      const other = await givenAccount(stores());
      await givenLink(stores(), { accountId, tags: ['b', 'a'], clicks: 3 });
      await givenLink(stores(), { accountId, tags: ['a'], clicks: 4 });
      await givenLink(stores(), { accountId });
      await givenLink(stores(), { accountId: other.id, tags: ['a'], clicks: 100 });
      expect(await stores().links.tagCounts(accountId)).toEqual([
        { name: 'a', links: 2, clicks: 7 },
        { name: 'b', links: 1, clicks: 3 },
      ]);
      expect(await stores().links.tagCounts(other.id)).toEqual([{ name: 'a', links: 1, clicks: 100 }]);
    });
  });
}
