import type { CounterIncrement, VisitDimension } from '@shortener/core';
import { aLink, anAccount, compactAll } from '@shortener/testkit';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStores } from '../src/index.js';
import { DATABASE_URL, freshSchemaName, useFreshSchemas } from './fresh-schema.js';
import { untilWaiting } from './lock-waits.js';

const DAYS = ['2026-01-04', '2026-01-05', '2026-01-06'];
const KEYS: [VisitDimension, string][] = [
  ['total', '10'],
  ['total', '11'],
  ['country', 'DE'],
  ['referrer', 'a.example'],
];

/** The counters of one visit to each of `links`, on a day and hour, country and referrer of `n`. */
const visits = (links: readonly string[], n: number): CounterIncrement[] =>
  links.flatMap((linkId, i) => {
    const day = DAYS[(n + i) % DAYS.length]!;
    return KEYS.filter((_, k) => k === (n + i) % 2 || k >= 2).map(([dimension, key]) => ({
      linkId,
      day,
      dimension,
      key,
      count: 1 + ((n + i) % 3),
    }));
  });

// the sums as migration 16 makes them from the counters, beside the sums its triggers kept
const SUMS = [
  ['account_counters', 'day, dimension, key', 'c.day, c.dimension, c.key'],
  ['account_link_days', 'day, link_id', 'c.day, c.link_id'],
  ['account_link_weeks', 'week, link_id', '%s.account_week(c.day) AS week, c.link_id'],
] as const;

describe.runIf(DATABASE_URL !== null)('PostgreSQL sums per account (migration 16)', () => {
  const openFresh = useFreshSchemas();
  const admin = new pg.Pool({ connectionString: DATABASE_URL ?? '', max: 2 });
  afterAll(() => admin.end());

  /** Each sum table, as kept and as made anew from the counters (rows that net to zero left out). */
  const keptAndMade = async (schema: string) => {
    const tables = [];
    for (const [table, columns, made] of SUMS) {
      const kept = await admin.query(
        `SELECT account_id, ${columns}, count FROM ${schema}.${table} WHERE count <> 0 ORDER BY 1, 2, 3, 4`,
      );
      const fresh = await admin.query(
        `SELECT * FROM (SELECT l.account_id, ${made.replace('%s', schema)}, sum(c.count)::bigint AS count
           FROM ${schema}.visit_counters c JOIN ${schema}.links l ON l.id = c.link_id
           WHERE l.account_id IS NOT NULL${table === 'account_counters' ? '' : " AND c.dimension = 'total'"}
           GROUP BY 1, 2, 3${table === 'account_counters' ? ', 4' : ''}) s ORDER BY 1, 2, 3, 4`,
      );
      tables.push({ table, kept: kept.rows, made: fresh.rows });
    }
    return tables;
  };

  it('stay the sums of the counters under 100 concurrent flushes and counter writes, folds and a claim', async () => {
    const schema = freshSchemaName();
    const one = await openFresh(schema);
    const two = await openFresh(schema);
    try {
      const account = anAccount();
      await one.accounts.createAccount(account);
      const links = Array.from({ length: 20 }, () => aLink({ accountId: account.id }));
      const claimed = aLink({ accountId: null, editTokenHash: 'e'.repeat(64) });
      await one.links.insertMany([...links, claimed]);
      const ids = [...links.map((l) => l.id), claimed.id];
      const at = Date.parse('2026-01-06T12:00:00Z');
      let claim: Promise<number> | undefined;
      let stop = false;
      // both nodes fold all along (one at a time: the compactor's lock), while a hundred writers, half of
      // them flushes into the log and half counter writes of their own (a capped link's click), run at once
      const folding = [one, two].map(async (stores) => {
        while (!stop) await stores.visits.compact(5);
      });
      await Promise.all(
        Array.from({ length: 100 }, async (_, n) => {
          const stores = n % 2 === 0 ? one : two;
          const mine = ids.filter((_, i) => (i + n) % 4 !== 0);
          if (n === 50) claim = one.links.claim(['e'.repeat(64)], account.id, at);
          if (n % 2 === 0)
            await stores.visits.record({ clicks: [], visitors: [], counters: visits(mine, n) });
          else await stores.links.tryConsumeClick(mine[n % mine.length]!, at, visits(mine, n));
        }),
      );
      expect(await claim).toBe(1);
      stop = true;
      await Promise.all(folding);
      await compactAll(one, 1000);
      for (const { table, kept, made } of await keptAndMade(schema)) {
        expect([table, kept]).toEqual([table, made]);
      }
      const top = await one.visits.ofAccount?.topLinks(account.id, DAYS[0]!, DAYS.at(-1)!, 100);
      const { rows: totals } = await admin.query<{ key: string; count: number }>(
        `SELECT link_id AS key, sum(count)::int AS count FROM ${schema}.visit_counters
         WHERE dimension = 'total' GROUP BY link_id ORDER BY 2 DESC, 1`,
      );
      expect(top).toEqual(totals);
      expect(totals.map((t) => t.key)).toContain(claimed.id);
    } finally {
      await one.close();
      await two.close();
    }
  });

  // a claim locks its links FOR UPDATE itself; any other change of account_id does as a key's update
  it.each([
    ['a claim', 'UPDATE links SET account_id'],
    ['an update', 'UPDATE links SET updated_at'],
  ])('counts a counter write in flight into the account that %s moves its link to', async (_, statement) => {
    const schema = freshSchemaName();
    const stores = await openFresh(schema);
    const writer = await admin.connect();
    try {
      const account = anAccount();
      await stores.accounts.createAccount(account);
      const link = aLink({ accountId: null, editTokenHash: 'f'.repeat(64) });
      await stores.links.insert(link);
      // another node's fold of the anonymous link, its transaction still open: its trigger found no account
      await writer.query('BEGIN');
      await writer.query(
        `INSERT INTO ${schema}.visit_counters (link_id, day, dimension, key, count)
         VALUES ($1, '2026-01-05', 'total', '10', 7)`,
        [link.id],
      );
      const at = Date.parse('2026-01-06T00:00:00Z');
      const moved = statement.includes('account_id')
        ? stores.links.claim(['f'.repeat(64)], account.id, at)
        : stores.links.update(link.id, { accountId: account.id, updatedAt: at });
      await untilWaiting(admin, statement, 200, 'the change of account never waited for the fold');
      await writer.query('COMMIT');
      expect(await moved).toBeTruthy();
      expect(await stores.visits.ofAccount?.topLinks(account.id, '2026-01-05', '2026-01-05', 20)).toEqual([
        { key: link.id, count: 7 },
      ]);
    } finally {
      writer.release();
      await stores.close();
    }
  });

  it('migrates before the first read of an account, as every other store method does', async () => {
    const schema = freshSchemaName();
    const stores = openPostgresStores({ connectionString: DATABASE_URL ?? '', schema, poolSize: 1 });
    try {
      expect(await stores.visits.ofAccount?.topLinks('nobody', '2026-01-01', '2026-01-31', 20)).toEqual([]);
    } finally {
      await stores.close();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
  });
});
