import { SENDS_PER_WEBHOOK } from '@shortener/core';
import {
  aLink,
  anAccount,
  aWebhook,
  describeEventStoreContract,
  FIXTURE_TIME,
  anInsertedLink,
} from '@shortener/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStores } from '../src/index.js';
import type { SqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

describeEventStoreContract('SQLite', async () => openSqliteStores(':memory:'));

const nextPath = useTempDbPaths();
const opened: SqliteStores[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((stores) => stores.close()));
});

describe('SQLite outbox', () => {
  it('writes no event for a link whose insert failed', async () => {
    const stores = openSqliteStores(':memory:');
    opened.push(stores);
    await stores.events.setBroker(true); // so anonymous links have their events
    const link = await anInsertedLink(stores.links);
    const [dup, fresh] = await stores.links.insertMany([aLink({ slug: link.slug }), aLink()]);
    expect(dup?.ok).toBe(false);
    expect(fresh?.ok).toBe(true);
    expect(await stores.events.backlog()).toEqual({ events: 2, deliveries: 0, windows: 0 });
  });

  it('sums link.visited in the flush of the background writer, on its own connection', async () => {
    const stores = openSqliteStores(nextPath(), { backgroundWrites: true });
    opened.push(stores);
    const account = anAccount();
    await stores.accounts.createAccount(account);
    await stores.events.createWebhook(aWebhook(account.id, { events: ['link.visited'] }));
    const link = await anInsertedLink(stores.links, { accountId: account.id });
    const day = '2026-01-02';
    await stores.visits.record({
      clicks: [{ linkId: link.id, count: 1, lastClickAt: FIXTURE_TIME }],
      counters: [{ linkId: link.id, day, dimension: 'total', key: '', count: 1 }],
      visitors: [],
    });
    expect(await stores.events.backlog()).toEqual({ events: 0, deliveries: 0, windows: 1 });
    await stores.events.closeVisitWindows(Number.MAX_SAFE_INTEGER, 100);
    await stores.events.fanOut(FIXTURE_TIME, false, 100);
    const claimed = await stores.events.claimDue(FIXTURE_TIME, FIXTURE_TIME + 1, 100, SENDS_PER_WEBHOOK);
    expect(claimed.map((d) => d.event.visits?.humans)).toEqual([1]);
  });
});
