import type { Caller } from '../deps.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import type { KeyRole, MemberRole } from './account.js';

/**
 * What a caller may do to an account's things (decisions §21). Every route, MCP tool and page names the
 * action it performs and this table decides, so no entry point holds a permission rule of its own.
 */
export const ACTIONS = [
  'links.create',
  'links.read',
  'links.change',
  'stats.read',
  'imports.run',
  'members.read',
  'members.manage',
  'owners.manage',
  'keys.manage',
  'webhooks.manage',
  'domains.manage',
  'team.delete',
] as const;
export type Action = (typeof ACTIONS)[number];

/** The member roles, strongest first. */
export const MEMBER_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const satisfies readonly MemberRole[];

/** The key roles (decisions §21); `admin` is the default. */
export const KEY_ROLES = ['admin', 'editor', 'viewer', 'creator'] as const satisfies readonly KeyRole[];

const VIEWER: readonly Action[] = ['links.read', 'stats.read', 'members.read'];
const EDITOR: readonly Action[] = [...VIEWER, 'links.create', 'links.change', 'imports.run'];
const ADMIN: readonly Action[] = [
  ...EDITOR,
  'members.manage',
  'keys.manage',
  'webhooks.manage',
  'domains.manage',
];

/** The actions of each member role: `owner` everything, each role below a part of the one above. */
export const MEMBER_ACTIONS: Readonly<Record<MemberRole, readonly Action[]>> = {
  owner: ACTIONS,
  admin: ADMIN,
  editor: EDITOR,
  viewer: VIEWER,
};

/**
 * What a key's role leaves of its maker's: `admin` all of it, `editor` and `viewer` those members'
 * actions, `creator` only making links.
 */
export const KEY_ACTIONS: Readonly<Record<KeyRole, readonly Action[]>> = {
  admin: ACTIONS,
  editor: EDITOR,
  viewer: VIEWER,
  creator: ['links.create'],
};

/**
 * What a caller holds in the account it acts for: its member role there (`owner` of a person's own
 * account; a team key's is `admin`), and when it is a key, the key's role and limits.
 */
export interface Grant {
  readonly role: MemberRole;
  readonly keyRole: KeyRole | null;
  /** The short domains the key may create on; null: any. */
  readonly domains: readonly string[] | null;
  /** The destination hosts the key may shorten (with their subdomains); null: any. */
  readonly urlHosts: readonly string[] | null;
}

/** Whether the caller may take the action in the account it acts for (no grant: a person in their own account). */
export function permits(caller: Caller, action: Action): boolean {
  const grant = caller.grant;
  if (caller.operator === true || grant === undefined) return true;
  return (
    MEMBER_ACTIONS[grant.role].includes(action) &&
    (grant.keyRole === null || KEY_ACTIONS[grant.keyRole].includes(action))
  );
}

/** The weakest member role that may take the action. */
export const roleNeededFor = (action: Action): MemberRole =>
  [...MEMBER_ROLES].reverse().find((role) => MEMBER_ACTIONS[role].includes(action)) ?? 'owner';

/**
 * `permits` as a result: `forbidden` naming what is missing, the role needed or the key's role that
 * stops it (decisions §21).
 */
export function permission(caller: Caller, action: Action): Result<true> {
  if (permits(caller, action)) return ok(true);
  const grant = caller.grant;
  const needed = roleNeededFor(action);
  if (grant !== undefined && grant.keyRole !== null && MEMBER_ACTIONS[grant.role].includes(action)) {
    const keyRole = grant.keyRole;
    const message =
      keyRole === 'creator'
        ? 'A creator key may only create links.'
        : `This key’s role is ${keyRole}; this needs ${article(needed)} ${needed} key or a stronger one.`;
    return err(domainError('forbidden', message));
  }
  return err(domainError('forbidden', `This needs the ${needed} role or a stronger one.`));
}

const article = (role: string): string => (/^[aeiou]/.test(role) ? 'an' : 'a');

/** Whether a role is at most another: `admin` ≤ `owner`, `creator` ≤ `editor` (it only creates). */
export function keyRoleWithin(keyRole: KeyRole, holder: Grant | undefined): boolean {
  if (holder === undefined) return true;
  const wanted = KEY_ACTIONS[keyRole];
  const held = (action: Action) =>
    MEMBER_ACTIONS[holder.role].includes(action) &&
    (holder.keyRole === null || KEY_ACTIONS[holder.keyRole].includes(action));
  // an admin key acts with its maker's role, so any holder of keys.manage may make one
  return keyRole === 'admin' ? held('keys.manage') : wanted.every(held);
}

/** Whether a destination host is within a key's `url_hosts`: the name itself or one of its subdomains. */
export function hostAllowed(host: string, allowed: readonly string[] | null): boolean {
  if (allowed === null) return true;
  const name = host.toLowerCase().replace(/\.$/, '');
  return allowed.some((entry) => name === entry || name.endsWith(`.${entry}`));
}

/**
 * The key limits of decisions §21 on a link being made or pointed elsewhere: its short domain within the
 * key's `domains`, its destination's host within `url_hosts`; else `forbidden`, the field named.
 */
export function withinKeyLimits(
  caller: Caller,
  link: { readonly domain?: string | undefined; readonly url?: string | undefined },
): Result<true> {
  const grant = caller.grant;
  if (grant === undefined || caller.operator === true) return ok(true);
  if (link.domain !== undefined && grant.domains !== null && !grant.domains.includes(link.domain))
    return err(domainError('forbidden', 'This key may not create links on that domain.', 'domain'));
  if (link.url !== undefined && grant.urlHosts !== null && !hostAllowed(hostOf(link.url), grant.urlHosts))
    return err(domainError('forbidden', 'This key may not shorten links to that host.', 'url'));
  return ok(true);
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
};

/**
 * The account a caller acts for, when it may take `action` there: `unauthorized` without an account,
 * `forbidden` (naming the role needed) without the right.
 */
export function accountFor(
  caller: Caller,
  action: Action,
  missing = 'An API key is required.',
): Result<string> {
  if (caller.accountId === null) return err(domainError('unauthorized', missing));
  const allowed = permission(caller, action);
  return allowed.ok ? ok(caller.accountId) : allowed;
}
