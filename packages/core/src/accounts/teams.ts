import type { Caller, CoreDeps } from '../deps.js';
import { domainError } from '../errors.js';
import type { Result } from '../result.js';
import { err, ok } from '../result.js';
import { digestsEqual, generateSecret, randomUuid, sha256Hex } from '../secrets.js';
import type { Account, ApiKeyRecord, MemberRole, TeamInviteRecord } from './account.js';
import type { Member } from './account-ports.js';
import { accountNameKey, findAccountByName, isAccountName, normalizeAccountName } from './accounts.js';
import type { Action } from './permissions.js';
import { permission } from './permissions.js';

// Teams (decisions §21): accounts people act for. Who may do what is permissions.ts; here, who acts for
// which account, and the members and invites of a team.

type Deps = Pick<CoreDeps, 'accounts' | 'teams' | 'clock' | 'random' | 'config'>;

const DAY = 86_400_000;
/** Invite links work 7 days unless asked otherwise, 90 at most. */
export const TEAM_INVITE_DAYS = 7;
export const MAX_TEAM_INVITE_DAYS = 90;
const TEAM_INVITE_TOKEN = /^tinv_[0-9A-Za-z]{32}$/;

/** A team as its members see it: its name, and the caller's role there. */
export interface TeamView {
  readonly name: string;
  readonly kind: 'team';
  readonly role: MemberRole;
}

/** A new invite: the one-time URL is shown once; only its token's SHA-256 is stored. */
export interface TeamInvite {
  readonly url: string;
  readonly role: MemberRole;
  readonly expiresAt: number;
}

const noSuchTeam = () => err(domainError('not_found', 'No such team.', 'team'));
const noSuchMember = () => err(domainError('not_found', 'No such member.', 'member'));

/** The caller of a key: its account, the key's role and limits, recorded as `key:<prefix>`. */
export function keyCaller(key: ApiKeyRecord, account: Account, editToken: string | null): Caller {
  const limits = { keyRole: key.role, domains: key.domains, urlHosts: key.urlHosts };
  const by = `key:${key.prefix}`;
  if (account.kind === 'team')
    return { accountId: account.id, editToken, by, grant: { role: 'admin', ...limits } };
  // a full key without limits is its person in their own account: no grant to check
  const full = key.role === 'admin' && key.domains === null && key.urlHosts === null;
  return {
    accountId: account.id,
    editToken,
    personId: account.id,
    by,
    ...(full ? {} : { grant: { role: 'owner', ...limits } }),
  };
}

/** The caller of a person's session: the person in their own account. */
export const sessionCaller = (person: Account, editToken: string | null = null): Caller => ({
  accountId: person.id,
  editToken,
  personId: person.id,
  by: person.name,
});

/**
 * The caller acting for the account named `name` (`Shortener-Account`, the pages' switcher): the
 * person's own account, or a team they belong to with their role there (a key's role and limits kept).
 * Anything else, a team they are not in included, is `not_found` (decisions §21); a team key acts only as
 * its team.
 */
export async function actingFor(deps: Deps, caller: Caller, name: string): Promise<Result<Caller>> {
  // what no account can be called names nothing (and never reaches a store: a NUL, 10 kB of text)
  if (!isAccountName(normalizeAccountName(name))) return noSuchTeam();
  const account = await findAccountByName(deps, name.trim());
  if (account === null || account.disabledAt !== null) return noSuchTeam();
  if (account.id === caller.accountId) return ok(caller);
  if (caller.personId === undefined || account.kind !== 'team' || caller.operator === true)
    return noSuchTeam();
  const membership = await deps.teams.findMembership(account.id, caller.personId);
  if (membership === null) return noSuchTeam();
  const limits = caller.grant ?? { keyRole: null, domains: null, urlHosts: null };
  return ok({
    ...caller,
    accountId: account.id,
    grant: {
      role: membership.role,
      keyRole: limits.keyRole,
      domains: limits.domains,
      urlHosts: limits.urlHosts,
    },
  });
}

