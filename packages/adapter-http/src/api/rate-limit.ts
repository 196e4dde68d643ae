import type { Caller, RateDecision } from '@shortener/core';
import { spendCreations } from '@shortener/core';
import type { HttpDeps } from '../deps.js';
import { guardedCoreOf } from '../deps.js';

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
 * Spends `cost` creation units of the caller from core's creation budget (one per link; bulk one per
 * URL), counting a refusal on `/metrics`.
 */
export async function consumeCreations(
  deps: Pick<HttpDeps, 'core' | 'rateLimiter' | 'metrics'>,
  caller: Caller,
  ip: string,
  cost: number,
): Promise<RateDecision> {
  const decision = await spendCreations(guardedCoreOf(deps), caller, ip, cost);
  if (!decision.allowed) deps.metrics?.limited('creation');
  return decision;
}
