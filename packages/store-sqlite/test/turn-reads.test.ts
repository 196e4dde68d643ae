import { setImmediate as nextTurn } from 'node:timers/promises';
import { aLink, describeLinkStoreContract } from '@shortener/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteDatabase, openSqliteStores } from '../src/index.js';
import type { SqliteStores } from '../src/index.js';
import { openTurnReads } from '../src/turn-reads.js';
import type { TurnReads } from '../src/turn-reads.js';
import { useTempDbPaths } from './temp-files.js';

const nextPath = useTempDbPaths();
const closing: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** The server's stores: the look-ups on a reading connection of their own, a transaction a turn. */
function serverStores(path = nextPath()): SqliteStores {
  const stores = openSqliteStores(path, { backgroundCheckpoints: true, backgroundCompaction: true });
  closing.push(() => stores.close());
  return stores;
}

describeLinkStoreContract('SQLite in a file, look-ups on a reading connection', async () => serverStores());

describe('turn reads', () => {
  function opened(): { reads: TurnReads; write: (sql: string) => void } {
    const path = nextPath();
    const db = openSqliteDatabase(path);
    db.exec('CREATE TABLE notes (n INTEGER)');
    const reads = openTurnReads(path);
    closing.push(
      () => db.close(),
      () => reads.close(),
    );
    return { reads, write: (sql) => db.exec(sql) };
  }
  const count = (reads: TurnReads) =>
    reads.read(() => reads.db.prepare('SELECT COUNT(*) FROM notes').pluck().get() as number);

  it('reads one snapshot for a turn, and what was committed since in the next', async () => {
    const { reads, write } = opened();
    expect(count(reads)).toBe(0);
    write('INSERT INTO notes VALUES (1)');
    expect(count(reads)).toBe(0); // the turn's transaction began before the commit
    expect(reads.db.inTransaction).toBe(true);
    await nextTurn();
    expect(reads.db.inTransaction).toBe(false); // ended in the turn's check phase
    expect(count(reads)).toBe(1);
  });

  it('sees every commit once the transaction is ended within the turn', () => {
    const { reads, write } = opened();
    expect(count(reads)).toBe(0);
    write('INSERT INTO notes VALUES (1)');
    reads.end();
    expect(count(reads)).toBe(1);
  });

  it('ends the turn however the read ended, and writes nothing', async () => {
    const { reads } = opened();
    expect(() => reads.read(() => reads.db.exec('INSERT INTO notes VALUES (1)'))).toThrow(/readonly/);
    await nextTurn();
    expect(reads.db.inTransaction).toBe(false);
    expect(count(reads)).toBe(0);
  });

  it('closes with a transaction under way', () => {
    const { reads } = opened();
    count(reads);
    reads.close();
    expect(reads.db.open).toBe(false);
  });
});

describe('the redirect look-up on the reading connection', () => {
  it('finds a link this process created, changed or deleted in the same turn as it is now', async () => {
    const stores = serverStores();
    expect(await stores.links.findForRedirect('sho.rt', 'turn')).toBeNull(); // the turn's snapshot begins
    const created = await stores.links.insert(aLink({ slug: 'turn', url: 'https://example.com/a' }));
    if (!created.ok) throw new Error('not created');
    expect((await stores.links.findForRedirect('sho.rt', 'turn'))?.url).toBe('https://example.com/a');
    await stores.links.update(created.value.id, { url: 'https://example.com/b', updatedAt: Date.now() });
    expect((await stores.links.findForRedirect('sho.rt', 'turn'))?.url).toBe('https://example.com/b');
    await stores.links.delete(created.value.id);
    expect(await stores.links.findForRedirect('sho.rt', 'turn')).toBeNull();
  });

  it("finds another connection's link once the change feed has seen it, or in the next turn", async () => {
    const path = nextPath();
    const stores = serverStores(path);
    const other = openSqliteStores(path);
    closing.push(() => other.close());
    expect(await stores.links.findForRedirect('sho.rt', 'elsewhere')).toBeNull();
    await other.links.insertMany([aLink({ slug: 'elsewhere' })]); // one transaction, in this turn
    expect(await stores.links.findForRedirect('sho.rt', 'elsewhere')).toBeNull(); // this turn's snapshot
    stores.links.changes?.poll?.();
    expect(await stores.links.findForRedirect('sho.rt', 'elsewhere')).not.toBeNull();
    await other.links.insert(aLink({ slug: 'later' }));
    await nextTurn();
    expect(await stores.links.findForRedirect('sho.rt', 'later')).not.toBeNull();
  });

  it('holds for a hundred look-ups at once while links change here and clicks are written elsewhere', async () => {
    const path = nextPath();
    const stores = serverStores(path);
    const other = openSqliteStores(path);
    closing.push(() => other.close());
    const links = Array.from({ length: 100 }, (_, i) =>
      aLink({ slug: `many${i}`, url: `https://example.com/${i}/old`, maxClicks: i % 2 === 0 ? 1000 : null }),
    );
    await stores.links.insertMany(links);
    const found = await Promise.all(
      links.map(async (link, i) => {
        const before = await stores.links.findForRedirect('sho.rt', link.slug);
        await stores.links.update(link.id, { url: `https://example.com/${i}/new`, updatedAt: Date.now() });
        const changed = await stores.links.findForRedirect('sho.rt', link.slug);
        // another connection's flush: clicks a capped link's look-up must count as of now
        const at = Date.now();
        await other.visits.record({
          clicks: [{ linkId: link.id, count: 3, lastClickAt: at }],
          counters: [],
          visitors: [],
        });
        const clicked = await stores.links.findForRedirect('sho.rt', link.slug);
        return {
          before: before?.url,
          changed: changed?.url,
          capped: link.maxClicks !== null,
          clicks: clicked?.clicks,
        };
      }),
    );
    found.forEach((f, i) => {
      expect(f.before).toBe(`https://example.com/${i}/old`);
      expect(f.changed).toBe(`https://example.com/${i}/new`);
      if (f.capped) expect(f.clicks).toBe(3);
    });
  });
});
