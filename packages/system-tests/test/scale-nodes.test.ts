import { scaleBackendUrl } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { getStatus } from './http/load.js';
import { HOST, serve, useCluster } from './scale-helpers.js';
import type { Node } from './scale-helpers.js';

// Issue 17's multi-node rules with real `shortener serve` processes on one PostgreSQL schema and one
// Redis, behind one short domain as behind a load balancer (decisions §11).

const DATABASE_URL = scaleBackendUrl('DATABASE_URL');
const REDIS_URL = scaleBackendUrl('REDIS_URL');
describe.runIf(DATABASE_URL !== null && REDIS_URL !== null)(
  'serve processes on one PostgreSQL and Redis',
  () => {
    const cluster = useCluster(2, 32);
    const { agent } = cluster;

    /** Creates a link on `node`; returns its slug, id and edit token. */
    async function create(node: Node, body: Record<string, unknown>) {
      const response = await fetch(`${node.url}/api/v1/links`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.7' },
        body: JSON.stringify({ url: 'https://example.com/', ...body }),
      });
      expect(response.status).toBe(201);
      return (await response.json()) as { id: string; slug: string; edit_token: string };
    }

    /** `count` concurrent visits of `slug`, alternating between the nodes; the statuses, in order. */
    const visits = (slug: string, count: number) =>
      Promise.all(
        Array.from({ length: count }, (_, i) =>
          getStatus(agent, cluster.nodes[i % cluster.nodes.length]!.port, `/${slug}`, {
            host: HOST,
            'x-forwarded-for': `198.51.100.${i % 250}`,
          }),
        ),
      );

    it('keeps max_clicks exact across nodes and loses no click when every node stops gracefully', async () => {
      const capped = await create(cluster.nodes[0]!, { max_clicks: 25 });
      const free = await create(cluster.nodes[1]!, {});
      const [cappedStatuses, freeStatuses] = await Promise.all([
        visits(capped.slug, 200),
        visits(free.slug, 300),
      ]);
      const redirects = (statuses: number[]) => statuses.filter((status) => status === 302).length;
      expect(redirects(cappedStatuses)).toBe(25);
      expect(cappedStatuses.filter((status) => status !== 302 && status !== 410)).toEqual([]);
      expect(redirects(freeStatuses)).toBe(300);

      // SIGTERM both: each flushes what it buffered before exiting
      const finished = await Promise.all(cluster.nodes.map((node) => node.stop()));
      expect(finished.map((f) => f.code)).toEqual([0, 0]);

      cluster.nodes = [await serve(cluster.store.env)];
      for (const [link, clicks] of [
        [capped, 25],
        [free, 300],
      ] as const) {
        const response = await fetch(`${cluster.nodes[0]!.url}/api/v1/links/${link.id}/stats`, {
          headers: { 'x-edit-token': link.edit_token },
        });
        const stats = (await response.json()) as { total: number };
        const info = await fetch(`${cluster.nodes[0]!.url}/api/v1/links/${link.id}`, {
          headers: { 'x-edit-token': link.edit_token },
        });
        expect({ clicks: ((await info.json()) as { clicks: number }).clicks, total: stats.total }).toEqual({
          clicks,
          total: clicks,
        });
      }
    }, 30_000);

    it('holds one client to the shared creation limit with 60 creations at once over two nodes just started', async () => {
      // fresh nodes: their first creations meet the Redis limiter while it is still being loaded
      const limited = await Promise.all([
        serve({ ...cluster.store.env, RATE_LIMIT_ANON_HOUR: '20' }),
        serve({ ...cluster.store.env, RATE_LIMIT_ANON_HOUR: '20' }),
      ]);
      try {
        const statuses = await Promise.all(
          Array.from({ length: 60 }, async (_, i) => {
            const response = await fetch(`${limited[i % 2]!.url}/api/v1/links`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.61' },
              body: JSON.stringify({ url: `https://example.com/at-once/${i}` }),
            });
            return response.status;
          }),
        );
        expect(statuses.filter((s) => s === 201)).toHaveLength(20);
        expect(statuses.filter((s) => s !== 201 && s !== 429)).toEqual([]);
      } finally {
        await Promise.all(limited.map((node) => node.stop()));
      }
    }, 30_000);
  },
);
