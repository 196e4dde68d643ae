import { isStoreUnavailable } from '@shortener/core';
import type { CounterIncrement, LinkChange } from '@shortener/core';
import { aLink, anAccount, FIXTURE_TIME, anInsertedLink } from '@shortener/testkit';
import { createConnection, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { feedApplicationName, MIGRATIONS, migrate, openPostgresStores, schemaVersion } from '../src/index.js';
import type { PostgresStores } from '../src/index.js';
import { DATABASE_URL, freshSchemaName, useFreshSchemas } from './fresh-schema.js';
import { holdLock, terminateOnceWaiting } from './lock-waits.js';

// What PostgreSQL adds over the contracts: several nodes (pools) on one schema, as several `serve`
// processes on several machines would be.

describe.runIf(DATABASE_URL !== null)('PostgreSQL stores on several nodes', () => {
  const openFresh = useFreshSchemas();
  const opened: PostgresStores[] = [];
  const admin = new pg.Pool({ connectionString: DATABASE_URL ?? '', max: 2 });
  let schema = '';
  /** `count` nodes on one new schema (kept in `schema`). */
  const nodes = async (count: number): Promise<PostgresStores[]> => {
    schema = freshSchemaName();
    const all = [];
    for (let i = 0; i < count; i++) all.push(await openFresh(schema));
    opened.push(...all);
    return all;
  };
  afterEach(async () => {
    for (const stores of opened.splice(0)) await stores.close();
  });
  afterAll(() => admin.end());

  it('reports slug_taken on the alias field, and throws for a duplicate id, rolling the batch back', async () => {
    const [stores] = await nodes(1);
    const taken = aLink({ slug: 'taken' });
    await stores!.links.insert(taken);
    expect(await stores!.links.insert(aLink({ slug: 'taken' }))).toMatchObject({
      ok: false,
      error: { code: 'slug_taken', field: 'alias' },
    });
    await expect(stores!.links.insert({ ...taken, slug: 'other' })).rejects.toThrow(/duplicate key/);
    const batch = [aLink(), { ...taken, slug: 'other' }];
    await expect(stores!.links.insertMany(batch)).rejects.toThrow(/duplicate key/);
    expect(await stores!.links.findById(batch[0]!.id)).toBeNull();
  });

  it('counts exactly max_clicks of 200 clicks spread over four nodes', async () => {
    const all = await nodes(4);
    const link = aLink({ maxClicks: 37 });
    await all[0]!.links.insert(link);
    const counters = (i: number): CounterIncrement[] => [
      { linkId: link.id, day: '2026-01-01', dimension: 'total', key: '00', count: 1 },
      { linkId: link.id, day: '2026-01-01', dimension: 'referrer', key: `r${i % 3}.example`, count: 1 },
    ];
    const attempts = Array.from({ length: 200 }, (_, i) =>
      all[i % 4]!.links.tryConsumeClick(link.id, FIXTURE_TIME + i, counters(i)),
    );
    expect((await Promise.all(attempts)).filter(Boolean)).toHaveLength(37);
    expect((await all[1]!.links.findById(link.id))?.clicks).toBe(37);
    const byDay = await all[2]!.visits.countsByDay(link.id, 'total', '2026-01-01', '2026-01-01');
    expect(byDay).toEqual([{ key: '2026-01-01', count: 37 }]);
  });

  it('flushes overlapping batches from four nodes at once without a deadlock or a lost count', async () => {
    const all = await nodes(4);
    const links = Array.from({ length: 30 }, () => aLink());
    await all[0]!.links.insertMany(links);
    const day = '2026-01-01';
    // each node lists the same links in its own order: the store must sort them
    const batchOf = (node: number, round: number) => {
      const order = node % 2 === 0 ? links : [...links].reverse();
      return {
        clicks: order.map((l) => ({ linkId: l.id, count: 1, lastClickAt: FIXTURE_TIME + round })),
        counters: order.flatMap((l): CounterIncrement[] => [
          { linkId: l.id, day, dimension: 'total', key: '00', count: 1 },
          { linkId: l.id, day, dimension: 'country', key: node % 2 === 0 ? 'DE' : 'FR', count: 1 },
        ]),
        visitors: order.map((l) => ({ linkId: l.id, day, hash: `n${node}r${round}` })),
      };
    };
    const flushes = [];
    for (let round = 0; round < 5; round++) {
      for (let node = 0; node < 4; node++) flushes.push(all[node]!.visits.record(batchOf(node, round)));
    }
    await Promise.all(flushes);
    for (const link of [links[0]!, links[29]!]) {
      expect((await all[3]!.links.findById(link.id))?.clicks).toBe(20);
      const counts = await all[3]!.visits.countsByKey(link.id, day, day);
      expect(counts).toEqual(
        expect.arrayContaining([
          { dimension: 'total', key: '00', count: 20 },
          { dimension: 'country', key: 'DE', count: 10 },
          { dimension: 'country', key: 'FR', count: 10 },
          { dimension: 'unique', key: '', count: 20 },
        ]),
      );
    }
  });

  it('gives every node the same salt of a day, whichever candidate came first', async () => {
    const all = await nodes(3);
    const salts = await Promise.all(
      all.map((stores, i) => stores.visits.salt('2026-01-01', `candidate${i}`)),
    );
    expect(new Set(salts).size).toBe(1);
    expect(await all[0]!.visits.salt('2026-01-01', 'late')).toBe(salts[0]);
  });

  it('migrates an empty schema once when three nodes start together', async () => {
    const empty = freshSchemaName();
    const starting = [0, 1, 2].map(() =>
      openPostgresStores({ connectionString: DATABASE_URL ?? '', schema: empty, poolSize: 2 }),
    );
    opened.push(...starting);
    await Promise.all(starting.map((stores) => stores.ready()));
    const rows = await admin.query(`SELECT version FROM ${empty}.schema_migrations`);
    expect(rows.rows.map((row: { version: number }) => row.version)).toEqual(
      MIGRATIONS.map((m) => m.version),
    );
    const pool = new pg.Pool({ connectionString: DATABASE_URL ?? '', options: `-c search_path=${empty}` });
    expect(await schemaVersion(pool)).toBe(MIGRATIONS.at(-1)?.version);
    await pool.end();
    for (const stores of opened.splice(0)) await stores.close();
    await admin.query(`DROP SCHEMA ${empty} CASCADE`);
  });

  it('refuses a schema newer than the code', async () => {
    await nodes(1);
    await admin.query(`INSERT INTO ${schema}.schema_migrations (version) VALUES (999)`);
    const newer = openPostgresStores({ connectionString: DATABASE_URL ?? '', schema, poolSize: 1 });
    opened.push(newer);
    await expect(newer.ready()).rejects.toThrow(/schema version 999/);
    await admin.query(`DELETE FROM ${schema}.schema_migrations WHERE version = 999`);
  });

  it('refuses to make names case-blind while two differ only in case, naming them', async () => {
    const clash = freshSchemaName();
    const pool = new pg.Pool({ connectionString: DATABASE_URL ?? '', options: `-c search_path=${clash}` });
    try {
      await migrate(pool, clash, MIGRATIONS.slice(0, 1));
      await pool.query(`INSERT INTO accounts (id, name, created_at) VALUES
        ('a1', 'alice', 1), ('a2', 'Alice', 2), ('a3', 'bob', 3), ('a4', 'BOB', 4), ('a5', 'carol', 5)`);
      await expect(migrate(pool, clash)).rejects.toThrow(/share a name: Alice \(a2\), alice \(a1\); BOB/);
      expect(await schemaVersion(pool)).toBe(1);
      await pool.query(`UPDATE accounts SET name = 'alice2' WHERE id = 'a2'`);
      await pool.query(`DELETE FROM accounts WHERE id = 'a4'`);
      expect(await migrate(pool, clash)).toBe(MIGRATIONS.at(-1)?.version);
      await expect(
        pool.query(`INSERT INTO accounts (id, name, created_at) VALUES ('a6', 'CAROL', 6)`),
      ).rejects.toThrow(/accounts_name_lower/);
    } finally {
      await pool.query(`DROP SCHEMA ${clash} CASCADE`);
      await pool.end();
    }
  });

  it("keeps one of a team's two owners when two nodes demote, then remove, both at once", async () => {
    const [one, two] = (await nodes(2)) as [PostgresStores, PostgresStores];
    const [alice, bob] = [anAccount(), anAccount()];
    for (const person of [alice, bob]) await one.accounts.createAccount(person);
    const team = anAccount({ kind: 'team' });
    const joined = (personId: string) => ({ teamId: team.id, personId, role: 'owner' as const, joinedAt: 1 });
    await one.teams.createTeam(team, joined(alice.id));
    await one.teams.addMember(joined(bob.id));
    const owners = async () =>
      (await two.teams.listMembers(team.id)).filter((m) => m.role === 'owner').map((m) => m.personId);
    // each node's pool (4 connections) opened first, so the calls overlap
    await Promise.all([one, two].flatMap((node) => Array.from({ length: 8 }, () => node.ping())));
    const calls = (change: (node: PostgresStores, personId: string) => Promise<unknown>) =>
      Promise.all(
        Array.from({ length: 50 }, (_, i) => change(i % 4 < 2 ? one : two, [alice, bob][i % 2]!.id)),
      );
    await calls((node, personId) => node.teams.setMemberRole(team.id, personId, 'viewer'));
    expect(await owners()).toHaveLength(1);
    await one.teams.setMemberRole(team.id, alice.id, 'owner');
    await one.teams.setMemberRole(team.id, bob.id, 'owner');
    await calls((node, personId) => node.teams.removeMember(team.id, personId));
    expect(await owners()).toHaveLength(1);
    expect(await one.teams.listMembers(team.id)).toHaveLength(1);
  });

  it('listens again after its LISTEN connection is lost, tells null then, and names later changes', async () => {
    const [stores, writer] = await nodes(2);
    const heard: (LinkChange | null)[] = [];
    stores!.links.changes.subscribe((change) => heard.push(change));
    await until(() => heard.includes(null)); // listening (what came before it was not heard)
    const first = aLink();
    await writer!.links.insert(first);
    await until(() => heard.some((h) => h?.id === first.id));
    const before = heard.length;
    const killed = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [feedApplicationName({ connectionString: '', schema })],
    );
    expect(killed.rowCount).toBe(1);
    // listening again: null (whatever changed meanwhile was not heard), and only then
    await until(() => heard.slice(before).includes(null));
    expect(heard.slice(before).filter((h) => h === null)).toHaveLength(1);
    const later = aLink();
    await writer!.links.insert(later);
    await until(() => heard.some((h) => h?.id === later.id));
  });

  it('survives losing a connection checked out for a flush, and throws it as the store unavailable', async () => {
    const [stores] = await nodes(1);
    const link = await anInsertedLink(stores!.links);
    // another session holds the link's row: the flush waits inside its transaction for the lock
    const held = await holdLock(admin, `SELECT id FROM ${schema}.links WHERE id = $1 FOR UPDATE`, [link.id]);
    const batch = {
      clicks: [{ linkId: link.id, count: 1, lastClickAt: FIXTURE_TIME }],
      counters: [],
      visitors: [],
    };
    // handled from the start: the flush may fail before the loop below sees its backend killed
    const flush = stores!.visits.record(batch).catch((error: unknown) => error);
    await terminateOnceWaiting(
      admin,
      'SELECT id FROM links WHERE id = ANY',
      100,
      'the flush never waited for the lock',
    );
    const failure: unknown = await flush;
    await held.rollBack();
    expect(isStoreUnavailable(failure)).toBe(true);
    // the socket's end comes after the query's error: give it time to reach the client
    await new Promise((resolve) => setTimeout(resolve, 100));
    await stores!.visits.record(batch); // a new connection
    expect((await stores!.links.findById(link.id))?.clicks).toBe(1);
  });

  it.each(['committed', 'rolled back'] as const)(
    'counts a flush whose connection is lost at its COMMIT once, %s or not',
    async (outcome) => {
      const [stores] = await nodes(1);
      const link = await anInsertedLink(stores!.links);
      // a proxy that loses the connection at the first COMMIT: after passing it on, or before
      const proxy = await cutAtCommit(outcome === 'committed');
      const url = new URL(DATABASE_URL ?? '');
      url.host = `127.0.0.1:${proxy.port}`;
      const through = openPostgresStores({ connectionString: url.toString(), schema, poolSize: 1 });
      opened.push(through);
      await through.ready();
      proxy.arm();
      const batch = {
        clicks: [{ linkId: link.id, count: 1, lastClickAt: FIXTURE_TIME }],
        counters: [],
        visitors: [],
      };
      // what the recorder does: a failed flush is written again with the next
      await through.visits.record(batch).catch(() => through.visits.record(batch));
      expect(proxy.cuts()).toBe(1);
      await through.checkWritable?.(); // settles what was in doubt
      expect((await stores!.links.findById(link.id))?.clicks).toBe(1);
      proxy.close();
    },
  );

  it('throws a refused connection as the store unavailable, naming no address', async () => {
    const url = new URL(DATABASE_URL ?? '');
    url.port = '9'; // discard: nothing listens there
    const stores = openPostgresStores({ connectionString: url.toString(), schema: freshSchemaName() });
    opened.push(stores);
    const failure: unknown = await stores.links
      .findBySlug('sho.example', 'abc')
      .catch((error: unknown) => error);
    expect(isStoreUnavailable(failure)).toBe(true);
    expect((failure as Error).message).toMatch(/ECONNREFUSED/);
    expect((failure as Error).message).not.toMatch(/127\.0\.0\.1|:9\b/);
  });

  it('answers ping and commits a write check while open, and ping false once closed', async () => {
    const [stores] = await nodes(1);
    expect(await stores!.ping()).toBe(true);
    await expect(stores!.checkWritable?.()).resolves.toBeUndefined();
    await stores!.close();
    expect(await stores!.ping()).toBe(false);
  });
});

async function until(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A TCP proxy to PostgreSQL that, once armed, destroys the connection carrying the next COMMIT: before
 * passing it on, or after (its answer held back, the server given time to commit).
 */
async function cutAtCommit(passItOn: boolean) {
  const target = new URL(DATABASE_URL ?? '');
  let armed = false;
  let cuts = 0;
  const server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    for (const socket of [client, upstream]) socket.on('error', () => socket.destroy());
    upstream.pipe(client);
    client.on('data', (chunk: Buffer) => {
      if (!armed || cuts > 0 || !chunk.includes('COMMIT\0')) return void upstream.write(chunk);
      cuts++;
      upstream.unpipe(client);
      const cut = () => (client.resetAndDestroy(), upstream.destroy());
      if (passItOn) upstream.write(chunk, () => setTimeout(cut, 100));
      else cut();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    arm: () => void (armed = true),
    cuts: () => cuts,
    close: () => server.close(),
  };
}
