import { scaleBackendUrl } from '@shortener/testkit';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLink, eventually, jsonOf, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';
import { freshPostgresStore } from './test-store.js';
import type { TestStore } from './test-store.js';

// Two real servers (STORE=postgres) on one PostgreSQL schema and one Redis: the wiring of decisions
// §11. The full multi-node suite (separate processes, faults) is issue 17's next part.

const DATABASE_URL = scaleBackendUrl('DATABASE_URL');
const REDIS_URL = scaleBackendUrl('REDIS_URL');

describe.runIf(DATABASE_URL !== null && REDIS_URL !== null)('two nodes on PostgreSQL and Redis', () => {
  let a: TestServer;
  let b: TestServer;
  let store: TestStore;

  beforeAll(async () => {
    store = await freshPostgresStore(true);
    // one short domain for both, as behind a load balancer
    const env = {
      ...store.env,
      SHORT_DOMAINS: 'https://sho.example',
      TRUST_PROXY: 'true',
      RATE_LIMIT_ANON_HOUR: '3',
    };
    [a, b] = await Promise.all([startTestServer(env), startTestServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await store?.drop();
  });

  it('serves on one node a link created on the other, and a change made there within a second', async () => {
    const link = await createLink(a, { url: 'https://example.com/scale' }, { headers: from('198.51.100.1') });
    expect((await b.visit(link.short_url)).status).toBe(302);
    const patch = await a.api(`/api/v1/links/${link.id}`, {
      method: 'PATCH',
      json: { url: 'https://example.com/moved' },
      token: link.edit_token,
    });
    expect(patch.status).toBe(200);
    await eventually(async () => {
      expect((await b.visit(link.short_url)).headers.get('location')).toBe('https://example.com/moved');
    }, 1000);
  });

  it('shares one creation limit between the nodes', async () => {
    const client = from('198.51.100.2');
    const create = (node: TestServer) =>
      node.api('/api/v1/links', { json: { url: 'https://example.com/' }, headers: client });
    expect((await create(a)).status).toBe(201);
    expect((await create(b)).status).toBe(201);
    expect((await create(a)).status).toBe(201);
    expect((await create(b)).status).toBe(429);
  });

  it('warns at start-up that a node without REDIS_URL limits on its own', async () => {
    const alone = await startTestServer({
      STORE: 'postgres',
      DATABASE_URL: a.config.store.databaseUrl ?? '',
    });
    await alone.close();
    expect(
      alone.logs.some((line) => /without REDIS_URL: each node keeps its own rate limits/.test(line)),
    ).toBe(true);
  });

  it('reports both backends healthy on both nodes', async () => {
    for (const node of [a, b]) expect(await jsonOf(await node.api('/healthz'))).toEqual({ status: 'ok' });
  });
});

describe.runIf(DATABASE_URL !== null)('a link not cached, asked for by a hundred clients at once', () => {
  let server: TestServer;
  let store: TestStore;

  beforeAll(async () => {
    store = await freshPostgresStore(false);
    server = await startTestServer(store.env);
  });
  afterAll(async () => {
    await server?.close();
    await store?.drop();
  });

  it('is read from PostgreSQL once, and all of them are redirected once the read answers', async () => {
    const link = await createLink(server, { url: 'https://example.com/popular' });
    // the links table locked: every read of it waits, so the reads under way can be counted
    const locker = new pg.Client({ connectionString: store.env.DATABASE_URL });
    // counts from a connection of its own: a transaction sees one snapshot of pg_stat_activity
    const observer = new pg.Client({ connectionString: store.env.DATABASE_URL });
    await Promise.all([locker.connect(), observer.connect()]);
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE links IN ACCESS EXCLUSIVE MODE');
      const { rows } = await locker.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const waiting = async () => {
        const { rows: counted } = await observer.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity
            WHERE pg_blocking_pids(pid) @> ARRAY[$1::int] AND query LIKE '%WHERE domain = $1 AND slug = $2%'`,
          [rows[0]!.pid],
        );
        return Number(counted[0]!.n);
      };
      const visits = Array.from({ length: 100 }, () => server.visit(link.short_url));
      await eventually(async () => expect(await waiting()).toBeGreaterThan(0));
      await new Promise((resolve) => setTimeout(resolve, 300)); // time for more reads to start, were any due
      // one read; without sharing, as many as the pool has connections (10)
      expect(await waiting()).toBe(1);
      await locker.query('COMMIT');
      const answers = await Promise.all(visits);
      expect(answers.map((r) => r.status)).toEqual(answers.map(() => 302));
      expect(new Set(answers.map((r) => r.headers.get('location')))).toEqual(
        new Set(['https://example.com/popular']),
      );
    } finally {
      await Promise.all([locker.end(), observer.end()]);
    }
  });
});

/** The headers of a client at `address` behind the trusted proxy. */
function from(address: string): Record<string, string> {
  return { 'x-forwarded-for': address };
}
