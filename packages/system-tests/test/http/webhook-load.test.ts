import { createServer, request, Agent } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scaleBackendUrl } from '@shortener/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_UA, jsonOf, startTestServer } from './harness.js';
import type { TestAccount, TestServer } from './harness.js';
import { freshPostgresStore } from './test-store.js';
import type { TestStore } from './test-store.js';

// Decisions §26 (issue 59): fifty webhooks on link.visited, half answering at once and half never
// answering, while redirects come in from many connections at once. Every healthy endpoint gets each
// link's visits coalesced into one event per link and window (VISIT_EVENT_SECONDS=1 here), and their
// sums equal the visits served, on SQLite and on PostgreSQL. How fast the redirect stays under the
// same load is `npm run bench`'s to show (bench/lib/webhook-load.mjs), never a test's.

const WEBHOOKS = 50;
const LINKS_PER_ACCOUNT = 8;
const VISITS = 2400;
const CONCURRENCY = 48;

interface Delivery {
  readonly path: string;
  readonly id: string;
  readonly type: string;
  readonly data: { link_id: string; visits: number; humans: number; from: string; to: string };
}

/** A receiver on loopback: every path answers 200 at once, or (`hang`) never answers. */
async function receiver(hang: boolean) {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Omit<Delivery, 'path' | 'id'>;
      deliveries.push({ path: req.url ?? '', id: String(req.headers['webhook-id']), ...body });
      if (!hang) res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, deliveries, close };
}

