import type { HostTurns, RateLimiter } from '@shortener/core';
import { createClient } from 'redis';
import { createRedisHostTurns } from './redis-host-turns.js';
import { createRedisRateLimiter } from './redis-rate-limiter.js';

/**
 * The rate limiter of a server on Redis, and the link-health turns at destination hosts (one request to
 * a host at a time for every node): it also answers health checks and closes its connection.
 */
export interface RedisRateLimits extends RateLimiter {
  readonly hostTurns: HostTurns;
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
 * How long a node just started waits for its first connection before a hit fails: a node serves before
 * its client has connected, and its first creations, limited on its own, would pass a limit every node
 * shares (60 creations at once on two new nodes made 21 of a limit of 20).
 */
const FIRST_CONNECT_WAIT_MS = 2500;

/**
 * Connects to Redis (in the background, again and again after a loss, up to every 5 s) and limits there.
 * While Redis is unreachable a hit fails at once instead of waiting in a queue: the caller decides
 * what to do then (the server limits on its own meanwhile). Only the first connection, at start, is
 * waited for, up to {@link FIRST_CONNECT_WAIT_MS}.
 */
export function openRedisRateLimits(options: RedisRateLimitsOptions): RedisRateLimits {
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 5000) },
  });
  // losses are reported by failing hits and pings; the client reconnects by itself
  client.on('error', () => {});
  const startedAt = Date.now();
  const firstConnect = client.connect().then(
    () => undefined,
    () => undefined,
  );
  /** Fails unless connected; at start, after waiting for the first connection. */
  const connected = async (): Promise<void> => {
    const left = FIRST_CONNECT_WAIT_MS - (Date.now() - startedAt);
    if (!client.isReady && left > 0) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, left).unref()));
      await Promise.race([firstConnect, waited]);
      clearTimeout(timer);
    }
    if (!client.isReady) throw new Error('Redis is not connected');
  };
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
  const turns = createRedisHostTurns(
    client,
    options.prefix === undefined ? undefined : `${options.prefix}host:`,
  );
  return {
    hostTurns: {
      take: async (host, holdMs) => (await connected(), turns.take(host, holdMs)),
      giveBack: async (host, gapMs) => (await connected(), turns.giveBack(host, gapMs)),
    },
    hit: async (key, windows, cost, now) => {
      await connected();
      return (await ready()).hit(key, windows, cost, now);
    },
    refund: async (key, cost, at) => {
      await connected();
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
