import { scaleBackendUrl } from '@shortener/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer } from '../../../app/test/dns-server.js';
import type { TestDnsServer } from '../../../app/test/dns-server.js';
import { eventually, jsonOf, rawRequest, startTestServer } from './harness.js';
import type { TestAccount, TestServer } from './harness.js';
import { freshPostgresStore } from './test-store.js';
import type { TestStore } from './test-store.js';

// Decisions §20 on many nodes: two real servers on one PostgreSQL schema and one Redis, the DNS server on a
// loopback port. A domain added and verified on one node is served by the other (which reads the domains
// every 5 s), and the background checks of the two nodes check each domain once, not once per node.

const DATABASE_URL = scaleBackendUrl('DATABASE_URL');
const REDIS_URL = scaleBackendUrl('REDIS_URL');

describe.runIf(DATABASE_URL !== null && REDIS_URL !== null)('own domains on two nodes', () => {
  let a: TestServer;
  let b: TestServer;
  let store: TestStore;
  let dns: TestDnsServer;
  let owner: TestAccount;

  beforeAll(async () => {
    dns = await startDnsServer();
    store = await freshPostgresStore(true);
    const env = {
      ...store.env,
      SHORT_DOMAINS: 'https://sho.example',
      CUSTOM_DOMAIN_CNAME: 'links.example.com',
      DNS_SERVERS: dns.address,
    };
    [a, b] = await Promise.all([startTestServer(env), startTestServer(env)]);
    owner = await a.createAccount('alice');
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await store?.drop();
    await dns?.close();
  });

  const onDomain = (node: TestServer, path: string) =>
    rawRequest(node.port, `http://go.alice.test${path}`, {}, ({ status }) =>
      expect(status).toBeLessThan(500),
    );

  it('serves on one node a domain verified on the other, and stops when it is removed there', async () => {
    const domain = await jsonOf(
      await a.api('/api/v1/domains', { key: owner.key, json: { host: 'go.alice.test' } }),
      201,
    );
    for (const record of domain.records) dns.publish(record.type, record.name, record.value);
    const verified = await a.api(`/api/v1/domains/${domain.id}/verify`, { key: owner.key, method: 'POST' });
    expect((await jsonOf(verified)).state).toBe('active');
    await jsonOf(
      await a.api('/api/v1/links', {
        key: owner.key,
        json: { url: 'https://example.com/two-nodes', alias: 'two', domain: 'go.alice.test' },
      }),
      201,
    );
    await eventually(async () => {
      expect((await onDomain(b, '/two')).headers.get('location')).toBe('https://example.com/two-nodes');
    }, 12_000);
    const removed = await b.api(`/api/v1/domains/${domain.id}?delete_links=true`, {
      key: owner.key,
      method: 'DELETE',
    });
    expect(removed.status).toBe(204);
    await eventually(
      async () => expect((await onDomain(a, '/two')).headers.get('location')).toBeNull(),
      12_000,
    );
  }, 40_000);

  it('checks a pending domain in the background on one node at a time', async () => {
    const domain = await jsonOf(
      await a.api('/api/v1/domains', { key: owner.key, json: { host: 'bg.alice.test' } }),
      201,
    );
    const challenge = `TXT _shortener-challenge.bg.alice.test`;
    // both nodes look every 5 s; a pending domain is due every minute: one check in 12 s, by one node
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    expect(dns.questions.filter((q) => q === challenge)).toHaveLength(1);
    const seen = await jsonOf(await b.api(`/api/v1/domains/${domain.id}`, { key: owner.key }));
    expect(seen.checked_at).not.toBeNull();
  }, 30_000);
});
