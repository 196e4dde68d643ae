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
