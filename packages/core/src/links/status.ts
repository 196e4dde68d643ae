import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { LinkRecord, LinkStatus } from './link.js';

/** Why a link does not redirect: the reason shown on the 410 page. */
export type GoneReason = 'expired' | 'click_limit' | 'disabled';

/** Why the link is not active at `now`, or null when it is (decisions §3). */
export function goneReason(
  link: Pick<LinkRecord, 'disabled' | 'expiresAt' | 'maxClicks' | 'clicks'>,
  now: number,
): GoneReason | null {
  if (link.disabled) return 'disabled';
  if (link.expiresAt !== null && now >= link.expiresAt) return 'expired';
  if (link.maxClicks !== null && link.clicks >= link.maxClicks) return 'click_limit';
  return null;
}

/** The status derived from a link's fields whenever it is read (decisions §3). */
export function linkStatus(
  link: Pick<LinkRecord, 'disabled' | 'expiresAt' | 'maxClicks' | 'clicks'>,
  now: number,
): LinkStatus {
  const reason = goneReason(link, now);
  if (reason === null) return 'active';
  return reason === 'disabled' ? 'disabled' : 'expired';
}

const DAY_MS = 86_400_000;

/** `expires_in_days` converted to an absolute expiry at write time. */
export function expiryFromDays(days: number, now: number): number {
  return now + Math.round(days * DAY_MS);
}

/**
 * Whether the link has started at `now` (decisions §25): before its `starts_at` a link answers every
 * public request (redirect, preview, `.json`, QR) as an unknown slug does.
 */
export const hasStarted = (link: Pick<LinkRecord, 'startsAt'>, now: number): boolean =>
  // `?? 0`: a record built before the field (a snapshot, a seed script) has none, and has started
  (link.startsAt ?? 0) <= now;

/** A `starts_at` at or after the link's `expires_at` is refused (field `starts_at`): it would never answer. */
export function checkStart(link: Pick<LinkRecord, 'startsAt' | 'expiresAt'>): Result<true> {
  if (link.startsAt === null || link.expiresAt === null || link.startsAt < link.expiresAt) return ok(true);
  return err(domainError('invalid_request', 'starts_at must come before expires_at.', 'starts_at'));
}
