import type { LinkRecord, Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { FIXTURE_TIME } from './fixtures.js';
import { givenAccount, givenLink } from './fresh-stores.js';

const ids = (links: readonly LinkRecord[]): string[] => links.map((link) => link.id);

/** The listing part of the LinkStore contract: ownership, order, limit, cursor and search. */
export function describeLinkListing(stores: () => Stores): void {
  describe('list', () => {
    it("lists only the account's links, newest first", async () => {
      const { id: accountId } = await givenAccount(stores());
      const other = await givenAccount(stores());
      const oldest = await givenLink(stores(), { accountId, createdAt: FIXTURE_TIME });
      const newest = await givenLink(stores(), { accountId, createdAt: FIXTURE_TIME + 2 });
      const middle = await givenLink(stores(), { accountId, createdAt: FIXTURE_TIME + 1 });
      await givenLink(stores(), { accountId: other.id, createdAt: FIXTURE_TIME + 3 });
      await givenLink(stores(), { createdAt: FIXTURE_TIME + 4 });
      const listed = await stores().links.list({ accountId, limit: 50 });
      expect(listed).toStrictEqual([newest, middle, oldest]);
    });

    it('orders links created at the same time by id, descending', async () => {
      const { id: accountId } = await givenAccount(stores());
      const first = await givenLink(stores(), { accountId, id: '00000000-0000-4000-8000-00000000000a' });
      const second = await givenLink(stores(), { accountId, id: '00000000-0000-4000-8000-00000000000c' });
      const third = await givenLink(stores(), { accountId, id: '00000000-0000-4000-8000-00000000000b' });
      const listed = await stores().links.list({ accountId, limit: 50 });
      expect(ids(listed)).toEqual([second.id, third.id, first.id]);
    });

    it('returns at most limit links', async () => {
      const { id: accountId } = await givenAccount(stores());
      for (let i = 0; i < 4; i += 1) await givenLink(stores(), { accountId, createdAt: FIXTURE_TIME + i });
      const listed = await stores().links.list({ accountId, limit: 2 });
      expect(listed.map((link) => link.createdAt)).toEqual([FIXTURE_TIME + 3, FIXTURE_TIME + 2]);
    });

    it('pages through seven links three at a time, returning each exactly once', async () => {
      const { id: accountId } = await givenAccount(stores());
      const offsets = [0, 0, 1, 1, 1, 2, 3];
      for (const offset of offsets)
        await givenLink(stores(), { accountId, createdAt: FIXTURE_TIME + offset });
      const all = await stores().links.list({ accountId, limit: 50 });
      const pages = await collectPages(stores(), accountId, 3);
      expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
      expect(ids(pages.flat())).toEqual(ids(all));
      expect(new Set(ids(all)).size).toBe(7);
    });

    it('finds links whose slug, title or url contains q in any case', async () => {
      const { id: accountId } = await givenAccount(stores());
      const bySlug = await givenLink(stores(), { accountId, slug: 'summer-sale' });
      const byTitle = await givenLink(stores(), { accountId, title: 'Winter Catalogue' });
      const byUrl = await givenLink(stores(), { accountId, url: 'https://shop.example/Autumn' });
      const search = (q: string): Promise<LinkRecord[]> => stores().links.list({ accountId, limit: 50, q });
      expect(ids(await search('SUMMER'))).toEqual([bySlug.id]);
      expect(ids(await search('catalogue'))).toEqual([byTitle.id]);
      expect(ids(await search('autumn'))).toEqual([byUrl.id]);
      expect(await search('spring')).toEqual([]);
    });

    it('matches q literally, so wildcard characters match only themselves', async () => {
      const { id: accountId } = await givenAccount(stores());
      const underscore = await givenLink(stores(), { accountId, slug: 'a_b' });
      await givenLink(stores(), { accountId, slug: 'axb' });
      expect(ids(await stores().links.list({ accountId, limit: 50, q: '_' }))).toEqual([underscore.id]);
      expect(await stores().links.list({ accountId, limit: 50, q: '%' })).toEqual([]);
    });
  });

  describe('listAll', () => {
    it('lists every link, anonymous and of any account, newest first, with cursor and q', async () => {
      const listAll = stores().links.listAll?.bind(stores().links);
      expect(listAll).toBeDefined();
      if (listAll === undefined) return;
      const before = await listAll({ limit: 1000 });
      const { id: accountId } = await givenAccount(stores());
      const later = FIXTURE_TIME + 1_000_000;
      const anonymous = await givenLink(stores(), { createdAt: later, title: 'needle' });
      const owned = await givenLink(stores(), { accountId, createdAt: later + 1 });
      const page = await listAll({ limit: 2 });
      expect(ids(page)).toEqual([owned.id, anonymous.id]);
      const rest = await listAll({
        limit: 1000,
        after: { createdAt: anonymous.createdAt, id: anonymous.id },
      });
      expect(ids(rest)).toEqual(ids(before));
      expect(ids(await listAll({ limit: 50, q: 'needle' }))).toEqual([anonymous.id]);
    });
  });
}

/** Follows the cursor (the last link of each page) until a page comes back short. */
async function collectPages(stores: Stores, accountId: string, limit: number): Promise<LinkRecord[][]> {
  const pages: LinkRecord[][] = [];
  let page = await stores.links.list({ accountId, limit });
  pages.push(page);
  while (page.length === limit && pages.length < 10) {
    const last = page.at(-1);
    if (last === undefined) break;
    page = await stores.links.list({ accountId, limit, after: { createdAt: last.createdAt, id: last.id } });
    if (page.length > 0) pages.push(page);
  }
  return pages;
}
