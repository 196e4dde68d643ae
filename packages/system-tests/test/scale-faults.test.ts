import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { Agent } from 'node:http';
import { createConnection, createServer } from 'node:net';
import type { Server, Socket } from 'node:net';
import { scaleBackendUrl } from '@shortener/testkit';
import pg from 'pg';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBinary, envOf, launcher } from './bin-helpers.js';
import { freePort } from './http/harness.js';
import { freshPostgresStore } from './http/test-store.js';
import type { TestStore } from './http/test-store.js';
import { exchange, isBadFailure, tally } from './outage-traffic.js';
import type { Answer } from './outage-traffic.js';
import { HOST, serve, useCluster, visitOn, within } from './scale-helpers.js';
import type { Node } from './scale-helpers.js';

// Issue 17: three nodes on one PostgreSQL schema and one Redis, the rules of decisions §11 across them,
// nothing of a visitor's address anywhere, and the faults a cluster meets: the LISTEN connection killed,
// Redis restarted, PostgreSQL unreachable. Real processes and services throughout.

const DATABASE_URL = scaleBackendUrl('DATABASE_URL');
const REDIS_URL = scaleBackendUrl('REDIS_URL');
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';

interface Created {
  readonly id: string;
  readonly slug: string;
  readonly edit_token: string;
  readonly short_url: string;
}

async function create(node: Node, body: Record<string, unknown>, client = '203.0.113.9'): Promise<Created> {
  const response = await fetch(`${node.url}/api/v1/links`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify({ url: 'https://example.com/', ...body }),
  });
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json()) as Created;
}

const json = async (node: Node, path: string, token: string) =>
  (await (await fetch(`${node.url}${path}`, { headers: { 'x-edit-token': token } })).json()) as Record<
    string,
    unknown
  >;

const health = async (node: Node) => {
  const response = await fetch(`${node.url}/healthz`);
  return {
    status: response.status,
    body: (await response.json()) as { reason?: string; degraded?: string[] },
  };
};

/** The schema a test store's DATABASE_URL names (`options=-c search_path=…`). */
const schemaOf = (url: string) => /search_path%3D([a-z0-9_]+)/.exec(url)?.[1] ?? '';

