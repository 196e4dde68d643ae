import type { LinkChange, LinkChangeFeed, Stores } from '@shortener/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { aLink, FIXTURE_TIME } from './fixtures.js';
import { givenAccount, givenLink } from './fresh-stores.js';

/** Stores whose feed is watched, and another writer of the same data. */
export interface FeedBackend {
  readonly stores: Stores;
  /** Another connection (process, node) on the same data; the same stores where there is none. */
  readonly other: Stores;
}

/** What a backend's feed can do beyond the contract. */
export interface FeedTraits {
  /** `poll()` delivers another writer's committed changes at once (SQLite). */
  readonly pollable: boolean;
}

/** What a listener heard: each change, null for "forget everything". */
type Heard = (LinkChange | null)[];

const named = ({ id, domain, slug }: LinkChange): LinkChange => ({ id, domain, slug });

/**
 * Registers the LinkChangeFeed contract (`LinkStore.changes`): every store must pass it. `open` gives
 * fresh stores and another writer on the same data before each test; both are closed afterwards.
 */
export function describeLinkChangeFeedContract(
  name: string,
  open: () => Promise<FeedBackend>,
  traits: FeedTraits,
): void {
  describe(`${name}: LinkChangeFeed contract`, () => {
    let backend: FeedBackend | undefined;
    const unsubscribes: (() => void)[] = [];
    const current = () => backend ?? expect.fail('The stores are open only inside a test.');
    const listen = async (): Promise<Heard> => {
      const heard: Heard = [];
      unsubscribes.push(current().stores.links.changes.subscribe((change) => heard.push(change)));
      // markers by the other writer where the feed hears it unasked: then only through the feed itself,
      // once it listens (PostgreSQL's stores also tell their own changes at once, and its LISTEN then
      // says null, which a marker of the watched stores could precede); a pollable feed (SQLite) hears
      // another writer when polled, its own stores at once
      await untilListening(traits.pollable ? current().stores : current().other, heard);
      heard.length = 0;
      return heard;
    };
    beforeEach(async () => {
      backend = await open();
    });
    afterEach(async () => {
      unsubscribes.splice(0).forEach((stop) => stop());
      const { stores, other } = current();
      await stores.close();
      if (other !== stores) await other.close();
      backend = undefined;
    });

    it('names each link inserted, updated, deleted or claimed through the stores', async () => {
      const { stores } = current();
      const account = await givenAccount(stores);
      const [updated, deleted] = [await givenLink(stores), await givenLink(stores)];
      const heard = await listen();
      const inserted = aLink({ slug: 'Fresh' });
      const [batched] = [aLink()];
      const claimed = aLink({ editTokenHash: 'c'.repeat(64) });
      await stores.links.insert(inserted);
      await stores.links.insertMany([batched!, claimed]);
      await stores.links.update(updated.id, { title: 'New', updatedAt: FIXTURE_TIME + 1 });
      await stores.links.delete(deleted.id);
      await stores.links.claim(['c'.repeat(64)], account.id, FIXTURE_TIME + 2);
      const expected = [inserted, batched!, updated, deleted, claimed].map(named);
      await until(() => expected.every((change) => heardOf(heard).some((h) => same(h, change))));
      expect(heardOf(heard)).toEqual(expect.arrayContaining(expected));
    });

    it('names a change made through these stores by the time the write resolves', async () => {
      // the one way caches are emptied (decisions §11, issue 25): a read right after a write through
      // this process must not find the old link in a cache that has not heard yet
      const { stores } = current();
      const account = await givenAccount(stores);
      const [updated, deleted] = [await givenLink(stores), await givenLink(stores)];
      const claimed = await givenLink(stores, { accountId: null, editTokenHash: 'd'.repeat(64) });
      const heard = await listen();
      const inserted = aLink();
      const writes: [() => Promise<unknown>, LinkChange][] = [
        [() => stores.links.insert(inserted), inserted],
        [() => stores.links.update(updated.id, { title: 'Now', updatedAt: FIXTURE_TIME + 1 }), updated],
        [() => stores.links.delete(deleted.id), deleted],
        [() => stores.links.claim(['d'.repeat(64)], account.id, FIXTURE_TIME + 2), claimed],
      ];
      for (const [write, change] of writes) {
        await write();
        expect(heardOf(heard).some((h) => same(h, named(change)))).toBe(true);
      }
    });

    it('tells of a change by another writer of the same data, by name or with null', async () => {
      const { other } = current();
      const link = await givenLink(other);
      const heard = await listen();
      await other.links.update(link.id, { disabled: true, updatedAt: FIXTURE_TIME + 1 });
      await until(() => heard.some((h) => h === null || same(h, named(link))));
    });

    it('tells of a change of the redirect rules or tags by another writer (every node routes by the new ones)', async () => {
      const { other } = current();
      const link = await givenLink(other, { rules: [{ when: { os: ['ios'] }, url: 'https://a.example/' }] });
      const heard = await listen();
      const rules = [{ when: { os: ['ios' as const] }, url: 'https://b.example/' }];
      await other.links.update(link.id, { rules, tags: ['moved'], updatedAt: FIXTURE_TIME + 1 });
      await until(() => heard.some((h) => h === null || same(h, named(link))));
    });

    it('tells of no click, counted one by one or in a flush', async () => {
      const { stores } = current();
      const [uncapped, capped] = [await givenLink(stores), await givenLink(stores, { maxClicks: 5 })];
      const heard = await listen();
      await stores.links.tryConsumeClick(uncapped.id, FIXTURE_TIME + 1);
      await stores.links.tryConsumeClick(capped.id, FIXTURE_TIME + 1, [
        { linkId: capped.id, day: '2026-01-01', dimension: 'total', key: '', count: 1 },
      ]);
      await stores.visits.record({
        clicks: [{ linkId: uncapped.id, count: 3, lastClickAt: FIXTURE_TIME + 2 }],
        counters: [{ linkId: uncapped.id, day: '2026-01-01', dimension: 'total', key: '', count: 3 }],
        visitors: [{ linkId: uncapped.id, day: '2026-01-01', hash: 'h1' }],
      });
      // a change after the clicks: once it arrives, anything the clicks caused would have arrived first
      const marker = await givenLink(stores);
      await until(() => heardOf(heard).some((h) => same(h, named(marker))));
      // the marker alone, though perhaps twice (PostgreSQL names its own change, then its NOTIFY does)
      expect(heard.filter((h) => h === null || !same(h, named(marker)))).toEqual([]);
    });

    it('stops calling a listener once it unsubscribes', async () => {
      const { stores } = current();
      const stopped: Heard = [];
      stores.links.changes.subscribe((change) => stopped.push(change))();
      const heard = await listen();
      const link = await givenLink(stores);
      await until(() => heardOf(heard).some((h) => same(h, named(link))));
      expect(stopped).toEqual([]);
    });

    it.runIf(traits.pollable)("delivers another writer's committed change at once when polled", async () => {
      const { stores, other } = current();
      const feed: LinkChangeFeed = stores.links.changes;
      const link = await givenLink(other);
      const heard = await listen();
      await other.links.delete(link.id);
      feed.poll?.();
      expect(heard.length).toBeGreaterThan(0);
    });
  });
}

/** The named changes heard, nulls left out. */
function heardOf(heard: Heard): LinkChange[] {
  return heard.filter((h): h is LinkChange => h !== null).map(named);
}

function same(a: LinkChange, b: LinkChange): boolean {
  return a.id === b.id && a.domain === b.domain && a.slug === b.slug;
}

/**
 * Waits until the feed delivers: a feed may start listening after `subscribe` returns (PostgreSQL's
 * LISTEN connects first), so marker links are written until one is heard.
 */
async function untilListening(stores: Stores, heard: Heard): Promise<void> {
  const markers: LinkChange[] = [];
  await until(async () => {
    markers.push(named(await givenLink(stores)));
    await sleep(20);
    return heardOf(heard).some((h) => markers.some((m) => same(h, m)));
  });
}

/** Resolves once `check` holds, checking every 10 ms; fails after 2 s (the contract allows 1 s). */
async function until(check: () => boolean | Promise<boolean>, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) expect.fail(`not heard within ${timeoutMs} ms`);
    await sleep(10);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
