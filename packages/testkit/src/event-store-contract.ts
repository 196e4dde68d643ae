import type { PendingDelivery, Stores, VisitBatch, Webhook } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { aLink, FIXTURE_TIME } from './fixtures.js';
import { givenAccount, givenLink, useFreshStores } from './fresh-stores.js';

const T = FIXTURE_TIME;
/** No cap a test meets, unless it is about the caps. */
const UNCAPPED = { healthy: 1000, failing: 1000 };

/** A webhook of `accountId` wanting every event, unless `overrides` say otherwise. */
export function aWebhook(accountId: string, overrides: Partial<Webhook> = {}): Webhook {
  return {
    id: `wh-${Math.random().toString(36).slice(2)}`,
    accountId,
    url: 'https://hooks.example/in',
    events: ['link.created', 'link.updated', 'link.deleted', 'link.visited'],
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    createdAt: T,
    failingSince: null,
    disabledAt: null,
    ...overrides,
  };
}

/** Later than any window's opening: closes every open `link.visited` window. */
const EVERY_WINDOW = Number.MAX_SAFE_INTEGER;

/** Closes every visit window, moves the outbox into deliveries and claims every due one. */
async function deliveriesOf(stores: Stores, broker = false): Promise<PendingDelivery[]> {
  await stores.events.closeVisitWindows(EVERY_WINDOW, 1000);
  await stores.events.fanOut(T, broker, 1000);
  return stores.events.claimDue(T, T + 60_000, 1000, UNCAPPED);
}

/** Writes one human visit of a link, today. */
async function recordVisit(stores: Stores, linkId: string): Promise<void> {
  await stores.visits.record({
    clicks: [{ linkId, count: 1, lastClickAt: T }],
    counters: [{ linkId, day: '2026-01-02', dimension: 'total', key: '', count: 1 }],
    visitors: [],
  });
}

/**
 * Registers the EventStore contract (decisions §16): link changes and visit batches leave their events
 * in the outbox (in their own transaction, which only a store's own tests can break) when the broker or
 * a webhook of the account takes them, fan-out follows the webhooks' accounts and types, and a claimed
 * delivery is held from other claimers.
 */