describe.runIf(DATABASE_URL !== null && REDIS_URL !== null)('three nodes, and faults', () => {
  const cluster = useCluster(3, 16);
  const { agent } = cluster;

  it('serves a change made on one node, or by the CLI, on the others within a second', async () => {
    const [a, b, c] = cluster.nodes as [Node, Node, Node];
    const link = await create(a, { url: 'https://example.com/first' });
    for (const node of [b, c]) expect(await visitOn(agent, node, link.slug)).toBe(302);
    await fetch(`${a.url}/api/v1/links/${link.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-edit-token': link.edit_token },
      body: JSON.stringify({ max_clicks: 1_000_000, url: 'https://example.com/second' }),
    });
    const location = async (node: Node) =>
      (await fetch(`${node.url}/${link.slug}`, { redirect: 'manual', headers: { host: HOST } })).headers.get(
        'location',
      );
    for (const node of [b, c])
      expect(await within(1000, async () => (await location(node)) === 'https://example.com/second')).toBe(
        true,
      );

    const cli = spawn(process.execPath, [launcher, 'links', 'disable', link.id], {
      env: envOf({ ...cluster.store.env, SHORT_DOMAINS: `https://${HOST}` }),
    });
    expect(await new Promise((resolve) => cli.on('close', resolve))).toBe(0);
    for (const node of [b, c])
      expect(await within(1000, async () => (await visitOn(agent, node, link.slug)) === 410)).toBe(true);
  });

  it('keeps max_clicks exact over three nodes and counts one visitor once whichever node it reaches', async () => {
    const capped = await create(cluster.nodes[0]!, { max_clicks: 30 });
    const statuses = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        visitOn(agent, cluster.nodes[i % 3]!, capped.slug, `198.51.100.${i % 200}`),
      ),
    );
    expect(statuses.filter((s) => s === 302)).toHaveLength(30);
    expect(statuses.filter((s) => s !== 302 && s !== 410)).toEqual([]);

    const link = await create(cluster.nodes[1]!, {});
    for (const node of cluster.nodes)
      expect(await visitOn(agent, node, link.slug, '192.0.2.77', FIREFOX)).toBe(302);
    for (const [i, node] of cluster.nodes.entries())
      expect(await visitOn(agent, node, link.slug, `192.0.2.${100 + i}`, FIREFOX)).toBe(302);
    // each node writes its own visits within a second
    const counted = async () => {
      const stats = await json(cluster.nodes[2]!, `/api/v1/links/${link.id}/stats`, link.edit_token);
      return stats.total === 6 && stats.unique === 4;
    };
    expect(await within(3000, counted)).toBe(true);
  });

  it('writes no address anywhere: not in PostgreSQL, not in Redis, not in the logs', async () => {
    const addresses = ['203.0.113.57', '2001:db8::57'];
    for (const [i, address] of addresses.entries()) {
      const link = await create(cluster.nodes[i]!, {}, address);
      for (const node of cluster.nodes) expect(await visitOn(agent, node, link.slug, address)).toBe(302);
      await json(cluster.nodes[2]!, `/api/v1/links/${link.id}/stats`, link.edit_token); // flushed
    }
    const schema = schemaOf(cluster.store.env.DATABASE_URL ?? '');
    const sql = new pg.Client({ connectionString: DATABASE_URL! });
    await sql.connect();
    const { rows: tables } = await sql.query<{ name: string }>(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1',
      [schema],
    );
    expect(tables.length).toBeGreaterThan(5);
    let dump = '';
    for (const { name } of tables) {
      const { rows } = await sql.query<{ row: string }>(
        `SELECT t::text AS row FROM ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(name)} t`,
      );
      dump += rows.map((r) => r.row).join('\n');
    }
    await sql.end();
    expect(dump).toContain('example.com');
    const redis = createClient({ url: REDIS_URL! });
    await redis.connect();
    let keys = '';
    for await (const batch of redis.scanIterator({ MATCH: '*', COUNT: 1000 })) {
      for (const key of batch) {
        keys += `${key}\n`;
        const type = await redis.type(key);
        if (type === 'zset') keys += (await redis.zRange(key, 0, -1)).join(',');
        if (type === 'hash') keys += JSON.stringify(await redis.hGetAll(key));
      }
    }
    redis.destroy();
    expect(keys).toContain('shortener:limit:');
    const logs = cluster.nodes.map((node) => node.stderr()).join('\n');
    for (const text of [...addresses, '2001:db8', '203.0.113']) {
      expect(dump, `PostgreSQL holds ${text}`).not.toContain(text);
      expect(keys, `Redis holds ${text}`).not.toContain(text);
      expect(logs, `the logs hold ${text}`).not.toContain(text);
    }
  });

  it('hears changes again after its LISTEN connection is killed', async () => {
    const [a, b] = cluster.nodes as [Node, Node];
    const link = await create(a, { url: 'https://example.com/before-kill' });
    expect(await visitOn(agent, b, link.slug)).toBe(302);
    const schema = schemaOf(cluster.store.env.DATABASE_URL ?? '');
    const sql = new pg.Client({ connectionString: DATABASE_URL! });
    await sql.connect();
    const { rows } = await sql.query<{ killed: boolean }>(
      `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE query ILIKE $1`,
      [`LISTEN %${schema}.link_changes%`],
    );
    await sql.end();
    expect(rows.length).toBe(cluster.nodes.length);
    expect(rows.every((r) => r.killed)).toBe(true);
    // a change right after: heard by a node that listens again, or its cache was emptied by the loss
    await fetch(`${a.url}/api/v1/links/${link.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-edit-token': link.edit_token },
      body: JSON.stringify({ url: 'https://example.com/after-kill' }),
    });
    const location = async () =>
      (await fetch(`${b.url}/${link.slug}`, { redirect: 'manual', headers: { host: HOST } })).headers.get(
        'location',
      );
    expect(await within(1000, async () => (await location()) === 'https://example.com/after-kill')).toBe(
      true,
    );
    // and later changes are heard too (the feed listens again)
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await visitOn(agent, b, link.slug)).toBe(302); // cached again
    await fetch(`${a.url}/api/v1/links/${link.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-edit-token': link.edit_token },
      body: JSON.stringify({ url: 'https://example.com/later' }),
    });
    expect(await within(1000, async () => (await location()) === 'https://example.com/later')).toBe(true);
  }, 20_000);
});

