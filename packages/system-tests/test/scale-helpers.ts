import { spawn } from 'node:child_process';
import { Agent } from 'node:http';
import { afterAll, beforeAll } from 'vitest';
import { buildBinary, collect, envOf, launcher, listeningUrl } from './bin-helpers.js';
import type { Finished } from './bin-helpers.js';
import { getStatus } from './http/load.js';
import { freshPostgresStore } from './http/test-store.js';
import type { TestStore } from './http/test-store.js';

/** The short domain every node serves, as behind one load balancer. */
export const HOST = 'sho.example';
/** Limits high enough for the tests, and the proxy's `X-Forwarded-For` believed (a test's "clients"). */
export const LIMITS = { RATE_LIMIT_ANON_HOUR: '100000', RATE_LIMIT_ANON_DAY: '100000', TRUST_PROXY: 'true' };

/** A `shortener serve` child process. */
export interface Node {
  readonly url: string;
  readonly port: number;
  readonly done: Promise<Finished>;
  /** What it logged so far. */
  stderr(): string;
  /** SIGTERM, and its exit. */
  stop(): Promise<Finished>;
}

/** `shortener serve` as a child process on a free port; resolves once it listens. */
export async function serve(env: Record<string, string>): Promise<Node> {
  const child = spawn(process.execPath, [launcher, 'serve'], {
    env: envOf({ PORT: '0', SHORT_DOMAINS: `https://${HOST}`, ...LIMITS, ...env }),
  });
  const { done, stderr } = collect(child);
  const url = await listeningUrl(stderr, 15_000).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  const stop = () => (child.kill('SIGTERM'), done);
  return { url, port: Number(new URL(url).port), done, stderr, stop };
}

/** A visit of `/{slug}` on `node` through `agent`, from `client` (its X-Forwarded-For); the status. */
export const visitOn = (
  agent: Agent,
  node: Node,
  slug: string,
  client = '198.51.100.1',
  ua = 'Mozilla/5.0 Firefox/140.0',
) => getStatus(agent, node.port, `/${slug}`, { host: HOST, 'x-forwarded-for': client, 'user-agent': ua });

/** Polls `check` until it returns true, up to `ms`; false when it never did. */
export async function within(ms: number, check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check().catch(() => false)) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `shortener serve` nodes on one fresh PostgreSQL schema (and Redis), with a keep-alive agent. */
export interface Cluster {
  /** The schema's store, set before the block's tests. */
  store: TestStore;
  /** The running nodes, started before the block's tests; a test may replace them (they are stopped after). */
  nodes: Node[];
  readonly agent: Agent;
}

/**
 * A {@link Cluster} of `size` nodes for the tests of one describe block: built binary, fresh schema and
 * nodes before them; agent, nodes and schema gone after them.
 */
export function useCluster(size: number, maxSockets: number): Cluster {
  const cluster = { nodes: [], agent: new Agent({ keepAlive: true, maxSockets }) } as unknown as Cluster;
  beforeAll(async () => {
    buildBinary();
    cluster.store = await freshPostgresStore(true);
    cluster.nodes = await Promise.all(Array.from({ length: size }, () => serve(cluster.store.env)));
  }, 30_000);
  afterAll(async () => {
    cluster.agent.destroy();
    await Promise.all(cluster.nodes.map((node) => node.stop()));
    await cluster.store?.drop();
  });
  return cluster;
}
