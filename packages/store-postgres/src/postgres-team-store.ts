import type {
  Member,
  MemberRole,
  Membership,
  MembershipChange,
  TeamInviteRecord,
  TeamStore,
} from '@shortener/core';
import type { Account } from '@shortener/core';
import type { Pool } from 'pg';
import { inTransaction } from './database.js';
import { selectList } from './link-rows.js';
import { ACCOUNT, createAccount } from './postgres-account-store.js';

const MEMBERSHIP = selectList([
  ['team_id', 'teamId'],
  ['person_id', 'personId'],
  ['role', 'role'],
  ['joined_at', 'joinedAt'],
]);

const INVITE = selectList([
  ['token_hash', 'tokenHash'],
  ['team_id', 'teamId'],
  ['role', 'role'],
  ['created_by', 'createdBy'],
  ['created_at', 'createdAt'],
  ['expires_at', 'expiresAt'],
  ['used_at', 'usedAt'],
  ['used_by', 'usedBy'],
]);

const INSERT_MEMBERSHIP = `INSERT INTO memberships (team_id, person_id, role, joined_at) VALUES ($1, $2, $3, $4)
  ON CONFLICT DO NOTHING`;

// the members with their names; the inner join names each column once (accounts have a role too)
const MEMBERS = `SELECT ${MEMBERSHIP}, name FROM (
    SELECT m.*, a.name FROM memberships m JOIN accounts a ON a.id = m.person_id WHERE m.team_id = $1
  ) AS members ORDER BY joined_at, person_id`;

const TEAMS_OF = `SELECT ${ACCOUNT}, member_role AS "memberRole" FROM (
    SELECT a.*, m.role AS member_role FROM memberships m JOIN accounts a ON a.id = m.team_id
    WHERE m.person_id = $1
  ) AS teams ORDER BY lower(name), id`;

const INSERT_INVITE = `INSERT INTO team_invites (token_hash, team_id, role, created_by, created_at, expires_at,
  used_at, used_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`;

// One statement: of two concurrent calls one wins, and the invite is returned as it was (unused).
const CONSUME_INVITE = `UPDATE team_invites SET used_at = $3, used_by = $2
  WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $3
  RETURNING token_hash AS "tokenHash", team_id AS "teamId", role, created_by AS "createdBy",
    created_at AS "createdAt", expires_at AS "expiresAt", NULL::bigint AS "usedAt", NULL::text AS "usedBy"`;

/** The TeamStore on a pg pool (schema migrated). */
export function createPostgresTeamStore(pool: Pool): TeamStore {
  const one = async <T extends object>(text: string, values: unknown[]): Promise<T | null> =>
    (await pool.query<T>(text, values)).rows[0] ?? null;
  const all = async <T extends object>(text: string, values: unknown[]): Promise<T[]> =>
    (await pool.query<T>(text, values)).rows;
  const changed = async (text: string, values: unknown[]): Promise<boolean> =>
    ((await pool.query(text, values)).rowCount ?? 0) === 1;
  const membershipValues = (m: Membership) => [m.teamId, m.personId, m.role, m.joinedAt];
  return {
    createTeam: (team, owner) =>
      inTransaction(pool, async (client) => {
        const created = await createAccount(client, team);
        if (created.ok) await client.query(INSERT_MEMBERSHIP, membershipValues(owner));
        return created;
      }),
    addMember: (membership) => changed(INSERT_MEMBERSHIP, membershipValues(membership)),
    findMembership: (teamId, personId) =>
      one<Membership>(`SELECT ${MEMBERSHIP} FROM memberships WHERE team_id = $1 AND person_id = $2`, [
        teamId,
        personId,
      ]),
    listMembers: (teamId) => all<Member>(MEMBERS, [teamId]),
    listTeamsOf: async (personId) =>
      (await all<Account & { memberRole: MemberRole }>(TEAMS_OF, [personId])).map(
        ({ memberRole, ...team }) => ({ team, role: memberRole }),
      ),
    setMemberRole: (teamId, personId, role) => changeMember(pool, teamId, personId, role),
    removeMember: (teamId, personId) => changeMember(pool, teamId, personId, null),
    addTeamInvite: async (i) =>
      void (await pool.query(INSERT_INVITE, [
        i.tokenHash,
        i.teamId,
        i.role,
        i.createdBy,
        i.createdAt,
        i.expiresAt,
        i.usedAt,
        i.usedBy,
      ])),
    listTeamInvites: (teamId, at) =>
      all<TeamInviteRecord>(
        `SELECT ${INVITE} FROM team_invites WHERE team_id = $1 AND used_at IS NULL AND expires_at > $2
         ORDER BY created_at DESC, token_hash DESC`,
        [teamId, at],
      ),
    findTeamInvite: (tokenHash) =>
      one<TeamInviteRecord>(`SELECT ${INVITE} FROM team_invites WHERE token_hash = $1`, [tokenHash]),
    consumeTeamInvite: (tokenHash, personId, at) =>
      one<TeamInviteRecord>(CONSUME_INVITE, [tokenHash, personId, at]),
    deleteTeamInvite: (teamId, tokenHash) =>
      changed('DELETE FROM team_invites WHERE team_id = $1 AND token_hash = $2 AND used_at IS NULL', [
        teamId,
        tokenHash,
      ]),
    // memberships, invites, keys, webhooks and import jobs go by their foreign keys' ON DELETE CASCADE
    deleteTeam: (teamId) => changed("DELETE FROM accounts WHERE id = $1 AND kind = 'team'", [teamId]),
  };
}

/**
 * Sets the member's role (`null`: removes the member) unless the team would be left without an owner.
 * The team's membership rows are locked first, so concurrent changes of one team, on any connection or
 * node, run one after another and each counts the owners the one before left.
 */
async function changeMember(
  pool: Pool,
  teamId: string,
  personId: string,
  role: MemberRole | null,
): Promise<MembershipChange> {
  return inTransaction(pool, async (client) => {
    const { rows } = await client.query<{ personId: string; role: MemberRole }>(
      'SELECT person_id AS "personId", role FROM memberships WHERE team_id = $1 FOR UPDATE',
      [teamId],
    );
    const member = rows.find((row) => row.personId === personId);
    if (member === undefined) return 'not_found';
    const owners = rows.filter((row) => row.role === 'owner').length;
    if (member.role === 'owner' && role !== 'owner' && owners <= 1) return 'last_owner';
    await client.query(
      role === null
        ? 'DELETE FROM memberships WHERE team_id = $1 AND person_id = $2'
        : 'UPDATE memberships SET role = $3 WHERE team_id = $1 AND person_id = $2',
      role === null ? [teamId, personId] : [teamId, personId, role],
    );
    return 'done';
  });
}