/** The caller acting for team `name`, refused unless it may take `action` there. */
export async function teamCaller(
  deps: Deps,
  caller: Caller,
  name: string,
  action: Action,
): Promise<Result<Caller & { readonly accountId: string }>> {
  const acting = await actingFor(deps, caller, name);
  if (!acting.ok) return acting;
  if (acting.value.accountId === caller.personId) return noSuchTeam(); // a person is not a team
  const allowed = permission(acting.value, action);
  if (!allowed.ok) return allowed;
  return ok(acting.value as Caller & { accountId: string });
}

/** Makes a team whose first owner is the calling person (decisions §21); names are accounts' names. */
export async function createTeam(deps: Deps, caller: Caller, name: string): Promise<Result<TeamView>> {
  if (caller.personId === undefined || caller.accountId !== caller.personId)
    return err(domainError('forbidden', 'Only a person makes teams, with their own session or key.'));
  const allowed = permission(caller, 'members.manage');
  if (!allowed.ok) return allowed;
  const trimmed = normalizeAccountName(name);
  if (!isAccountName(trimmed))
    return err(domainError('invalid_request', 'Team names are 1-64 letters, digits, _ . @ -.', 'name'));
  const now = deps.clock.now();
  const team: Account = {
    id: randomUuid(deps.random),
    name: trimmed,
    kind: 'team',
    role: 'user',
    createdAt: now,
    disabledAt: null,
  };
  const owner = { teamId: team.id, personId: caller.personId, role: 'owner' as const, joinedAt: now };
  const made = await deps.teams.createTeam(team, owner);
  return made.ok ? ok({ name: made.value.name, kind: 'team', role: 'owner' }) : made;
}

/** The teams the calling person belongs to, with their role in each. */
export async function listTeams(deps: Deps, caller: Caller): Promise<Result<TeamView[]>> {
  if (caller.personId === undefined) return ok([]);
  const teams = await deps.teams.listTeamsOf(caller.personId);
  return ok(
    teams
      .filter(({ team }) => team.disabledAt === null)
      .map(({ team, role }) => ({ name: team.name, kind: 'team', role })),
  );
}

/** The members of a team, for any member. */
export async function listMembers(deps: Deps, caller: Caller, team: string): Promise<Result<Member[]>> {
  const acting = await teamCaller(deps, caller, team, 'members.read');
  return acting.ok ? ok(await deps.teams.listMembers(acting.value.accountId)) : acting;
}

/** Making or unmaking an owner takes an owner; any other change of members an admin. */
const memberAction = (roles: readonly MemberRole[]): Action =>
  roles.includes('owner') ? 'owners.manage' : 'members.manage';

/**
 * A one-time invite link into the team with `role`, working `days` days (decisions §21). Admins invite;
 * only owners invite owners.
 */
export async function inviteToTeam(
  deps: Deps,
  caller: Caller,
  team: string,
  input: { readonly role: MemberRole; readonly expiresInDays?: number | undefined },
): Promise<Result<TeamInvite>> {
  const acting = await teamCaller(deps, caller, team, memberAction([input.role]));
  if (!acting.ok) return acting;
  const days = input.expiresInDays ?? TEAM_INVITE_DAYS;
  const token = generateSecret(deps.random, 'tinv_');
  const now = deps.clock.now();
  const invite: TeamInviteRecord = {
    tokenHash: sha256Hex(token),
    teamId: acting.value.accountId,
    role: input.role,
    createdBy: caller.personId ?? acting.value.accountId,
    createdAt: now,
    expiresAt: now + days * DAY,
    usedAt: null,
    usedBy: null,
  };
  await deps.teams.addTeamInvite(invite);
  return ok({
    url: teamInviteUrl(deps.config.baseUrl, token),
    role: input.role,
    expiresAt: invite.expiresAt,
  });
}

/** `{base_url}/join/{token}`: opened signed in, or posted to with a person's key or session. */
export const teamInviteUrl = (baseUrl: string, token: string): string =>
  `${baseUrl.replace(/\/$/, '')}/join/${token}`;

