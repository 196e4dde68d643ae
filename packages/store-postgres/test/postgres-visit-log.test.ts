import { compactAll, givenVisitLog, visitFigures } from '@shortener/testkit';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { PostgresStores } from '../src/index.js';
import { DATABASE_URL, freshSchemaName, useFreshSchemas } from './fresh-schema.js';
import { holdLock, terminateOnceWaiting } from './lock-waits.js';

describe.runIf(DATABASE_URL !== null)('the PostgreSQL visit log', () => {
  const openFresh = useFreshSchemas();
  const opened: PostgresStores[] = [];
  const admin = new pg.Pool({ connectionString: DATABASE_URL ?? '', max: 2 });
  const nodes = async (count: number) => {
    const schema = freshSchemaName();
    const all: PostgresStores[] = [];
    for (let i = 0; i < count; i++) all.push(await openFresh(schema));
    opened.push(...all);
    return { schema, all };
  };
  afterEach(async () => {
    for (const stores of opened.splice(0)) await stores.close();
  });
  afterAll(() => admin.end());

  it('is folded once by compactors on three nodes at once', async () => {
    const { all } = await nodes(3);
    const ids = await givenVisitLog(all[0]!, 30, 6);
    const expected = ids.map(() => ({ clicks: 6, total: 6, unique: 4, keys: 2 + 3 + 6 }));
    expect(await visitFigures(all[1]!, ids)).toEqual(expected);
    // a node finding the lock taken stops; the last call folds whatever the three left
    const folded = await Promise.all(all.map((stores) => compactAll(stores, 7)));
    const left = await compactAll(all[2]!, 7);
    expect(folded.reduce((a, b) => a + b, left)).toBe(30 * 6);
    for (const stores of all) expect(await visitFigures(stores, ids)).toEqual(expected);
  });

  it('keeps totals exact when the compacting backend is terminated mid-transaction', async () => {
    const { schema, all } = await nodes(1);
    const stores = all[0]!;
    const ids = await givenVisitLog(stores, 50, 4);
    const expected = await visitFigures(stores, ids);
    // another session holds a counter row the compaction will add to: it waits inside its transaction
    expect(await stores.visits.compact(1)).toBe(1); // the first entry, so its counter rows exist
    const held = await holdLock(
      admin,
      `SELECT 1 FROM ${schema}.visit_counters WHERE link_id = $1 FOR UPDATE`,
      [ids[0]],
    );
    const compaction = stores.visits.compact(10_000).catch((error: unknown) => error);
    await terminateOnceWaiting(
      admin,
      'INSERT INTO visit_counters',
      200,
      'the compaction never waited for the lock',
    );
    expect(await compaction).toBeInstanceOf(Error);
    await held.rollBack();
    expect(await visitFigures(stores, ids)).toEqual(expected);
    expect(await compactAll(stores, 10_000)).toBe(50 * 4 - 1);
    expect(await visitFigures(stores, ids)).toEqual(expected);
  });
});
