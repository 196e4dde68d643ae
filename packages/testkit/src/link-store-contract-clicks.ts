import type { Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { FIXTURE_TIME, dimensionCounts } from './fixtures.js';
import { givenAccount, givenLink } from './fresh-stores.js';

const UNKNOWN_ID = '00000000-0000-4000-8000-ffffffffffff';

/** The click part of the LinkStore contract: counting, and the exact cap under concurrency. */
export function describeLinkClicks(stores: () => Stores): void {
  describe('tryConsumeClick', () => {
    it('counts every click of an uncapped link and records the last click time', async () => {
      const link = await givenLink(stores());
      for (let i = 1; i <= 3; i += 1) {
        expect(await stores().links.tryConsumeClick(link.id, FIXTURE_TIME + i)).toBe(true);
      }
      const after = await stores().links.findById(link.id);
      expect(after).toStrictEqual({ ...link, clicks: 3, lastClickAt: FIXTURE_TIME + 3 });
    });

    it('counts exactly maxClicks of 50 concurrent clicks on a capped link', async () => {
      const link = await givenLink(stores(), { maxClicks: 5 });
      const attempts = Array.from({ length: 50 }, (_, i) =>
        stores().links.tryConsumeClick(link.id, FIXTURE_TIME + i),
      );
      const counted = (await Promise.all(attempts)).filter(Boolean);
      expect(counted).toHaveLength(5);
      expect((await stores().links.findById(link.id))?.clicks).toBe(5);
    });

    it('refuses a click on a used-up link and leaves it unchanged', async () => {
      const link = await givenLink(stores(), { maxClicks: 2, clicks: 2, lastClickAt: FIXTURE_TIME });
      expect(await stores().links.tryConsumeClick(link.id, FIXTURE_TIME + 1)).toBe(false);
      expect(await stores().links.findById(link.id)).toStrictEqual(link);
    });

    it("adds the click's counters in the same step, and none when the click is refused", async () => {
      const link = await givenLink(stores(), { maxClicks: 1 });
      const day = '2026-01-01';
      const counters = [
        { linkId: link.id, day, dimension: 'total', key: '00', count: 1 },
        { linkId: link.id, day, dimension: 'referrer', key: 'a.example', count: 1 },
      ] as const;
      expect(await stores().links.tryConsumeClick(link.id, FIXTURE_TIME, counters)).toBe(true);
      expect(await stores().links.tryConsumeClick(link.id, FIXTURE_TIME + 1, counters)).toBe(false);
      expect((await stores().links.findById(link.id))?.clicks).toBe(1);
      expect(await stores().visits.countsByKey(link.id, day, day)).toEqual(
        expect.arrayContaining(dimensionCounts(['referrer', 'a.example', 1], ['total', '00', 1])),
      );
    });

    it('refuses a click on an unknown link', async () => {
      expect(await stores().links.tryConsumeClick(UNKNOWN_ID, FIXTURE_TIME)).toBe(false);
    });
  });

  describe('findForRedirect', () => {
    it('finds what findBySlug finds, with every recorded click of a capped link (folded or not)', async () => {
      const link = await givenLink(stores(), { clicks: 2, lastClickAt: FIXTURE_TIME });
      const recorded = [{ linkId: link.id, count: 3, lastClickAt: FIXTURE_TIME + 5 }];
      await stores().visits.record({ clicks: recorded, counters: [], visitors: [] });
      // an uncapped link: everything but the clicks as findBySlug has it (they may lag the log)
      const uncapped = await stores().links.findForRedirect(link.domain, link.slug.toUpperCase());
      expect({ ...uncapped, clicks: 0, lastClickAt: 0 }).toStrictEqual({
        ...link,
        clicks: 0,
        lastClickAt: 0,
      });
      expect(uncapped?.clicks).toBeGreaterThanOrEqual(2);
      // capped after its visits were recorded: the cap decides on all five clicks
      await stores().links.update(link.id, { maxClicks: 5, updatedAt: FIXTURE_TIME + 9 });
      const capped = await stores().links.findForRedirect(link.domain.toUpperCase(), link.slug);
      expect(capped?.clicks).toBe(5);
      expect(capped).toStrictEqual(await stores().links.findBySlug(link.domain, link.slug));
      expect(await stores().links.findForRedirect(link.domain, 'unknown')).toBeNull();
    });

    it('reads every field of a link that sets them all, as findBySlug does', async () => {
      const link = await givenLink(stores(), {
        title: 'Spring sale',
        passwordHash: 'scrypt$hash',
        publicStats: false,
        expiresAt: FIXTURE_TIME + 86_400_000,
        startsAt: FIXTURE_TIME + 60_000,
        editTokenHash: 'token-hash',
        tags: ['spring', 'sale'],
        rules: [{ when: { device: ['mobile'] }, url: 'https://example.com/app' }],
        forwardQuery: true,
        redirectStatus: 307,
        crawlable: true,
        expiredUrl: 'https://example.com/over',
        createdBy: 'alice',
        updatedBy: 'bob',
        preview: { title: 'Card', description: 'On a card', image: 'https://example.com/card.png' },
        split: [
          { url: 'https://example.com/a', weight: 70 },
          { url: 'https://example.com/b', weight: 30 },
        ],
      });
      const found = await stores().links.findForRedirect(link.domain, link.slug);
      expect(found).toStrictEqual(await stores().links.findBySlug(link.domain, link.slug));
      expect(found).toStrictEqual(link);
    });
  });
}

/** The claim part of the LinkStore contract: anonymous links move to an account by edit-token hash. */
export function describeLinkClaims(stores: () => Stores): void {
  describe('claim', () => {
    it('attaches only the anonymous links whose edit-token hash is listed', async () => {
      const account = await givenAccount(stores());
      const owner = await givenAccount(stores());
      const first = await givenLink(stores(), { editTokenHash: hash('1') });
      const second = await givenLink(stores(), { editTokenHash: hash('2') });
      const unlisted = await givenLink(stores(), { editTokenHash: hash('3') });
      const owned = await givenLink(stores(), { editTokenHash: hash('4'), accountId: owner.id });
      const listed = [hash('1'), hash('2'), hash('4'), hash('9')];
      expect(await stores().links.claim(listed, account.id, FIXTURE_TIME + 7)).toBe(2);
      for (const link of [first, second]) {
        expect(await stores().links.findById(link.id)).toStrictEqual({
          ...link,
          accountId: account.id,
          editTokenHash: null,
          updatedAt: FIXTURE_TIME + 7,
        });
      }
      expect(await stores().links.findById(unlisted.id)).toStrictEqual(unlisted);
      expect(await stores().links.findById(owned.id)).toStrictEqual(owned);
    });

    it('skips links claimed already', async () => {
      const account = await givenAccount(stores());
      const other = await givenAccount(stores());
      await givenLink(stores(), { editTokenHash: hash('1') });
      expect(await stores().links.claim([hash('1')], account.id, FIXTURE_TIME + 1)).toBe(1);
      expect(await stores().links.claim([hash('1')], other.id, FIXTURE_TIME + 2)).toBe(0);
      expect(await stores().links.list({ accountId: other.id, limit: 50 })).toEqual([]);
    });

    it('claims nothing for an empty list of hashes', async () => {
      const account = await givenAccount(stores());
      await givenLink(stores(), { editTokenHash: hash('1') });
      expect(await stores().links.claim([], account.id, FIXTURE_TIME)).toBe(0);
    });
  });
}

/** A SHA-256-hex-shaped edit-token hash. */
function hash(digit: string): string {
  return digit.repeat(64);
}
