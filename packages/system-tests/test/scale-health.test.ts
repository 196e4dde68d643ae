import { scaleBackendUrl } from '@shortener/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBinary } from './bin-helpers.js';
import { startSite } from './http/destination-site.js';
import type { Site } from './http/destination-site.js';
import { freshPostgresStore } from './http/test-store.js';
import type { TestStore } from './http/test-store.js';
import { HOST, serve, within } from './scale-helpers.js';
import type { Node } from './scale-helpers.js';

// Decisions §23 on many nodes: each link is one node's to check (the store's lease), and the politeness
// to a destination host holds for the instance, not per node: with Redis the nodes take turns at a host.

const DATABASE_URL = scaleBackendUrl('DATABASE_URL');
const REDIS_URL = scaleBackendUrl('REDIS_URL');
const GAP_MS = 150;

describe.runIf(DATABASE_URL !== null && REDIS_URL !== null)('link health checks on two nodes', () => {
  let store: TestStore;
  let site: Site;
  let nodes: Node[] = [];

  beforeAll(async () => {
    buildBinary();
    store = await freshPostgresStore(true);
    site = await startSite();
  }, 30_000);

  afterAll(async () => {
    await Promise.all(nodes.map((node) => node.stop()));
    await site?.close();
    await store?.drop();
  });

  it('check 60 links on one host one request at a time across the nodes, never closer than the gap', async () => {
    const env = {
      ...store.env,
      ALLOW_PRIVATE_HOSTS: 'true',
      HEALTH_CHECKS: 'on',
      HEALTH_HOST_GAP_MS: String(GAP_MS),
    };
    // links first, then both nodes at once: their first rounds find the links due together
    const maker = await serve({ ...store.env, ALLOW_PRIVATE_HOSTS: 'true', HEALTH_CHECKS: 'off' });
    for (let batch = 0; batch < 3; batch += 1) {
      const urls = Array.from({ length: 20 }, (_, i) => `${site.url}/page-${batch * 20 + i}`);
      const response = await fetch(`${maker.url}/api/v1/bulk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', host: HOST },
        body: JSON.stringify({ urls }),
      });
      expect(response.status).toBe(200);
    }
    await maker.stop();
    nodes = await Promise.all([serve(env), serve(env)]);

    const pages = () => site.seen.filter((s) => s.path.startsWith('/page-'));
    expect(await within(60_000, async () => pages().length >= 60)).toBe(true);
    const requests = pages();
    expect(requests).toHaveLength(60); // each link once: one node's at a time
    expect(requests.filter((r) => r.method.startsWith('CONCURRENT'))).toEqual([]);
    const sorted = [...requests].sort((a, b) => a.at - b.at);
    const gaps = sorted.slice(1).map((r, i) => r.at - sorted[i]!.ended);
    // the next request starts no sooner than the gap after the last answer ended (1 ms of clock slack)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(GAP_MS - 1);
  }, 90_000);
});
