import type { Caller, RateDecision, RateWindow } from '@shortener/core';
import { limitSubjectOf } from '@shortener/core';
import type { HttpDeps } from './deps.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** When each account was made, as far as this process has asked (it never changes): bounded. */
const madeAt = new Map<string, number>();
const MADE_AT_ENTRIES = 10_000;

/** When the account was made (0 when it is unknown, which is never young). */
async function createdAtOf(deps: Pick<HttpDeps, 'core'>, accountId: string): Promise<number> {
  const known = madeAt.get(accountId);
  if (known !== undefined) return known;
  const createdAt = (await deps.core.accounts.findAccountById(accountId))?.createdAt ?? 0;
  if (madeAt.size >= MADE_AT_ENTRIES) madeAt.clear();
  madeAt.set(accountId, createdAt);
  return createdAt;
}

/**
 * The creation windows of a caller (interface §8): per IP when anonymous, per account with a key. With
 * `SIGNUP=open`, an account in its first 24 hours has the anonymous limits (decisions §14), so signing
 * up many accounts cannot multiply them; operator-made accounts elsewhere are trusted from the start.
 */
async function windowsFor(
  deps: Pick<HttpDeps, 'core'>,
  caller: Caller,
): Promise<{ key: string; windows: RateWindow[] }> {
  const { limits } = deps.core.config;
  const anonymous = [
    { windowMs: HOUR, limit: limits.anonPerHour },
    { windowMs: DAY, limit: limits.anonPerDay },
  ];
  if (caller.accountId === null) return { key: 'anon', windows: anonymous };
  const key = `account:${caller.accountId}`;
  const young =
    deps.core.config.signup === 'open' &&
    deps.core.clock.now() - (await createdAtOf(deps, caller.accountId)) < DAY;
  return { key, windows: young ? anonymous : [{ windowMs: HOUR, limit: limits.keyPerHour }] };
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
  const { key, windows } = await windowsFor(deps, caller);
  const subject =
    caller.accountId === null ? `${key}:${limitSubjectOf(ip, deps.core.config.limits.ipv6PrefixBits)}` : key;
  const decision = await deps.rateLimiter.hit(subject, windows, cost, deps.core.clock.now());
  if (!decision.allowed) deps.metrics?.limited('creation');
  return decision;
}
