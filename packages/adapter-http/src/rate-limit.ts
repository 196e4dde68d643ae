import type { Caller, RateDecision, RateWindow } from '@shortener/core';
import { limitSubjectOf } from '@shortener/core';
import type { HttpDeps } from './deps.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The creation windows of a caller: per IP when anonymous, per account with a key (interface §8). */
function windowsFor(deps: Pick<HttpDeps, 'core'>, caller: Caller): { key: string; windows: RateWindow[] } {
  const { limits } = deps.core.config;
  return caller.accountId === null
    ? {
        key: 'anon',
        windows: [
          { windowMs: HOUR, limit: limits.anonPerHour },
          { windowMs: DAY, limit: limits.anonPerDay },
        ],
      }
    : { key: `account:${caller.accountId}`, windows: [{ windowMs: HOUR, limit: limits.keyPerHour }] };
}

/** Response headers of a limiter decision: `RateLimit-*` always, `Retry-After` when refused (seconds). */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(Math.ceil(decision.resetMs / 1000)),
  };
  if (!decision.allowed)
    headers['Retry-After'] = String(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
  return headers;
}

/**
 * Consumes `cost` creation units for the caller (one per link; bulk consumes one per URL, refused whole
 * when it does not fit). MCP's `shorten_url` goes through it too, so both share one budget. The IP (an
 * IPv6 address by its prefix) is only a key of the in-memory limiter, never written anywhere.
 */
export async function consumeCreations(
  deps: Pick<HttpDeps, 'core' | 'rateLimiter' | 'metrics'>,
  caller: Caller,
  ip: string,
  cost: number,
): Promise<RateDecision> {
  const { key, windows } = windowsFor(deps, caller);
  const subject =
    caller.accountId === null ? `${key}:${limitSubjectOf(ip, deps.core.config.limits.ipv6PrefixBits)}` : key;
  const decision = await deps.rateLimiter.hit(subject, windows, cost, deps.core.clock.now());
  if (!decision.allowed) deps.metrics?.limited('creation');
  return decision;
}