/** A redis-server of the test's own on a free port, to kill and start again. */
async function ownRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const up = await within(5000, async () => {
    const socket = createConnection({ port, host: '127.0.0.1' });
    return new Promise<boolean>((resolve) => {
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
  });
  if (!up) throw new Error('redis-server did not start');
  return child;
}

describe.runIf(DATABASE_URL !== null && REDIS_URL !== null)('Redis restarted under two nodes', () => {
  let store: TestStore;
  let nodes: Node[] = [];
  let redis: ChildProcess | undefined;
  let port = 0;
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });

  beforeAll(async () => {
    buildBinary();
    port = await freePort();
    redis = await ownRedis(port);
    store = await freshPostgresStore(false);
    const env = { ...store.env, REDIS_URL: `redis://127.0.0.1:${port}`, RATE_LIMIT_ANON_HOUR: '40' };
    nodes = await Promise.all([serve(env), serve(env)]);
  }, 30_000);
  afterAll(async () => {
    agent.destroy();
    await Promise.all(nodes.map((node) => node.stop()));
    redis?.kill('SIGKILL');
    await store?.drop();
  });

  it('keeps /healthz 200 naming Redis as degraded while it is down, keeps serving, and recovers', async () => {
    const link = await create(nodes[0]!, {});
    for (const node of nodes) expect((await health(node)).body).toStrictEqual({ status: 'ok' });
    redis!.kill('SIGKILL');
    for (const node of nodes) {
      // every node still serves: a load balancer must not take the fleet out
      const degraded = async () => JSON.stringify((await health(node)).body.degraded ?? []).includes('Redis');
      expect(await within(5000, degraded)).toBe(true);
      expect((await health(node)).status).toBe(200);
      expect(await visitOn(agent, node, link.slug)).toBe(302);
      // creations go on, limited by each node on its own meanwhile
      await create(node, {}, '203.0.113.200');
    }
    redis = await ownRedis(port);
    for (const node of nodes)
      expect(await within(10_000, async () => (await health(node)).body.degraded === undefined)).toBe(true);
    // the shared limit works again: 40 an hour from one client, over both nodes together
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const response = await fetch(`${nodes[i % 2]!.url}/api/v1/links`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.201' },
        body: JSON.stringify({ url: 'https://example.com/limited' }),
      });
      statuses.push(response.status);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(40);
    expect(statuses.filter((s) => s !== 201 && s !== 429)).toEqual([]);
  }, 40_000);
});

/** A TCP forwarder to PostgreSQL that can be cut (connections destroyed, new ones refused) and restored. */
async function forwarder(
  target: URL,
): Promise<{ port: number; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', resolve);
    });
  const cut = async () => {
    const closing = server;
    server = null;
    const closed = new Promise<void>((resolve) => (closing ? closing.close(() => resolve()) : resolve()));
    // live connections are reset (RST), as a network failure or a crashed server leaves them
    for (const socket of sockets) socket.resetAndDestroy();
    await closed;
  };
  await listen();
  return { port, cut, restore: listen, close: cut };
}

/** A fresh PostgreSQL store, a forwarder to it, and the env of a node reaching it through the forwarder. */
async function behindForwarder() {
  const store = await freshPostgresStore(true);
  const url = new URL(store.env.DATABASE_URL!);
  const proxy = await forwarder(url);
  const through = new URL(url);
  through.host = `127.0.0.1:${proxy.port}`;
  return { store, proxy, env: { ...store.env, DATABASE_URL: through.toString() } };
}

