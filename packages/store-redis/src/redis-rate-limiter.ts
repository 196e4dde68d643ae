import { createHmac } from 'node:crypto';
import type { RateDecision, RateLimiter } from '@shortener/core';
import { REFUND_SCRIPT, ROLLING_WINDOW_SCRIPT } from './rolling-window.lua.js';
import { runScript } from './run-script.js';
import type { RedisScripting } from './run-script.js';

/** Where the limiter keeps its keys, and how it names them. */
export interface RedisRateLimiterOptions {
  readonly client: RedisScripting;
  /**
   * The key of the HMAC that names each subject in Redis: the limits' keys (which may hold an IP
   * address) never reach Redis. Every node must use the same secret to share the limits.
   */
  readonly secret: string;
  /** Put before every key (default `shortener:limit:`); tests use one per test. */
  readonly prefix?: string;
}

/**
 * A rolling-window RateLimiter in Redis, shared by every node that uses the same Redis, secret and
 * prefix: one Lua script per hit (atomic), two keys per subject that expire with its longest window.
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const { client, secret, prefix = 'shortener:limit:' } = options;
  const run = async (script: string, key: string, numbers: number[]): Promise<unknown> => {
    // a hash tag keeps both keys of a subject on one Redis Cluster slot
    const subject = `${prefix}{${createHmac('sha256', secret).update(key).digest('base64url')}}`;
    const options = {
      keys: [`${subject}:t`, `${subject}:c`],
      arguments: numbers.map((n) => String(Math.trunc(n))),
    };
    return runScript(client, script, options);
  };
  return {
    hit: async (key, windows, cost, now) => {
      if (windows.length === 0 || cost < 0) throw new RangeError('A hit needs windows and a cost >= 0.');
      const numbers = [now, cost, ...windows.flatMap((w) => [w.windowMs, w.limit])];
      return toDecision(await run(ROLLING_WINDOW_SCRIPT, key, numbers));
    },
    refund: async (key, cost, at) => {
      await run(REFUND_SCRIPT, key, [at, cost]);
    },
  };
}

function toDecision(reply: unknown): RateDecision {
  if (!Array.isArray(reply) || reply.length !== 5 || !reply.every((n) => typeof n === 'number')) {
    throw new Error(`Unexpected reply of the rate limit script: ${JSON.stringify(reply)}`);
  }
  const [allowed, limit, remaining, resetMs, retryAfterMs] = reply as number[];
  return {
    allowed: allowed === 1,
    limit: limit!,
    remaining: remaining!,
    resetMs: resetMs!,
    retryAfterMs: retryAfterMs!,
  };
}