export function describeEventStoreContract(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: EventStore contract`, () => {
    const stores = useFreshStores(open);

    it('adds link.created, link.updated and link.deleted with the link as it was', async () => {
      const account = await givenAccount(stores());
      await stores().events.createWebhook(aWebhook(account.id));
      const link = await givenLink(stores(), { accountId: account.id, title: 'first', tags: ['sale'] });
      await stores().links.update(link.id, { title: 'second', updatedAt: T + 1 });
      await stores().links.delete(link.id);
      const events = (await deliveriesOf(stores())).map((d) => d.event);
      expect(events.map((e) => e.type)).toEqual(['link.created', 'link.updated', 'link.deleted']);
      expect(events.map((e) => e.link?.title)).toEqual(['first', 'second', 'second']);
      expect(events[0]?.link).toEqual(link); // every field of the record, as stored
      expect(new Set(events.map((e) => e.id)).size).toBe(3);
    });

    it('adds a written batch to one link.visited per link, with counts only', async () => {
      const account = await givenAccount(stores());
      await stores().events.createWebhook(aWebhook(account.id, { events: ['link.visited'] }));
      const link = await givenLink(stores(), { accountId: account.id });
      const day = '2026-01-02';
      await stores().visits.record({
        clicks: [{ linkId: link.id, count: 2, lastClickAt: T }],
        counters: [
          { linkId: link.id, day, dimension: 'total', key: '', count: 2 },
          { linkId: link.id, day, dimension: 'bots', key: '', count: 1 },
          { linkId: link.id, day, dimension: 'country', key: 'DE', count: 2 },
          { linkId: link.id, day, dimension: 'browser', key: 'Firefox', count: 2 },
        ],
        visitors: [{ linkId: link.id, day, hash: 'secret-visitor-hash' }],
      });
      const [delivery, ...rest] = await deliveriesOf(stores());
      expect(rest).toEqual([]);
      expect(delivery?.event.type).toBe('link.visited');
      expect(delivery?.event.visits).toMatchObject({
        link_id: link.id,
        domain: link.domain,
        slug: link.slug,
        visits: 3,
        humans: 2,
        bots: 1,
        unique: 1,
        countries: { DE: 2 },
        browsers: { Firefox: 2 },
        from: day,
        to: day,
      });
      expect(JSON.stringify(delivery?.event)).not.toContain('secret-visitor-hash');
    });

    it('sums the batches of a window into one link.visited, and opens a new window after it closed', async () => {
      const account = await givenAccount(stores());
      await stores().events.createWebhook(aWebhook(account.id, { events: ['link.visited'] }));
      const link = await givenLink(stores(), { accountId: account.id });
      const other = await givenLink(stores(), { accountId: account.id });
      const batch = (day: string, country: string, count: number, linkId = link.id): VisitBatch => ({
        clicks: [{ linkId, count, lastClickAt: T }],
        counters: [
          { linkId, day, dimension: 'total', key: '', count },
          { linkId, day, dimension: 'country', key: country, count },
        ],
        visitors: [{ linkId, day, hash: `h-${day}-${country}` }],
      });
      await stores().visits.record(batch('2026-01-02', 'DE', 2));
      await stores().visits.record(batch('2026-01-03', 'FR', 3));
      await stores().visits.record(batch('2026-01-03', 'DE', 1, other.id));
      expect(await stores().events.backlog()).toEqual({ events: 0, deliveries: 0, windows: 2 });
      // a window still open stays: nothing is written before it is over
      expect(await stores().events.closeVisitWindows(Date.now() - 60_000, 1000)).toBe(0);
      const first = await deliveriesOf(stores());
      expect(first.map((d) => d.event.visits?.link_id).sort()).toEqual([link.id, other.id].sort());
      expect(first.find((d) => d.event.visits?.link_id === link.id)?.event.visits).toMatchObject({
        visits: 5,
        humans: 5,
        unique: 2,
        countries: { DE: 2, FR: 3 },
        from: '2026-01-02',
        to: '2026-01-03',
      });
      await stores().visits.record(batch('2026-01-04', 'IT', 4));
      const [next, ...rest] = await deliveriesOf(stores());
      expect(rest).toEqual([]);
      expect(next?.event.visits).toMatchObject({ visits: 4, countries: { IT: 4 }, from: '2026-01-04' });
      expect(next?.event.id).not.toBe(first[0]?.event.id);
    });

    it("closes the oldest windows first, up to the limit, and a deleted link's with no event", async () => {
      const account = await givenAccount(stores());
      await stores().events.createWebhook(aWebhook(account.id, { events: ['link.visited'] }));
      const links = [];
      for (let i = 0; i < 3; i++) {
        const link = await givenLink(stores(), { accountId: account.id });
        await recordVisit(stores(), link.id);
        links.push(link);
      }
      await stores().links.delete(links[0]!.id);
      expect(await stores().events.closeVisitWindows(EVERY_WINDOW, 2)).toBe(2);
      expect(await stores().events.closeVisitWindows(EVERY_WINDOW, 2)).toBe(1);
      expect(await stores().events.closeVisitWindows(EVERY_WINDOW, 2)).toBe(0);
      const visited = (await deliveriesOf(stores())).filter((d) => d.event.type === 'link.visited');
      expect(visited.map((d) => d.event.visits?.link_id).sort()).toEqual([links[1]!.id, links[2]!.id].sort());
    });

    it("counts each webhook's waiting deliveries in its listing", async () => {
      const account = await givenAccount(stores());
      const busy = aWebhook(account.id, { events: ['link.created'] });
      const quiet = aWebhook(account.id, { events: ['link.deleted'], createdAt: T + 1 });
      await stores().events.createWebhook(busy);
      await stores().events.createWebhook(quiet);
      for (let i = 0; i < 3; i++) await givenLink(stores(), { accountId: account.id });
      await stores().events.fanOut(T, false, 1000);
      const listed = await stores().events.listWebhooks(account.id);
      expect(listed.map((w) => [w.id, w.pending])).toEqual([
        [busy.id, 3],
        [quiet.id, 0],
      ]);
    });

    it('adds link.visited for a click of a capped link, counted with its statistics', async () => {
      const account = await givenAccount(stores());
      await stores().events.createWebhook(aWebhook(account.id, { events: ['link.visited'] }));
      const link = await givenLink(stores(), { accountId: account.id, maxClicks: 5 });
      const day = '2026-01-02';
      const counted = await stores().links.tryConsumeClick(link.id, T, [
        { linkId: link.id, day, dimension: 'total', key: '', count: 1 },
        { linkId: link.id, day, dimension: 'device', key: 'mobile', count: 1 },
      ]);
      expect(counted).toBe(true);
      const [delivery, ...rest] = await deliveriesOf(stores());
      expect(rest).toEqual([]);
      expect(delivery?.event.visits).toMatchObject({
        link_id: link.id,
        humans: 1,
        visits: 1,
        devices: { mobile: 1 },
      });
    });

    it("fans out to the event's account's enabled webhooks that want its type, and to the broker", async () => {
      const a = await givenAccount(stores(), { name: 'a' });
      const b = await givenAccount(stores(), { name: 'b' });
      const mine = aWebhook(a.id, { events: ['link.created'] });
      await stores().events.createWebhook(mine);
      await stores().events.createWebhook(aWebhook(a.id, { events: ['link.deleted'] }));
      await stores().events.createWebhook(aWebhook(b.id));
      await stores().events.setBroker(true);
      await givenLink(stores(), { accountId: a.id });
      await stores().links.insert(aLink({ accountId: null }));
      const deliveries = await deliveriesOf(stores(), true);
      const toWebhooks = deliveries.filter((d) => d.webhook !== null);
      expect(toWebhooks.map((d) => d.webhook?.id)).toEqual([mine.id]);
      expect(deliveries.filter((d) => d.webhook === null)).toHaveLength(2);
      expect(await stores().events.backlog()).toEqual({ events: 0, deliveries: 3, windows: 0 });
    });

    it('writes no event that no one takes: no broker, and no webhook of the account wanting its type', async () => {
      const account = await givenAccount(stores());
      await stores().events.createWebhook(aWebhook(account.id, { events: ['link.deleted'] }));
      const other = await givenAccount(stores(), { name: 'other' });
      await stores().events.createWebhook(aWebhook(other.id));
      const link = await givenLink(stores(), { accountId: account.id });
      await stores().links.update(link.id, { title: 'changed', updatedAt: T + 1 });
      await stores().links.insert(aLink({ accountId: null }));
      await recordVisit(stores(), link.id);
      expect(await stores().events.backlog()).toEqual({ events: 0, deliveries: 0, windows: 0 });
      await stores().links.delete(link.id);
      expect(await stores().events.backlog()).toEqual({ events: 1, deliveries: 0, windows: 0 });
    });

    it('writes the events of changes made after a webhook was added, not those before', async () => {
      const account = await givenAccount(stores());
      const before = await givenLink(stores(), { accountId: account.id });
      await recordVisit(stores(), before.id);
      await stores().events.createWebhook(aWebhook(account.id));
      const after = await givenLink(stores(), { accountId: account.id });
      await recordVisit(stores(), before.id);
      const events = (await deliveriesOf(stores())).map((d) => d.event);
      expect(events.map((e) => [e.type, e.link?.id ?? e.visits?.link_id])).toEqual([
        ['link.created', after.id],
        ['link.visited', before.id],
      ]);
    });

    it('writes every event of every account while a broker takes them, and stops when it does not', async () => {
      const account = await givenAccount(stores());
      await stores().events.setBroker(true);
      const link = await givenLink(stores(), { accountId: account.id });
      await stores().links.insert(aLink({ accountId: null }));
      await recordVisit(stores(), link.id);
      const events = (await deliveriesOf(stores(), true)).map((d) => d.event);
      expect(events.map((e) => [e.type, e.accountId])).toEqual([
        ['link.created', account.id],
        ['link.created', null],
        ['link.visited', account.id],
      ]);
      await stores().events.setBroker(false);
      await stores().links.delete(link.id);
      expect(await stores().events.backlog()).toMatchObject({ events: 0 });
    });

    it('holds a claimed delivery from other claimers until it is settled or its hold ends', async () => {
      const account = await givenAccount(stores());
      await stores().events.createWebhook(aWebhook(account.id));
      await givenLink(stores(), { accountId: account.id });
      const [first] = await deliveriesOf(stores());
      expect(await stores().events.claimDue(T, T + 60_000, 10, UNCAPPED)).toEqual([]);
      expect(await stores().events.claimDue(T + 60_000, T + 120_000, 10, UNCAPPED)).toHaveLength(1);
      await stores().events.settle(first!.id, T + 200_000);
      expect(await stores().events.claimDue(T + 199_999, T + 300_000, 10, UNCAPPED)).toEqual([]);
      const [again] = await stores().events.claimDue(T + 200_000, T + 300_000, 10, UNCAPPED);
      expect(again).toMatchObject({ id: first!.id, attempts: 1 });
      await stores().events.settle(first!.id, null);
      expect(await stores().events.backlog()).toEqual({ events: 0, deliveries: 0, windows: 0 });
    });

    it("caps a webhook's held deliveries, those held already included, and lets the rest through", async () => {
      const account = await givenAccount(stores());
      const slow = aWebhook(account.id, { events: ['link.created'] });
      await stores().events.createWebhook(slow);
      await stores().events.setBroker(true);
      for (let i = 0; i < 5; i++) await givenLink(stores(), { accountId: account.id });
      await stores().events.fanOut(T, true, 1000);
      const healthy = aWebhook(account.id, { events: ['link.created'] });
      await stores().events.createWebhook(healthy);
      await givenLink(stores(), { accountId: account.id });
      await stores().events.fanOut(T, true, 1000);
      const cap = { healthy: 2, failing: 1 };
      const claim = (at: number) => stores().events.claimDue(at, at + 60_000, 1000, cap);
      const first = await claim(T);
      const count = (id: string | null) => first.filter((d) => (d.webhook?.id ?? null) === id).length;
      expect([count(slow.id), count(healthy.id), count(null)]).toEqual([2, 1, 6]);
      expect(await claim(T + 1)).toEqual([]); // the slow one holds its 2
      for (const d of first) if (d.webhook?.id !== slow.id) await stores().events.settle(d.id, null);
      const failing = { failingSince: T, disabledAt: null };
      const attempt = { at: T, eventId: 'e', eventType: 'link.created' as const, attempt: 1 };
      await stores().events.recordAttempt(
        slow.id,
        { ...attempt, ok: false, status: null, excerpt: '' },
        failing,
      );
      // its holds ended: failing, it gets one at a time
      expect((await claim(T + 60_000)).map((d) => d.webhook?.id)).toEqual([slow.id]);
      expect(await claim(T + 60_001)).toEqual([]);
    });

    it("fans out nothing to a disabled account's webhooks and drops what was due to them", async () => {
      const account = await givenAccount(stores());
      await stores().events.createWebhook(aWebhook(account.id));
      await givenLink(stores(), { accountId: account.id });
      await stores().events.fanOut(T, false, 1000);
      await givenLink(stores(), { accountId: account.id });
      await stores().accounts.updateAccount(account.id, { disabledAt: T });
      expect(await deliveriesOf(stores())).toEqual([]);
      expect(await stores().events.backlog()).toEqual({ events: 0, deliveries: 0, windows: 0 });
      await stores().accounts.updateAccount(account.id, { disabledAt: null });
      const after = await givenLink(stores(), { accountId: account.id });
      expect((await deliveriesOf(stores())).map((d) => d.event.link?.id)).toEqual([after.id]);
    });

    it('records nothing and settles quietly for a webhook removed while its delivery was under way', async () => {
      const account = await givenAccount(stores());
      const webhook = aWebhook(account.id);
      await stores().events.createWebhook(webhook);
      await givenLink(stores(), { accountId: account.id });
      const [delivery] = await deliveriesOf(stores());
      expect(await stores().events.deleteWebhook(webhook.id)).toBe(true);
      const attempt = { at: T, eventId: 'e', eventType: 'link.created' as const, attempt: 1 };
      const health = { failingSince: null, disabledAt: null };
      await stores().events.recordAttempt(
        webhook.id,
        { ...attempt, ok: true, status: 200, excerpt: '' },
        health,
      );
      await stores().events.settle(delivery!.id, T + 5_000);
      await stores().events.settle(delivery!.id, null);
      expect(await stores().events.backlog()).toEqual({ events: 0, deliveries: 0, windows: 0 });
    });

    it('keeps the last 20 attempts of a webhook, its health, and sends nothing more once it is disabled', async () => {
      const account = await givenAccount(stores());
      const webhook = aWebhook(account.id);
      await stores().events.createWebhook(webhook);
      await givenLink(stores(), { accountId: account.id });
      await stores().events.fanOut(T, false, 1000); // due when it is disabled: dropped, never claimed
      for (let i = 1; i <= 25; i++) {
        const attempt = { at: T + i, eventId: `e${i}`, eventType: 'link.created' as const, attempt: 1 };
        const health = { failingSince: T, disabledAt: i === 25 ? T + i : null };
        await stores().events.recordAttempt(
          webhook.id,
          { ...attempt, ok: false, status: 500, excerpt: 'no' },
          health,
        );
      }
      const [listed] = await stores().events.listWebhooks(account.id);
      expect(listed?.attempts.map((a) => a.eventId)).toEqual(
        Array.from({ length: 20 }, (_, i) => `e${25 - i}`),
      );
      expect(listed).toMatchObject({ failingSince: T, disabledAt: T + 25 });
      await givenLink(stores(), { accountId: account.id });
      expect(await deliveriesOf(stores())).toEqual([]);
      expect(await stores().events.backlog()).toEqual({ events: 0, deliveries: 0, windows: 0 });
      expect(await stores().events.deleteWebhook(webhook.id)).toBe(true);
      expect(await stores().events.findWebhook(webhook.id)).toBeNull();
      expect(await stores().events.listWebhooks(null)).toEqual([]);
    });
  });
}
