import type { Caller } from '../deps.js';
import { digestsEqual, sha256Hex } from '../secrets.js';
import type { LinkRecord } from './link.js';

type Guarded = Pick<LinkRecord, 'accountId' | 'editTokenHash' | 'publicStats'>;

/** The owning account's key, or the edit token of an anonymous link (interface §5 rule 2); or the operator. */
function isOwner(link: Guarded, caller: Caller): boolean {
  if (caller.operator === true) return true;
  if (caller.accountId !== null && link.accountId === caller.accountId) return true;
  if (caller.editToken === null || link.editTokenHash === null || link.accountId !== null) return false;
  return digestsEqual(sha256Hex(caller.editToken), link.editTokenHash);
}

/**
 * The access rules, one pure function per use case, so every adapter enforces the same ones.
 * A caller without access gets `forbidden`; an unknown link `not_found` (decisions §6).
 */
export const linkAccess = {
  /** Link detail: owner key or edit token. */
  read: isOwner,
  /** Edit: owner key or edit token. */
  edit: isOwner,
  /** Delete: owner key or edit token. */
  delete: isOwner,
  /** Statistics: anyone when public, else owner key or edit token (interface §4 rule 1). */
  stats: (link: Guarded, caller: Caller): boolean => link.publicStats || isOwner(link, caller),
} as const;

/** An access rule: may this caller do it to this link? */
export type AccessRule = (link: Guarded, caller: Caller) => boolean;
