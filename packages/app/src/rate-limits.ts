import type { HostTurns, RateLimiter, SettingStore } from '@shortener/core';
import { createMemoryRateLimiter } from '@shortener/store-memory';
import type { AppConfig } from './config.js';
import type { AppLogger } from './logger.js';
import { sharedSecret } from './shared-secret.js';

/** The setting holding the HMAC key of the limits' names in Redis, shared by every node. */
const SECRET_SETTING = 'rate_limit_key';

/** The creation and password limits of a server, and what `/healthz` and shutdown need of them. */
export interface RateLimits extends RateLimiter {
  /**
   * Turns at destination hosts for link health shared by every node (Redis), or null: each process
   * keeps to its own gate (core's HostGate, which falls back to it while Redis is away).
   */
  readonly hostTurns: HostTurns | null;
  /** Null while the limits work as configured, else why not (`/healthz`). */
  check(): Promise<string | null>;
  close(): Promise<void>;
}

/**
 * The rate limits of `config`: in Redis (`REDIS_URL`), shared by every node; otherwise in this process.
 * While Redis does not answer, a node limits on its own (and says so in the log and in `/healthz`)
 * rather than refusing every creation or letting every one through.
 */
export function createRateLimits(config: AppConfig, settings: SettingStore, logger: AppLogger): RateLimits {
  const local = createMemoryRateLimiter();
  const url = config.store.redisUrl;
  if (url === null) {
    return {
      hit: local.hit,
      refund: local.refund,
      hostTurns: null,
      check: async () => null,
      close: async () => {},
    };
  }
  // loaded only where Redis is configured: its client is about 11 MB of a server's memory
  const opened = import('@shortener/store-redis').then(({ openRedisRateLimits }) =>
    openRedisRateLimits({ url, secret: () => sharedSecret(settings, SECRET_SETTING) }),
  );
  opened.catch(() => undefined); // a failed load is answered by each call's fallback, not unhandled
  return {
    hostTurns: {
      take: async (host, holdMs) => (await opened).hostTurns.take(host, holdMs),
      giveBack: async (host, gapMs) => (await opened).hostTurns.giveBack(host, gapMs),
    },
    hit: async (key, windows, cost, now) => {
      try {
        return await (await opened).hit(key, windows, cost, now);
      } catch (error) {
        logger.warn('rate limits are this node’s own: Redis does not answer', { error: String(error) });
        return local.hit(key, windows, cost, now);
      }
    },
    refund: async (key, cost, at) => {
      // a hit the fallback took is given back there; one of Redis there (both: nothing is over-refunded)
      await local.refund(key, cost, at);
      await opened.then((redis) => redis.refund(key, cost, at)).catch(() => undefined);
    },
    check: async () =>
      (await (await opened).ping()) ? null : 'Redis does not answer (rate limits are this node’s own)',
    close: async () => (await opened).close(),
  };
}
