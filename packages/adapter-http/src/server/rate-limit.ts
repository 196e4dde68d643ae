import type { RateDecision } from '@shortener/core';

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
