import { aLink, describeLinkChangeFeedContract, anInsertedLink } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { openSqliteDatabase, openSqliteStores } from '../src/index.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();

/** Two connections to one new file: the other writer is the second, as another process would be. */
function twoConnections() {
  const path = nextPath();
  return { stores: openSqliteStores(path), other: openSqliteStores(path) };
}

describeLinkChangeFeedContract('SQLite', async () => twoConnections(), { pollable: true });

describe('the change log other processes read', () => {
  it('names the links another connection changed, and not the clicks a visit flush adds', async () => {
    const { stores: mine, other: theirs } = twoConnections();
    try {
      const [a, b] = [aLink(), aLink()];
      await mine.links.insertMany([a, b]);
      const heard: (string | null)[] = [];
      const unsubscribe = mine.links.changes.subscribe((change) => heard.push(change?.id ?? null));
      // a flush of visits by the other connection: clicks only
      await theirs.visits.record({
        clicks: [{ linkId: a.id, count: 3, lastClickAt: Date.now() }],
        counters: [],
        visitors: [],
      });
      mine.links.changes.poll?.();
      expect(heard).toEqual([]);
      await theirs.links.update(b.id, { title: 'changed elsewhere', updatedAt: Date.now() });
      await theirs.links.delete(a.id);
      mine.links.changes.poll?.();
      expect(heard).toEqual([b.id, a.id]);
      unsubscribe();
    } finally {
      await theirs.close();
      await mine.close();
    }
  });
});

describe('the change log and the columns of decisions §15', () => {
  it('names a link whose rules, tags, forwarding, status or crawlability another process wrote in SQL', async () => {
    const path = nextPath();
    const mine = openSqliteStores(path);
    const raw = openSqliteDatabase(path);
    try {
      const link = await anInsertedLink(mine.links);
      const heard: (string | null)[] = [];
      const unsubscribe = mine.links.changes.subscribe((change) => heard.push(change?.id ?? null));
      const columns = [
        `rules = '[{"when":{"os":["ios"]},"url":"https://b.example/"}]'`,
        `tags = '["x"]'`,
        'forward_query = 1',
        'redirect_status = 307',
        'crawlable = 1',
      ];
      for (const set of columns) {
        raw.prepare(`UPDATE links SET ${set} WHERE id = ?`).run(link.id);
        mine.links.changes.poll?.();
      }
      expect(heard).toEqual(columns.map(() => link.id));
      unsubscribe();
    } finally {
      raw.close();
      await mine.close();
    }
  });
});
