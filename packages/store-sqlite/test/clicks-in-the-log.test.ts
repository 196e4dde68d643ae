import type { VisitBatch } from '@shortener/core';
import { aLink, anAccount, compactAll, LOG_DAY, anInsertedLink } from '@shortener/testkit';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { LINK_CLICKS_FOLDED, openSqliteStores } from '../src/index.js';
import type { SqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();
const opened: { stores: SqliteStores; raw: BetterSqlite3.Database }[] = [];

/** The stores on a new file, and a connection of our own to read its rows as they are. */
function open() {
  const path = nextPath();
  const stores = openSqliteStores(path);
  const raw = new BetterSqlite3(path);
  opened.push({ stores, raw });
  return { stores, raw };
}

afterEach(async () => {
  for (const { stores, raw } of opened.splice(0)) {
    raw.close();
    await stores.close();
  }
});

/** `count` human clicks on `linkId`, the latest at `at`, with their statistics total. */
const clicks = (linkId: string, count: number, at: number): VisitBatch => ({
  clicks: [{ linkId, count, lastClickAt: at }],
  counters: [{ linkId, day: LOG_DAY, dimension: 'total', key: '00', count }],
  visitors: [],
});

describe('clicks in the SQLite visit log (migration 012)', () => {
  it('are written by a flush to the log, not to the link, read with the tail everywhere, and folded into the link', async () => {
    const { stores, raw } = open();
    const account = anAccount();
    await stores.accounts.createAccount(account);
    const link = await anInsertedLink(stores.links, { accountId: account.id, tags: ['news'] });
    await stores.visits.record(clicks(link.id, 3, 1_000));
    await stores.visits.record(clicks(link.id, 2, 2_000));
    // the clicks folded: the link's row's and its link_clicks row's (migration 033)
    const column = raw.prepare(
      `SELECT ${LINK_CLICKS_FOLDED.clicks} AS clicks, ${LINK_CLICKS_FOLDED.last_click_at} AS last_click_at FROM links WHERE id = ?`,
    );
    expect(column.get(link.id)).toEqual({ clicks: 0, last_click_at: null });
    const read = { clicks: 5, lastClickAt: 2_000 };
    expect(await stores.links.findById(link.id)).toMatchObject(read);
    expect(await stores.links.findBySlug(link.domain, link.slug)).toMatchObject(read);
    expect(await stores.links.list({ accountId: account.id, limit: 10 })).toMatchObject([read]);
    expect(await stores.links.listAll?.({ limit: 10 })).toMatchObject([read]);
    expect(await stores.links.update(link.id, { title: 'Renamed', updatedAt: 5_000 })).toMatchObject(read);
    expect(await stores.links.tagCounts(account.id)).toEqual([{ name: 'news', links: 1, clicks: 5 }]);

    expect(await compactAll(stores, 100)).toBe(2);
    expect(column.get(link.id)).toEqual({ clicks: 5, last_click_at: 2_000 });
    await stores.visits.record(clicks(link.id, 1, 1_500)); // an earlier click, flushed late
    expect(await stores.links.findById(link.id)).toMatchObject({ clicks: 6, lastClickAt: 2_000 });
    await compactAll(stores, 100);
    expect(column.get(link.id)).toEqual({ clicks: 6, last_click_at: 2_000 });
  });

  it('count against a cap set after they were logged', async () => {
    const { stores } = open();
    const link = await anInsertedLink(stores.links);
    await stores.visits.record(clicks(link.id, 3, 1_000));
    await stores.links.update(link.id, { maxClicks: 4, updatedAt: 5_000 });
    expect(await stores.links.tryConsumeClick(link.id, 2_000)).toBe(true);
    expect(await stores.links.tryConsumeClick(link.id, 3_000)).toBe(false);
    expect(await stores.links.findById(link.id)).toMatchObject({ clicks: 4, lastClickAt: 2_000 });
  });

  it('are in the link snapshots of link.updated and link.deleted events', async () => {
    const { stores, raw } = open();
    raw.prepare(`INSERT INTO settings (name, value) VALUES ('events_to_broker', 'on')`).run();
    const link = await anInsertedLink(stores.links);
    await stores.visits.record(clicks(link.id, 3, 1_000));
    await stores.links.update(link.id, { title: 'Renamed', updatedAt: 5_000 });
    await stores.links.delete(link.id);
    const snapshots = raw
      .prepare(
        `SELECT type, payload ->> '$.clicks' AS clicks FROM event_outbox WHERE type <> 'link.visited' ORDER BY seq`,
      )
      .all();
    expect(snapshots).toEqual([
      { type: 'link.created', clicks: 0 },
      { type: 'link.updated', clicks: 3 },
      { type: 'link.deleted', clicks: 3 },
    ]);
  });

  it('are written without a look-up of the link: a deleted link takes its rows along, and later visits to it are dropped by the compactor', async () => {
    const { stores, raw } = open();
    const [kept, deleted] = [aLink(), aLink()];
    await stores.links.insertMany([kept, deleted]);
    const withVisitor = (linkId: string): VisitBatch => ({
      ...clicks(linkId, 1, 1_000),
      visitors: [{ linkId, day: LOG_DAY, hash: 'h1' }],
    });
    await stores.visits.record(withVisitor(deleted.id));
    const rows = raw.prepare(
      'SELECT (SELECT COUNT(*) FROM visit_log WHERE link_id = @id) AS log, (SELECT COUNT(*) FROM visitor_hashes WHERE link_id = @id) AS hashes',
    );
    expect(rows.get({ id: deleted.id })).toEqual({ log: 1, hashes: 1 });
    await stores.links.delete(deleted.id);
    expect(rows.get({ id: deleted.id })).toEqual({ log: 0, hashes: 0 });

    // visits tracked before the delete, flushed after it
    await stores.visits.record({
      clicks: [...withVisitor(kept.id).clicks, ...withVisitor(deleted.id).clicks],
      counters: [...withVisitor(kept.id).counters, ...withVisitor(deleted.id).counters],
      visitors: [...withVisitor(kept.id).visitors, ...withVisitor(deleted.id).visitors],
    });
    expect(await stores.visits.countsByDay(deleted.id, 'total', LOG_DAY, LOG_DAY)).toEqual([]);
    expect(await compactAll(stores, 100)).toBe(2);
    expect(rows.get({ id: deleted.id })).toEqual({ log: 0, hashes: 1 }); // the hash goes with its day's
    expect(raw.prepare('SELECT COUNT(*) FROM visit_counters WHERE link_id = ?').pluck().get(deleted.id)).toBe(
      0,
    );
    expect(await stores.links.findById(kept.id)).toMatchObject({ clicks: 1 });
    expect(await stores.visits.countsByDay(kept.id, 'total', LOG_DAY, LOG_DAY)).toEqual([
      { key: LOG_DAY, count: 1 },
    ]);
    expect(raw.pragma('foreign_key_list(visit_log)')).toEqual([]);
    expect(raw.pragma('foreign_key_list(visitor_hashes)')).toEqual([]);
  });
});

describe('clicks folded apart from the links row (migration 033)', () => {
  const rowOf = (raw: BetterSqlite3.Database, id: string) =>
    raw.prepare('SELECT clicks, last_click_at FROM links WHERE id = ?').get(id);
  const keptOf = (raw: BetterSqlite3.Database, id: string) =>
    raw.prepare('SELECT clicks, last_click_at FROM link_clicks WHERE link_id = ?').get(id);

  it('go to link_clicks, never to the links row, and read added to what the row held before', async () => {
    const { stores, raw } = open();
    const link = await anInsertedLink(stores.links);
    // clicks folded into the row before the migration (or imported) stay there
    raw.prepare('UPDATE links SET clicks = 7, last_click_at = 500 WHERE id = ?').run(link.id);
    await stores.visits.record(clicks(link.id, 3, 1_000));
    await compactAll(stores, 100);
    await stores.visits.record(clicks(link.id, 2, 400)); // folded later, and earlier than the row's
    await compactAll(stores, 100);
    expect(rowOf(raw, link.id)).toEqual({ clicks: 7, last_click_at: 500 });
    expect(keptOf(raw, link.id)).toEqual({ clicks: 5, last_click_at: 1_000 });
    expect(await stores.links.findById(link.id)).toMatchObject({ clicks: 12, lastClickAt: 1_000 });
    await stores.visits.record(clicks(link.id, 1, 3_000)); // and the tail on top
    expect(await stores.links.findBySlug(link.domain, link.slug)).toMatchObject({
      clicks: 13,
      lastClickAt: 3_000,
    });
  });

  it('count against a cap, whose own clicks go to the row as they are consumed', async () => {
    const { stores, raw } = open();
    const link = await anInsertedLink(stores.links);
    await stores.visits.record(clicks(link.id, 3, 1_000));
    await compactAll(stores, 100);
    await stores.links.update(link.id, { maxClicks: 5, updatedAt: 5_000 });
    expect(await stores.links.findForRedirect(link.domain, link.slug)).toMatchObject({ clicks: 3 });
    expect(await stores.links.tryConsumeClick(link.id, 2_000)).toBe(true);
    expect(await stores.links.tryConsumeClick(link.id, 3_000)).toBe(true);
    expect(await stores.links.tryConsumeClick(link.id, 4_000)).toBe(false);
    expect(rowOf(raw, link.id)).toEqual({ clicks: 2, last_click_at: 3_000 });
    expect(await stores.links.findById(link.id)).toMatchObject({ clicks: 5, lastClickAt: 3_000 });
  });

  it('go with their link when it is deleted, and a link deleted before its visits are folded gets none', async () => {
    const { stores, raw } = open();
    const [kept, deleted] = [aLink(), aLink()];
    await stores.links.insertMany([kept, deleted]);
    await stores.visits.record(clicks(deleted.id, 2, 1_000));
    await compactAll(stores, 100);
    expect(keptOf(raw, deleted.id)).toEqual({ clicks: 2, last_click_at: 1_000 });
    await stores.links.delete(deleted.id);
    expect(keptOf(raw, deleted.id)).toBeUndefined();
    await stores.visits.record({
      clicks: [...clicks(kept.id, 1, 2_000).clicks, ...clicks(deleted.id, 1, 2_000).clicks],
      counters: [],
      visitors: [],
    });
    await compactAll(stores, 100);
    expect(raw.prepare('SELECT link_id, clicks FROM link_clicks').all()).toEqual([
      { link_id: kept.id, clicks: 1 },
    ]);
  });
});
