import type {
  Account,
  Member,
  MemberRole,
  Membership,
  MembershipChange,
  TeamInviteRecord,
  TeamStore,
} from '@shortener/core';
import type { Database } from 'better-sqlite3';
import { createAccount, prepareInsertAccount } from './sqlite-account-store.js';
import type { AccountRow } from './sqlite-account-store.js';
import { recordOf, recordsOf, rowOf } from './row-mapping.js';

interface MembershipRow {
  readonly team_id: string;
  readonly person_id: string;
  readonly role: MemberRole;
  readonly joined_at: number;
}

interface TeamInviteRow {
  readonly token_hash: string;
  readonly team_id: string;
  readonly role: MemberRole;
  readonly created_by: string;
  readonly created_at: number;
  readonly expires_at: number;
  readonly used_at: number | null;
  readonly used_by: string | null;
}

/** A team's account row with the person's role there as `member_role`. */
interface TeamOfRow extends AccountRow {
  readonly member_role: MemberRole;
}

/**
 * The TeamStore on a better-sqlite3 connection (migrated). A change of a membership runs in one
 * immediate transaction with the count of the team's owners, so no two can both take the last one.
 */
export function createSqliteTeamStore(db: Database): TeamStore {
  const s = statementsOf(db);
  const createTeam = db.transaction((team: Account, owner: Membership) => {
    const created = createAccount(s, team);
    if (created.ok) s.insertMembership.run(rowOf<MembershipRow>(owner));
    return created;
  });
  /** Applies `change` to the member unless it would take the team's last owner. */
  const changeMember = db.transaction(
    (teamId: string, personId: string, role: MemberRole | null): MembershipChange => {
      const member = s.membership.get(teamId, personId);
      if (member === undefined) return 'not_found';
      const losesOwner = member.role === 'owner' && role !== 'owner';
      if (losesOwner && (s.owners.get(teamId) ?? 0) <= 1) return 'last_owner';
      if (role === null) s.deleteMembership.run(teamId, personId);
      else s.setRole.run(role, teamId, personId);
      return 'done';
    },
  );
  return {
    createTeam: async (team, owner) => createTeam.immediate(team, owner),
    addMember: async (membership) => s.insertMembership.run(rowOf<MembershipRow>(membership)).changes === 1,
    findMembership: async (teamId, personId) => recordOf<Membership>(s.membership.get(teamId, personId)),
    listMembers: async (teamId) => recordsOf<Member>(s.members.all(teamId)),
    listTeamsOf: async (personId) =>
      s.teamsOf.all(personId).map(({ member_role: role, ...team }) => ({
        team: recordOf<Account>(team) as Account,
        role,
      })),
    setMemberRole: async (teamId, personId, role) => changeMember.immediate(teamId, personId, role),
    removeMember: async (teamId, personId) => changeMember.immediate(teamId, personId, null),
    addTeamInvite: async (invite) => void s.insertInvite.run(rowOf<TeamInviteRow>(invite)),
    listTeamInvites: async (teamId, at) => recordsOf<TeamInviteRecord>(s.invitesOf.all(teamId, at)),
    findTeamInvite: async (tokenHash) => recordOf<TeamInviteRecord>(s.invite.get(tokenHash)),
    consumeTeamInvite: async (tokenHash, personId, at) =>
      recordOf<TeamInviteRecord>(s.consumeInvite.get({ token_hash: tokenHash, person_id: personId, at })),
    deleteTeamInvite: async (teamId, tokenHash) => s.deleteInvite.run(teamId, tokenHash).changes === 1,
    // memberships, invites, keys, webhooks and import jobs go by their foreign keys' ON DELETE CASCADE
    deleteTeam: async (teamId) => s.deleteTeam.run(teamId).changes === 1,
  };
}

/** The statements of the memberships and the teams' invites, prepared once. */
function statementsOf(db: Database) {
  return {
    insertAccount: prepareInsertAccount(db),
    insertMembership: db.prepare<MembershipRow>(
      `INSERT INTO memberships (team_id, person_id, role, joined_at)
       VALUES (@team_id, @person_id, @role, @joined_at) ON CONFLICT DO NOTHING`,
    ),
    membership: db.prepare<[string, string], MembershipRow>(
      'SELECT * FROM memberships WHERE team_id = ? AND person_id = ?',
    ),
    owners: db
      .prepare<[string], number>("SELECT count(*) FROM memberships WHERE team_id = ? AND role = 'owner'")
      .pluck(),
    setRole: db.prepare<[MemberRole, string, string]>(
      'UPDATE memberships SET role = ? WHERE team_id = ? AND person_id = ?',
    ),
    deleteTeam: db.prepare<[string]>("DELETE FROM accounts WHERE id = ? AND kind = 'team'"),
    deleteMembership: db.prepare<[string, string]>(
      'DELETE FROM memberships WHERE team_id = ? AND person_id = ?',
    ),
    members: db.prepare<[string], MembershipRow & { readonly name: string }>(
      `SELECT m.*, a.name FROM memberships m JOIN accounts a ON a.id = m.person_id
       WHERE m.team_id = ? ORDER BY m.joined_at, m.person_id`,
    ),
    teamsOf: db.prepare<[string], TeamOfRow>(
      `SELECT a.*, m.role AS member_role FROM memberships m JOIN accounts a ON a.id = m.team_id
       WHERE m.person_id = ? ORDER BY lower(a.name), a.id`,
    ),
    insertInvite: db.prepare<TeamInviteRow>(
      `INSERT INTO team_invites (token_hash, team_id, role, created_by, created_at, expires_at, used_at, used_by)
       VALUES (@token_hash, @team_id, @role, @created_by, @created_at, @expires_at, @used_at, @used_by)`,
    ),
    invitesOf: db.prepare<[string, number], TeamInviteRow>(
      `SELECT * FROM team_invites WHERE team_id = ? AND used_at IS NULL AND expires_at > ?
       ORDER BY created_at DESC, token_hash DESC`,
    ),
    invite: db.prepare<[string], TeamInviteRow>('SELECT * FROM team_invites WHERE token_hash = ?'),
    // one statement: of two concurrent calls one wins, and the invite is returned as it was (unused)
    consumeInvite: db.prepare<{ token_hash: string; person_id: string; at: number }, TeamInviteRow>(
      `UPDATE team_invites SET used_at = @at, used_by = @person_id
       WHERE token_hash = @token_hash AND used_at IS NULL AND expires_at > @at
       RETURNING token_hash, team_id, role, created_by, created_at, expires_at, NULL AS used_at, NULL AS used_by`,
    ),
    deleteInvite: db.prepare<[string, string]>(
      'DELETE FROM team_invites WHERE team_id = ? AND token_hash = ? AND used_at IS NULL',
    ),
  };
}