/** Sends `count` GETs of the short links from `concurrency` keep-alive connections; the visits per slug. */
async function redirectLoad(
  server: TestServer,
  slugs: readonly string[],
  count: number,
  concurrency: number,
) {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const served = new Map<string, number>();
  let next = 0;
  const one = (slug: string) =>
    new Promise<number>((resolve, reject) => {
      const headers = { host: server.hostA, 'user-agent': BROWSER_UA, accept: 'text/html' };
      const req = request(
        { host: '127.0.0.1', port: server.port, path: `/${slug}`, agent, headers },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end();
    });
  const worker = async () => {
    while (next < count) {
      const slug = slugs[next++ % slugs.length]!;
      expect(await one(slug)).toBe(302);
      served.set(slug, (served.get(slug) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  return served;
}

const stores: [string, () => Promise<TestStore | null>][] = [
  ['SQLite', async () => null],
  ...(scaleBackendUrl('DATABASE_URL') === null
    ? []
    : ([['PostgreSQL', () => freshPostgresStore(false)]] as [string, () => Promise<TestStore | null>][])),
];

describe.each(stores)(
  'fifty webhooks on link.visited under redirect load, on %s (decisions §26)',
  (_, open) => {
    let server: TestServer;
    let store: TestStore | null;
    let healthy: Awaited<ReturnType<typeof receiver>>;
    let hanging: Awaited<ReturnType<typeof receiver>>;
    /** The links of each account, by slug, and the healthy endpoints of each account. */
    const linksOf = new Map<string, { slug: string; id: string }[]>();
    const healthyPaths = new Map<string, string[]>();
    const accounts: TestAccount[] = [];

    beforeAll(async () => {
      store = await open();
      server = await startTestServer({
        WEBHOOK_ALLOW_PRIVATE: 'true',
        VISIT_EVENT_SECONDS: '1',
        RATE_LIMIT_KEY_HOUR: '100000',
        ...(store?.env ?? {}),
      });
      healthy = await receiver(false);
      hanging = await receiver(true);
      for (const name of ['load-a', 'load-b', 'load-c']) accounts.push(await server.createAccount(name));
      for (let i = 0; i < WEBHOOKS; i++) {
        const account = accounts[i % accounts.length]!;
        const path = `/hook-${i}`;
        const url = `${i % 2 === 0 ? healthy.url : hanging.url}${path}`;
        const json = { url, events: ['link.visited'] };
        await jsonOf(await server.api('/api/v1/webhooks', { key: account.key, json }), 201);
        if (i % 2 === 0)
          healthyPaths.set(account.accountId, [...(healthyPaths.get(account.accountId) ?? []), path]);
      }
      for (const account of accounts) {
        const links: { slug: string; id: string }[] = [];
        for (let i = 0; i < LINKS_PER_ACCOUNT; i++) {
          const json = { url: `https://example.com/${account.accountId}/${i}` };
          links.push(
            (await jsonOf(await server.api('/api/v1/links', { key: account.key, json }), 201)) as {
              slug: string;
              id: string;
            },
          );
        }
        linksOf.set(account.accountId, links);
      }
    }, 60_000);

    afterAll(async () => {
      // the hanging endpoint lets go first, so the sends in flight end now, not at their timeout
      await hanging?.close();
      await server?.close();
      await healthy?.close();
      await store?.drop();
    }, 30_000);

    it("delivers each link's visits to every healthy endpoint, summed per window, however the others answer", async () => {
      const slugs = [...linksOf.values()].flat().map((l) => l.slug);
      const started = Date.now();
      const served = await redirectLoad(server, slugs, VISITS, CONCURRENCY);
      expect([...served.values()].reduce((a, b) => a + b, 0)).toBe(VISITS);

      /** Visits delivered per endpoint and link, each delivery counted once (receivers deduplicate on webhook-id). */
      const delivered = () => {
        const seen = new Set<string>();
        const sums = new Map<string, number>();
        for (const d of healthy.deliveries) {
          if (d.type !== 'link.visited' || seen.has(`${d.path} ${d.id}`)) continue;
          seen.add(`${d.path} ${d.id}`);
          const key = `${d.path} ${d.data.link_id}`;
          sums.set(key, (sums.get(key) ?? 0) + d.data.visits);
        }
        return sums;
      };
      const expected = new Map<string, number>();
      for (const [accountId, links] of linksOf) {
        for (const path of healthyPaths.get(accountId) ?? []) {
          for (const link of links) expected.set(`${path} ${link.id}`, served.get(link.slug) ?? 0);
        }
      }
      const deadline = Date.now() + 45_000;
      while (Date.now() < deadline && !sameSums(delivered(), expected)) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(Object.fromEntries(delivered())).toEqual(Object.fromEntries(expected));

      // coalesced: one event per link and window of a second at most, never one per written batch
      const seconds = (Date.now() - started) / 1000;
      const perLink = new Map<string, Delivery[]>();
      for (const d of healthy.deliveries.filter((d) => d.type === 'link.visited')) {
        const key = `${d.path} ${d.data.link_id}`;
        perLink.set(key, [...(perLink.get(key) ?? []), d]);
      }
      for (const events of perLink.values()) {
        const ids = new Set(events.map((e) => e.id));
        expect(ids.size).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
        expect(events.every((e) => e.data.visits > 0 && e.data.humans === e.data.visits)).toBe(true);
      }
      // every healthy endpoint heard of every link of its account; the hanging ones were tried too
      expect(perLink.size).toBe(expected.size);
      expect(hanging.deliveries.length).toBeGreaterThan(0);
      // the backlog shows per webhook: nothing left for the healthy endpoints, the hanging ones' waiting
      const listed = await jsonOf(await server.api('/api/v1/webhooks', { key: accounts[0]!.key }));
      const pending = (origin: string) =>
        listed.webhooks
          .filter((w: { url: string }) => w.url.startsWith(origin))
          .map((w: { pending: number }) => w.pending);
      expect(pending(healthy.url).every((n: number) => n === 0)).toBe(true);
      expect(pending(hanging.url).some((n: number) => n > 0)).toBe(true);
    }, 120_000);
  },
);

function sameSums(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): boolean {
  if (a.size !== b.size) return false;
  for (const [key, value] of b) if (a.get(key) !== value) return false;
  return true;
}
