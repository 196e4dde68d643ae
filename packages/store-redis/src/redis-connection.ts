import type { RateLimiter } from '@shortener/core';
import { createClient } from 'redis';
import { createRedisRateLimiter } from './redis-rate-limiter.js';

/** The rate limiter of a server on Redis: it also answers health checks and closes its connection. */
export interface RedisRateLimits extends RateLimiter {
  /** Whether Redis answers now. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

/** Where the limits live and how their keys are named. */
export interface RedisRateLimitsOptions {
  /** `REDIS_URL`. */
  readonly url: string;
  /** The HMAC key naming the subjects (every node must get the same); asked once, when first needed. */
  readonly secret: () => Promise<string>;
  readonly prefix?: string;
}

/**
 * Connects to Redis (in the background, again and again after a loss, up to every 5 s) and limits there.
 * While Redis is unreachable a hit fails at once instead of waiting in a queue: the caller decides
 * what to do then (the server limits on its own meanwhile).
 */
export function openRedisRateLimits(options: RedisRateLimitsOptions): RedisRateLimits {
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 5000) },
  });
  // losses are reported by failing hits and pings; the client reconnects by itself
  client.on('error', () => {});
  void client.connect().catch(() => {});
  let limiter: Promise<RateLimiter> | null = null;
  const ready = (): Promise<RateLimiter> => {
    limiter ??= options.secret().then(
      (secret) =>
        createRedisRateLimiter({ client, secret, ...(options.prefix ? { prefix: options.prefix } : {}) }),
      (error: unknown) => {
        limiter = null;
        throw error;
      },
    );
    return limiter;
  };
  return {
    hit: async (key, windows, cost, now) => {
      if (!client.isReady) throw new Error('Redis is not connected');
      return (await ready()).hit(key, windows, cost, now);
    },
    refund: async (key, cost, at) => {
      if (!client.isReady) throw new Error('Redis is not connected');
      await (await ready()).refund(key, cost, at);
    },
    ping: async () => {
      try {
        return client.isReady && (await client.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    close: async () => {
      if (client.isOpen) client.destroy();
    },
  };
}