describe.runIf(DATABASE_URL !== null && REDIS_URL !== null)('PostgreSQL unreachable during a flush', () => {
  let store: TestStore;
  let node: Node | undefined;
  let reader: Node | undefined;
  let proxy: Awaited<ReturnType<typeof forwarder>>;
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });

  beforeAll(async () => {
    buildBinary();
    let env: Record<string, string>;
    ({ store, proxy, env } = await behindForwarder());
    [node, reader] = await Promise.all([serve(env), serve(store.env)]);
  }, 30_000);
  afterAll(async () => {
    agent.destroy();
    await Promise.all([node?.stop(), reader?.stop()]);
    await proxy?.close();
    await store?.drop();
  });

  it('keeps the visits it could not write, says so in /healthz, and writes them once the database is back', async () => {
    const link = await create(reader!, {});
    let redirects = 0;
    for (let i = 0; i < 20; i++) if ((await visitOn(agent, node!, link.slug)) === 302) redirects++;
    expect(redirects).toBe(20);
    await proxy.cut();
    // answers go on while the database is away: 302 for what is still cached, never a hang
    for (let i = 0; i < 20; i++) {
      const status = await visitOn(agent, node!, link.slug);
      if (status === 302) redirects++;
      else expect(status).toBe(503);
    }
    expect(await within(8000, async () => (await health(node!)).status === 503)).toBe(true);
    expect((await health(node!)).body.reason).toBeDefined();
    await proxy.restore();
    expect(await within(10_000, async () => (await health(node!)).status === 200)).toBe(true);
    // every redirect served is a click, written once the database answered again
    expect(
      await within(
        5000,
        async () => (await json(reader!, `/api/v1/links/${link.id}`, link.edit_token)).clicks === redirects,
      ),
    ).toBe(true);
  }, 40_000);
});

