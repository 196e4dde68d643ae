import { randomBytes } from 'node:crypto';
import { describeRateLimiterContract, FIXTURE_TIME, scaleBackendUrl } from '@shortener/testkit';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisRateLimiter, openRedisRateLimits } from '../src/index.js';

const REDIS_URL = scaleBackendUrl('REDIS_URL');

describe.runIf(REDIS_URL !== null)('Redis', () => {
  const client = createClient({ url: REDIS_URL ?? '' });
  const prefixes: string[] = [];
  /** A limiter on keys no other test uses (removed after the file). */
  const fresh = (secret = 'test-secret') => {
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    prefixes.push(prefix);
    return { prefix, limiter: createRedisRateLimiter({ client, secret, prefix }) };
  };
  beforeAll(async () => {
    await client.connect();
  });
  afterAll(async () => {
    for (const prefix of prefixes) {
      for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 1000 })) {
        if (keys.length > 0) await client.del(keys);
      }
    }
    client.destroy();
  });

  describeRateLimiterContract('Redis', () => fresh().limiter);

  it('admits exactly the limit of 2,000 concurrent hits from four clients', async () => {
    const { prefix } = fresh();
    const clients = await Promise.all(
      [0, 1, 2, 3].map(() => createClient({ url: REDIS_URL ?? '' }).connect()),
    );
    try {
      const limiters = clients.map((c) => createRedisRateLimiter({ client: c, secret: 's', prefix }));
      const windows = [{ windowMs: 3_600_000, limit: 60 }];
      const hits = Array.from({ length: 2000 }, (_, i) =>
        limiters[i % 4]!.hit('1.2.3.4', windows, 1, Date.now()),
      );
      const decisions = await Promise.all(hits);
      expect(decisions.filter((d) => d.allowed)).toHaveLength(60);
    } finally {
      clients.forEach((c) => c.destroy());
    }
  });

  it('writes no subject to Redis, only its keyed hash, and lets the keys expire', async () => {
    const { prefix, limiter } = fresh();
    await limiter.hit('203.0.113.7', [{ windowMs: 60_000, limit: 5 }], 1, FIXTURE_TIME);
    const keys: string[] = [];
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*` })) keys.push(...batch);
    expect(keys).toHaveLength(2);
    expect(keys.join(' ')).not.toContain('203.0.113.7');
    for (const key of keys) {
      const ttl = await client.pTTL(key);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    }
  });

  it('keeps the limits of one subject apart under two secrets', async () => {
    const { prefix } = fresh();
    const windows = [{ windowMs: 60_000, limit: 1 }];
    const a = createRedisRateLimiter({ client, secret: 'a', prefix });
    const b = createRedisRateLimiter({ client, secret: 'b', prefix });
    expect((await a.hit('k', windows, 1, FIXTURE_TIME)).allowed).toBe(true);
    expect((await b.hit('k', windows, 1, FIXTURE_TIME)).allowed).toBe(true);
    expect((await a.hit('k', windows, 1, FIXTURE_TIME)).allowed).toBe(false);
  });

  it('sends the script again when Redis has forgotten it', async () => {
    const { limiter } = fresh();
    await client.scriptFlush();
    const decision = await limiter.hit('k', [{ windowMs: 1000, limit: 2 }], 1, FIXTURE_TIME);
    expect(decision).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('waits for the first connection of nodes just opened: 60 hits at once on two admit the limit exactly', async () => {
    const prefix = `test:${randomBytes(6).toString('hex')}:`;
    prefixes.push(prefix);
    const secret = async () => 'test-secret';
    const nodes = [0, 1].map(() => openRedisRateLimits({ url: REDIS_URL ?? '', secret, prefix }));
    try {
      const windows = [{ windowMs: 3_600_000, limit: 20 }];
      const decisions = await Promise.all(
        Array.from({ length: 60 }, (_, i) => nodes[i % 2]!.hit('203.0.113.61', windows, 1, Date.now())),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
    } finally {
      await Promise.all(nodes.map((node) => node.close()));
    }
  });

  it('fails a hit within the first connection’s wait when Redis cannot be reached', async () => {
    const unreachable = openRedisRateLimits({ url: 'redis://127.0.0.1:1', secret: async () => 's' });
    try {
      const started = Date.now();
      await expect(unreachable.hit('k', [{ windowMs: 1000, limit: 1 }], 1, started)).rejects.toThrow(
        'Redis is not connected',
      );
      expect(Date.now() - started).toBeLessThan(10_000);
      // once that wait is over, a hit fails at once
      const again = Date.now();
      await expect(unreachable.hit('k', [{ windowMs: 1000, limit: 1 }], 1, again)).rejects.toThrow();
      expect(Date.now() - again).toBeLessThan(1_000);
    } finally {
      await unreachable.close();
    }
  });
});