/** What an invite token offers, for the page that asks a signed-out person to sign in first. */
export async function findTeamInvite(
  deps: Deps,
  token: string,
): Promise<{ readonly team: string; readonly role: MemberRole } | null> {
  if (!TEAM_INVITE_TOKEN.test(token)) return null;
  const hash = sha256Hex(token);
  const invite = await deps.teams.findTeamInvite(hash);
  if (invite === null || !digestsEqual(invite.tokenHash, hash)) return null;
  if (invite.usedAt !== null || deps.clock.now() >= invite.expiresAt) return null;
  const team = await deps.accounts.findAccountById(invite.teamId);
  return team === null || team.disabledAt !== null ? null : { team: team.name, role: invite.role };
}

/**
 * Joins the team of an invite as the calling person: the invite is used up; a member already keeps
 * their role and the invite stays unused. An unknown, used or expired invite is `not_found`.
 */
export async function joinTeam(deps: Deps, caller: Caller, token: string): Promise<Result<TeamView>> {
  const gone = err(domainError('not_found', 'This invite link is unknown, used or expired.'));
  if (caller.personId === undefined)
    return err(domainError('forbidden', 'A person joins teams, with their own session or key.'));
  const offered = await findTeamInvite(deps, token);
  if (offered === null) return gone;
  const team = await findAccountByName(deps, offered.team);
  if (team === null) return gone;
  const existing = await deps.teams.findMembership(team.id, caller.personId);
  if (existing !== null) return ok({ name: team.name, kind: 'team', role: existing.role });
  const now = deps.clock.now();
  const used = await deps.teams.consumeTeamInvite(sha256Hex(token), caller.personId, now);
  if (used === null) return gone;
  const membership = { teamId: team.id, personId: caller.personId, role: used.role, joinedAt: now };
  await deps.teams.addMember(membership);
  return ok({ name: team.name, kind: 'team', role: used.role });
}

/** The member named `member` of the team, or `not_found`. */
async function memberOf(deps: Deps, teamId: string, member: string): Promise<Result<Account>> {
  const person = await deps.accounts.findAccountByName(accountNameKey(member));
  if (person === null || (await deps.teams.findMembership(teamId, person.id)) === null) return noSuchMember();
  return ok(person);
}

const lastOwner = () => err(domainError('last_owner', undefined, 'role'));

/**
 * Changes a member's role. Admins change editors and viewers; making or unmaking an owner takes an
 * owner; the last owner stays one (409 `last_owner`), checked atomically by the store.
 */
export async function changeMemberRole(
  deps: Deps,
  caller: Caller,
  team: string,
  member: string,
  role: MemberRole,
): Promise<Result<Member>> {
  const reader = await teamCaller(deps, caller, team, 'members.read');
  if (!reader.ok) return reader;
  const teamId = reader.value.accountId;
  const person = await memberOf(deps, teamId, member);
  if (!person.ok) return person;
  const current = await deps.teams.findMembership(teamId, person.value.id);
  const allowed = permission(reader.value, memberAction([role, current?.role ?? role]));
  if (!allowed.ok) return allowed;
  const changed = await deps.teams.setMemberRole(teamId, person.value.id, role);
  if (changed === 'last_owner') return lastOwner();
  if (changed === 'not_found') return noSuchMember();
  const found = await deps.teams.findMembership(teamId, person.value.id);
  return ok({
    ...(found ?? { teamId, personId: person.value.id, role, joinedAt: 0 }),
    name: person.value.name,
  });
}

/**
 * Removes a member: any member may leave; admins remove editors and viewers, owners anyone; the last
 * owner stays (409 `last_owner`).
 */
export async function removeMember(
  deps: Deps,
  caller: Caller,
  team: string,
  member: string,
): Promise<Result<null>> {
  const reader = await teamCaller(deps, caller, team, 'members.read');
  if (!reader.ok) return reader;
  const teamId = reader.value.accountId;
  const person = await memberOf(deps, teamId, member);
  if (!person.ok) return person;
  if (person.value.id !== caller.personId) {
    const current = await deps.teams.findMembership(teamId, person.value.id);
    const allowed = permission(reader.value, memberAction([current?.role ?? 'viewer']));
    if (!allowed.ok) return allowed;
  }
  const removed = await deps.teams.removeMember(teamId, person.value.id);
  if (removed === 'last_owner') return lastOwner();
  return removed === 'done' ? ok(null) : noSuchMember();
}
