import { sha256Hex } from '../secrets.js';

const DAY_MS = 86_400_000;

/** The UTC day (`YYYY-MM-DD`) of an epoch-millisecond time. */
export function dayOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The day `offset` days from `day` (negative goes back). */
export function addDays(day: string, offset: number): string {
  return dayOf(Date.parse(`${day}T00:00:00Z`) + offset * DAY_MS);
}

/**
 * The unique-visitor hash of decisions §7: SHA-256 of the secret daily salt, the link id, the IP and the
 * User-Agent. The salt is deleted after its day, so the hash cannot be reversed or linked across days.
 */
export function hashVisitor(salt: string, linkId: string, ip: string, userAgent: string): string {
  return sha256Hex([salt, linkId, ip, userAgent].join('\u0000'));
}
