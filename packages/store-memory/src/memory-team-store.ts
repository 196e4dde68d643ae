import type {
  Account,
  AccountStore,
  MemberRole,
  Membership,
  MembershipChange,
  TeamInviteRecord,
  TeamStore,
} from '@shortener/core';

/**
 * The TeamStore in Maps, its teams and people accounts of `accounts`. A membership change checks and
 * writes without awaiting in between, so it is atomic with the count of the team's owners.
 */
export function createMemoryTeamStore(
  accounts: Pick<AccountStore, 'createAccount' | 'findAccountById'> & { removeAccount(id: string): boolean },
): TeamStore {
  /** `teamId personId` → membership. */
  const memberships = new Map<string, Membership>();
  const invites = new Map<string, TeamInviteRecord>();
  const keyOf = (teamId: string, personId: string) => `${teamId} ${personId}`;
  const membersOf = (teamId: string) => [...memberships.values()].filter((m) => m.teamId === teamId);
  const addMember = (membership: Membership): boolean => {
    const key = keyOf(membership.teamId, membership.personId);
    if (memberships.has(key)) return false;
    memberships.set(key, { ...membership });
    return true;
  };
  const changeMember = (teamId: string, personId: string, role: MemberRole | null): MembershipChange => {
    const key = keyOf(teamId, personId);
    const member = memberships.get(key);
    if (member === undefined) return 'not_found';
    const owners = membersOf(teamId).filter((m) => m.role === 'owner').length;
    if (member.role === 'owner' && role !== 'owner' && owners <= 1) return 'last_owner';
    if (role === null) memberships.delete(key);
    else memberships.set(key, { ...member, role });
    return 'done';
  };
  const nameOf = async (id: string) => (await accounts.findAccountById(id))?.name ?? '';
  return {
    createTeam: async (team, owner) => {
      const created = await accounts.createAccount(team);
      if (created.ok) addMember(owner);
      return created;
    },
    addMember: async (membership) => addMember(membership),
    findMembership: async (teamId, personId) => {
      const membership = memberships.get(keyOf(teamId, personId));
      return membership === undefined ? null : { ...membership };
    },
    listMembers: async (teamId) => {
      const members = membersOf(teamId).sort(
        (a, b) => a.joinedAt - b.joinedAt || (a.personId < b.personId ? -1 : 1),
      );
      return Promise.all(members.map(async (m) => ({ ...m, name: await nameOf(m.personId) })));
    },
    listTeamsOf: async (personId) => {
      const mine = [...memberships.values()].filter((m) => m.personId === personId);
      const teams = await Promise.all(
        mine.map(async (m) => ({ team: await accounts.findAccountById(m.teamId), role: m.role })),
      );
      return teams
        .filter((t): t is { team: Account; role: MemberRole } => t.team !== null)
        .sort((a, b) => byName(a.team, b.team));
    },
    setMemberRole: async (teamId, personId, role) => changeMember(teamId, personId, role),
    removeMember: async (teamId, personId) => changeMember(teamId, personId, null),
    addTeamInvite: async (invite) => void invites.set(invite.tokenHash, { ...invite }),
    listTeamInvites: async (teamId, at) =>
      [...invites.values()]
        .filter((i) => i.teamId === teamId && i.usedAt === null && at < i.expiresAt)
        .sort((a, b) => b.createdAt - a.createdAt || (a.tokenHash < b.tokenHash ? 1 : -1))
        .map((i) => ({ ...i })),
    findTeamInvite: async (tokenHash) => {
      const invite = invites.get(tokenHash);
      return invite === undefined ? null : { ...invite };
    },
    consumeTeamInvite: async (tokenHash, personId, at) => {
      const invite = invites.get(tokenHash);
      if (invite === undefined || invite.usedAt !== null || at >= invite.expiresAt) return null;
      invites.set(tokenHash, { ...invite, usedAt: at, usedBy: personId });
      return { ...invite };
    },
    deleteTeamInvite: async (teamId, tokenHash) =>
      invites.get(tokenHash)?.teamId === teamId &&
      invites.get(tokenHash)?.usedAt === null &&
      invites.delete(tokenHash),
    deleteTeam: async (teamId) => {
      if ((await accounts.findAccountById(teamId))?.kind !== 'team') return false;
      for (const m of membersOf(teamId)) memberships.delete(keyOf(m.teamId, m.personId));
      for (const invite of [...invites.values()])
        if (invite.teamId === teamId) invites.delete(invite.tokenHash);
      return accounts.removeAccount(teamId);
    },
  };
}

/** Teams by name without case (names are unique so), as the SQL stores order them. */
function byName(a: Account, b: Account): number {
  const [x, y] = [a.name.toLowerCase(), b.name.toLowerCase()];
  return x === y ? 0 : x < y ? -1 : 1;
}
