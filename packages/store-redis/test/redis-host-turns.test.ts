import { randomBytes } from 'node:crypto';
import { HostGate } from '@shortener/core';
import { scaleBackendUrl } from '@shortener/testkit';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisHostTurns } from '../src/index.js';

// Decisions §23 on many nodes: link health's one request at a time per destination host, and its gap,
// hold for every node on one Redis. Each gate stands for a node (its own process-local queue).

const REDIS_URL = scaleBackendUrl('REDIS_URL');
const GAP_MS = 60;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe.runIf(REDIS_URL !== null)('host turns in Redis', () => {
  const clients = [0, 1, 2].map(() => createClient({ url: REDIS_URL ?? '' }));
  const prefix = `test:${randomBytes(6).toString('hex')}:host:`;
  beforeAll(async () => {
    await Promise.all(clients.map((c) => c.connect()));
  });
  afterAll(async () => {
    for await (const keys of clients[0]!.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
      if (keys.length > 0) await clients[0]!.del(keys);
    }
    clients.forEach((c) => c.destroy());
  });

  it('let three nodes ask one host one at a time, each the gap after the last answer', async () => {
    const gates = clients.map(
      (client) => new HostGate(GAP_MS, () => Date.now(), sleep, createRedisHostTurns(client, prefix)),
    );
    const requests: { start: number; end: number }[] = [];
    let running = 0;
    let overlapped = false;
    const request = async () => {
      running += 1;
      overlapped ||= running > 1;
      const start = Date.now();
      await sleep(15);
      running -= 1;
      requests.push({ start, end: Date.now() });
    };
    // four requests per node to one host, all at once; another host is not held up by it
    const other = gates[0]!.run('other.example', async () => Date.now());
    await Promise.all(gates.flatMap((gate) => [0, 1, 2, 3].map(() => gate.run('site.example', request))));
    expect(requests).toHaveLength(12);
    expect(overlapped).toBe(false);
    const sorted = [...requests].sort((a, b) => a.start - b.start);
    const gaps = sorted.slice(1).map((r, i) => r.start - sorted[i]!.end);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(GAP_MS - 1);
    expect((await other) - sorted[0]!.start).toBeLessThan(GAP_MS); // not queued behind site.example
  });

  it('names no host in Redis, and a held turn expires should its node die', async () => {
    const turns = createRedisHostTurns(clients[0]!, prefix);
    expect(await turns.take('dies.example', 200)).toBe(0);
    const waited = await createRedisHostTurns(clients[1]!, prefix).take('dies.example', 200);
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(200);
    const keys: string[] = [];
    for await (const batch of clients[0]!.scanIterator({ MATCH: `${prefix}*` })) keys.push(...batch);
    expect(keys.join(' ')).not.toContain('dies.example');
    await sleep(waited + 20);
    expect(await createRedisHostTurns(clients[1]!, prefix).take('dies.example', 200)).toBe(0);
  });

  it('keeps a node to its own gate while Redis does not answer', async () => {
    const away = createClient({ url: 'redis://127.0.0.1:1', disableOfflineQueue: true });
    away.on('error', () => {});
    const gate = new HostGate(GAP_MS, () => Date.now(), sleep, createRedisHostTurns(away, prefix));
    const started = Date.now();
    const results = await Promise.all([1, 2].map((n) => gate.run('away.example', async () => n)));
    expect(results).toEqual([1, 2]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(GAP_MS - 1); // its own gap still held
  });
});