// Issue 24 (decisions §14): PostgreSQL cut three times under traffic on three nodes, each cut resetting
// the live connections and refusing new ones. No node ends; cached links go on redirecting, their
// visits buffered and written once the database answers again; everything else answers 503
// `unavailable` with Retry-After, never another 5xx.
describe.runIf(DATABASE_URL !== null && REDIS_URL !== null)('PostgreSQL cut under traffic', () => {
  const CUTS = 3;
  const CUT_MS = 3000;
  const UP_MS = 4000;
  let store: TestStore;
  let nodes: Node[] = [];
  let proxy: Awaited<ReturnType<typeof forwarder>>;
  const agent = new Agent({ keepAlive: true, maxSockets: 32 });

  beforeAll(async () => {
    buildBinary();
    let through: Record<string, string>;
    ({ store, proxy, env: through } = await behindForwarder());
    const env = { ...through, METRICS: 'true' };
    nodes = await Promise.all([serve(env), serve(env), serve(env)]);
  }, 30_000);
  afterAll(async () => {
    agent.destroy();
    await Promise.all(nodes.map((node) => node.stop()));
    await proxy?.close();
    await store?.drop();
  });

  it('keeps every node up, redirects cached links, answers 503 unavailable for the rest and loses no click', async () => {
    const hot = await Promise.all([0, 1, 2].map((i) => create(nodes[i]!, {})));
    const cold = await Promise.all(Array.from({ length: 30 }, (_, i) => create(nodes[i % 3]!, {})));
    const exited = nodes.map(() => false);
    nodes.forEach((node, i) => void node.done.then(() => (exited[i] = true)));
    for (const node of nodes) {
      for (const link of hot) expect((await exchange(agent, node, 'GET', `/${link.slug}`)).status).toBe(302);
    }

    // the phase: `epoch` changes at each cut and each restore, so an answer is "during a cut" only
    // when the whole exchange was
    let down = false;
    let epoch = 0;
    let stopped = false;
    type Kind = 'hot' | 'cold' | 'create' | 'stats';
    const seen: { node: number; kind: Kind; slug: string; during: boolean; answer: Answer }[] = [];
    const loop = async (node: number, kind: Kind, pauseMs: number, next: () => [string, Promise<Answer>]) => {
      while (!stopped) {
        const [startEpoch, startDown] = [epoch, down];
        const [slug, pending] = next();
        // a node that ended answers nothing: status 0, and the checks below say which
        const answer = await pending.catch(() => ({
          status: 0,
          retryAfter: undefined,
          code: undefined,
          body: '',
        }));
        seen.push({ node, kind, slug, during: startDown && epoch === startEpoch, answer });
        await sleep(pauseMs);
      }
    };
    const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;
    const loops = nodes.flatMap((n, i) => {
      const visit = (slug: string): [string, Promise<Answer>] => [
        slug,
        exchange(agent, n, 'GET', `/${slug}`, { 'x-forwarded-for': `198.51.100.${i}` }),
      ];
      return [
        loop(i, 'hot', 2, () => visit(pick(hot).slug)),
        loop(i, 'hot', 3, () => visit(pick(hot).slug)),
        // a cold link, or a slug nobody made: not cached, so the store decides
        loop(i, 'cold', 20, () => visit(Math.random() < 0.5 ? pick(cold).slug : `none${seen.length}`)),
        loop(i, 'create', 50, () => [
          '',
          exchange(
            agent,
            n,
            'POST',
            '/api/v1/links',
            { 'x-forwarded-for': `203.0.113.${i}` },
            {
              url: 'https://example.com/during',
            },
          ),
        ]),
        loop(i, 'stats', 100, () => [
          '',
          exchange(agent, n, 'GET', `/api/v1/links/${hot[0]!.id}/stats`, {
            'x-edit-token': hot[0]!.edit_token,
          }),
        ]),
      ];
    });

    const buffered: number[] = [];
    const scrape = async () => {
      for (const node of nodes) {
        const text = (await exchange(agent, node, 'GET', '/metrics').catch(() => ({ body: '' }))).body;
        buffered.push(Number(/^shortener_visits_buffered (\d+)$/m.exec(text)?.[1] ?? Number.NaN));
      }
    };
    await sleep(1000);
    for (let cut = 0; cut < CUTS; cut++) {
      await proxy.cut();
      [down, epoch] = [true, epoch + 1];
      await sleep(CUT_MS - 200);
      await scrape();
      await sleep(200);
      [down, epoch] = [false, epoch + 1];
      await proxy.restore();
      await sleep(UP_MS);
    }
    stopped = true;
    await Promise.all(loops);

    // every node lives, and said nothing of an unhandled error
    expect(exited).toEqual([false, false, false]);
    for (const node of nodes) expect(node.stderr()).not.toMatch(/Unhandled|uncaught/i);
    // no 5xx but the 503 unavailable with Retry-After
    expect(seen.filter(({ answer }) => isBadFailure(answer)).map(({ answer }) => answer)).toEqual([]);
    const during = (kind: Kind, node?: number) =>
      tally(
        seen
          .filter((s) => s.during && s.kind === kind && (node === undefined || s.node === node))
          .map((s) => s.answer),
      );
    const report = nodes.map((_, i) => {
      const all = seen.filter((s) => s.during && s.node === i).map((s) => s.answer);
      const counts = tally(all);
      const other5xx = all.filter((a) => a.status >= 500 && a.status !== 503).length;
      return { node: i, 302: counts[302] ?? 0, 503: counts[503] ?? 0, other5xx, hot: during('hot', i) };
    });
    console.log(
      'during the cuts',
      JSON.stringify(report),
      'buffered visits at the end of each cut',
      buffered,
    );
    // cached links answered 302 throughout the cuts; what needed the database answered 503
    for (let i = 0; i < nodes.length; i++) {
      expect(Object.keys(during('hot', i))).toEqual(['302']);
      expect(during('cold', i)[503]).toBeGreaterThan(0);
      expect(Object.keys(during('create', i))).toEqual(['503']);
      expect(Object.keys(during('stats', i))).toEqual(['503']);
    }
    expect(Math.max(...buffered)).toBeGreaterThan(0);

    // every 302 served is a click, written once the database answered again
    const served = new Map<string, number>();
    for (const { slug, answer } of seen)
      if (answer.status === 302) served.set(slug, (served.get(slug) ?? 0) + 1);
    const warmed = nodes.length; // the visits before the traffic
    const clicks = async (link: Created) =>
      ((await json(nodes[0]!, `/api/v1/links/${link.id}`, link.edit_token)).clicks as number) ?? -1;
    const expected = (link: Created) => (served.get(link.slug) ?? 0) + (hot.includes(link) ? warmed : 0);
    const links = [...hot, ...cold];
    const counted = async () => Promise.all(links.map(clicks));
    await within(15_000, async () => (await counted()).every((n, i) => n === expected(links[i]!)));
    const wrong = (await counted()).flatMap((n, i) =>
      n === expected(links[i]!) ? [] : [`${links[i]!.slug}: ${n} clicks, ${expected(links[i]!)} served`],
    );
    expect(wrong).toEqual([]);
  }, 90_000);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
