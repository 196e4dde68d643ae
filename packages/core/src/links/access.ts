import type { Action } from '../accounts/permissions.js';
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
 * An access rule: who may do it to this link (`allows`), and the action a member of the owning account
 * needs for it (decisions §21), unless the link is `openTo` everyone for it.
 */
export interface AccessRule {
  readonly allows: (link: Guarded, caller: Caller) => boolean;
  readonly action: Action;
  readonly openTo?: (link: Guarded) => boolean;
}

/**
 * The access rules, one per use case, so every adapter enforces the same ones.
 * A caller without access gets `forbidden`; an unknown link `not_found` (decisions §6).
 */
export const linkAccess = {
  /** Link detail: owner key or edit token. */
  read: { allows: isOwner, action: 'links.read' },
  /** Edit: owner key or edit token. */
  edit: { allows: isOwner, action: 'links.change' },
  /** Delete: owner key or edit token. */
  delete: { allows: isOwner, action: 'links.change' },
  /** Statistics: anyone when public, else owner key or edit token (interface §4 rule 1). */
  stats: {
    allows: (link: Guarded, caller: Caller): boolean => link.publicStats || isOwner(link, caller),
    action: 'stats.read',
    openTo: (link: Guarded) => link.publicStats,
  },
} as const satisfies Record<string, AccessRule>;
