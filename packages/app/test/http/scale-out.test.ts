import { scaleBackendUrl } from '@shortener/testkit';
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

/** The headers of a client at `address` behind the trusted proxy. */
function from(address: string): Record<string, string> {
  return { 'x-forwarded-for': address };
}
