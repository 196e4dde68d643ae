import { z } from 'zod';
import type { Member } from './account-ports.js';
import { MEMBER_ROLES } from './permissions.js';
import { MAX_TEAM_INVITE_DAYS, TEAM_INVITE_DAYS } from './teams.js';
import type { TeamInvite, TeamView } from './teams.js';
import type { DeletedTeam, OpenTeamInvite } from './team-admin.js';

const RoleField = z
  .enum(MEMBER_ROLES)
  .describe(
    '`owner` everything; `admin` members, invites, keys, webhooks, domains; `editor` links, tags and ' +
      'statistics; `viewer` reads links and statistics.',
  );

/** Body of `POST /api/v1/teams` (decisions §21). */
export const CreateTeamInput = z
  .strictObject({
    name: z.string().describe('1-64 letters, digits, `_ . @ -`; accounts and teams share one set of names.'),
  })
  .meta({ id: 'CreateTeamRequest' });

/** A team and the caller's role in it. */
export const TeamSchema = z
  .object({ name: z.string(), kind: z.literal('team'), role: RoleField })
  .meta({ id: 'Team' });

/** `GET /api/v1/teams`: the caller's teams, by name. */
export const TeamListSchema = z.array(TeamSchema).meta({ id: 'TeamList' });

/** A member of a team. */
export const MemberSchema = z
  .object({ name: z.string(), role: RoleField, joined_at: z.iso.datetime() })
  .meta({ id: 'TeamMember' });

/** `GET /api/v1/teams/{name}/members`: oldest member first. */
export const MemberListSchema = z.array(MemberSchema).meta({ id: 'TeamMemberList' });

/** Body of `POST /api/v1/teams/{name}/invites`. */
export const CreateTeamInviteInput = z
  .strictObject({
    role: RoleField,
    expires_in_days: z
      .number()
      .int()
      .min(1)
      .max(MAX_TEAM_INVITE_DAYS)
      .optional()
      .describe(`How long the link works; ${TEAM_INVITE_DAYS} days unless given.`),
  })
  .meta({ id: 'CreateTeamInviteRequest' });

/** A new invite link, shown once. */
export const TeamInviteSchema = z
  .object({
    url: z.url().describe('Opened signed in, or posted to with a person’s key or session: joins once.'),
    role: RoleField,
    expires_at: z.iso.datetime(),
  })
  .meta({ id: 'TeamInvite' });

/** Body of `PATCH /api/v1/teams/{name}/members/{member}`. */
export const ChangeMemberInput = z.strictObject({ role: RoleField }).meta({ id: 'ChangeMemberRequest' });

export const toTeamView = (team: TeamView): z.infer<typeof TeamSchema> => team;

export const toMemberView = (member: Member): z.infer<typeof MemberSchema> => ({
  name: member.name,
  role: member.role,
  joined_at: new Date(member.joinedAt).toISOString(),
});

export const toTeamInviteView = (invite: TeamInvite): z.infer<typeof TeamInviteSchema> => ({
  url: invite.url,
  role: invite.role,
  expires_at: new Date(invite.expiresAt).toISOString(),
});

/** An open invite of a team (not used, not expired); its link is not shown again. */
export const OpenTeamInviteSchema = z
  .object({
    id: z.string().describe('What `DELETE /api/v1/teams/{name}/invites/{id}` names to withdraw it.'),
    role: RoleField,
    created_by: z.string().describe('The name of the person who made it.'),
    created_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
  })
  .meta({ id: 'OpenTeamInvite' });

/** `GET /api/v1/teams/{name}/invites`: newest first. */
export const OpenTeamInviteListSchema = z.array(OpenTeamInviteSchema).meta({ id: 'OpenTeamInviteList' });

/** `DELETE /api/v1/teams/{name}`: what went with the team. */
export const DeletedTeamSchema = z
  .object({
    name: z.string(),
    deleted: z.literal(true),
    links: z.number().int().describe('How many of its links were deleted with it.'),
  })
  .meta({ id: 'DeletedTeam' });

export const toOpenTeamInviteView = (invite: OpenTeamInvite): z.infer<typeof OpenTeamInviteSchema> => ({
  id: invite.id,
  role: invite.role,
  created_by: invite.createdBy,
  created_at: new Date(invite.createdAt).toISOString(),
  expires_at: new Date(invite.expiresAt).toISOString(),
});

export const toDeletedTeamView = (team: DeletedTeam): z.infer<typeof DeletedTeamSchema> => ({
  name: team.name,
  deleted: true,
  links: team.links,
});
