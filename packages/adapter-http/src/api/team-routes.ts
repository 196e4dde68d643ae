import {
  ChangeMemberInput,
  CreateTeamInput,
  CreateTeamInviteInput,
  changeMemberRole,
  createTeam,
  deleteTeam,
  inviteToTeam,
  joinTeam,
  listMembers,
  listTeamInvites,
  listTeams,
  removeMember,
  toDeletedTeamView,
  toMemberView,
  toOpenTeamInviteView,
  toTeamInviteView,
  withdrawTeamInvite,
} from '@shortener/core';
import { sendResult } from '../koa-helpers.js';
import { KEY_OR_SESSION } from '../openapi/openapi-paths.js';
import { route } from '../routes/route-table.js';
import { teamDeletionDepsOf } from '../server/team-deletion.js';
import type { AnyRoute } from '../routes/route-table.js';
import { jsonResponse } from './route-kit.js';

const common = { tag: 'teams', security: KEY_OR_SESSION } as const;

const TEAM_NAME = {
  name: 'name',
  in: 'path',
  required: true,
  description: 'The team’s name.',
  schema: { type: 'string' },
  example: 'acme',
};
const MEMBER_NAME = {
  name: 'member',
  in: 'path',
  required: true,
  description: 'The member’s account name.',
  schema: { type: 'string' },
  example: 'bob',
};
const INVITE_ID = {
  name: 'id',
  in: 'path',
  required: true,
  description: 'The open invite’s `id`, as the list of open invites gives it.',
  schema: { type: 'string' },
  example: '3f9a0c1be27d4a85',
};
const INVITE_TOKEN = {
  name: 'token',
  in: 'path',
  required: true,
  description: 'The invite link’s token (`tinv_…`).',
  schema: { type: 'string' },
  example: 'tinv_4fTq9ZrW2mXb7LcN1vYs8KdJ3hGp6QaE',
};

/**
 * `/api/v1/teams…` and `POST /join/{token}` (decisions §21): teams a person makes and belongs to, their
 * members and invite links. A person's session or personal key; a team that is not the caller's is
 * `not_found`; a role too low `forbidden`, naming the role needed. Core decides each permission.
 */
export const TEAM_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/api/v1/teams',
    access: 'account',
    doc: {
      ...common,
      id: 'listTeams',
      summary: 'List the teams the caller belongs to',
      description:
        'By name, each with the caller’s role there. Act for one with `Shortener-Account: <name>`.',
      responses: { 200: jsonResponse('The teams.', 'TeamList') },
      errors: [401],
    },
    handle: async (ctx, { deps, caller }) => {
      sendResult(ctx, await listTeams(deps.core, caller), (teams) => teams);
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/teams',
    access: 'account',
    body: CreateTeamInput,
    doc: {
      ...common,
      id: 'createTeam',
      summary: 'Make a team',
      description:
        'The caller becomes its first owner. Names share the accounts’ namespace and rules: a name taken by ' +
        'an account or team, in any case, is 400 on `name`.',
      example: { name: 'acme' },
      responses: { 201: jsonResponse('The team.', 'Team') },
      errors: [400, 401, 403],
    },
    handle: async (ctx, { deps, caller, body }) => {
      sendResult(ctx, await createTeam(deps.core, caller, body.name), (team) => team, 201);
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/teams/{name}/members',
    access: 'account',
    doc: {
      ...common,
      id: 'listTeamMembers',
      summary: 'List a team’s members',
      description: 'Oldest member first; any member may list them.',
      parameters: [TEAM_NAME],
      responses: { 200: jsonResponse('The members.', 'TeamMemberList') },
      errors: [401, 404],
    },
    handle: async (ctx, { deps, caller, params }) => {
      const members = await listMembers(deps.core, caller, params.name ?? '');
      sendResult(ctx, members, (all) => all.map(toMemberView));
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/teams/{name}/invites',
    access: 'account',
    body: CreateTeamInviteInput,
    doc: {
      ...common,
      id: 'createTeamInvite',
      summary: 'Make a one-time invite link',
      description:
        'Admins and owners invite; only owners invite owners. The link is shown this once: a signed-in person ' +
        'opening it joins with `role`, as does `POST` to it with a person’s key or session.',
      parameters: [TEAM_NAME],
      example: { role: 'editor', expires_in_days: 7 },
      responses: { 201: jsonResponse('The invite link.', 'TeamInvite') },
      errors: [400, 401, 403, 404],
    },
    handle: async (ctx, { deps, caller, params, body }) => {
      const invite = await inviteToTeam(deps.core, caller, params.name ?? '', {
        role: body.role,
        expiresInDays: body.expires_in_days,
      });
      sendResult(ctx, invite, toTeamInviteView, 201);
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/teams/{name}/invites',
    access: 'account',
    doc: {
      ...common,
      id: 'listTeamInvites',
      summary: 'List the open invite links',
      description:
        'Invites not used and not expired, newest first, for admins and owners. A link is never shown again ' +
        '(only a hash of it is kept): each has an `id` to withdraw it by.',
      parameters: [TEAM_NAME],
      responses: { 200: jsonResponse('The open invites.', 'OpenTeamInviteList') },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps, caller, params }) => {
      const invites = await listTeamInvites(deps.core, caller, params.name ?? '');
      sendResult(ctx, invites, (all) => all.map(toOpenTeamInviteView));
    },
  }),
  route({
    method: 'delete',
    path: '/api/v1/teams/{name}/invites/{id}',
    access: 'account',
    doc: {
      ...common,
      id: 'withdrawTeamInvite',
      summary: 'Withdraw an invite link',
      description:
        'The link no longer joins. Admins withdraw invites; an invite to become an owner takes an owner.',
      parameters: [TEAM_NAME, INVITE_ID],
      responses: { 204: { description: 'Withdrawn.' } },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps, caller, params }) => {
      const withdrawn = await withdrawTeamInvite(deps.core, caller, params.name ?? '', params.id ?? '');
      sendResult(ctx, withdrawn, () => null, 204);
    },
  }),
  route({
    method: 'delete',
    path: '/api/v1/teams/{name}',
    access: 'account',
    doc: {
      ...common,
      id: 'deleteTeam',
      summary: 'Delete a team',
      description:
        'Owners only. The team is disabled at once (no member or key acts for it), then its links are deleted ' +
        '(their statistics with them; `link.deleted` goes out for each), its own domains removed, its webhooks ' +
        'and keys deleted, its imports cancelled, and the team with its members and invites deleted. Its ' +
        'name is free again. This cannot be undone.',
      parameters: [TEAM_NAME],
      responses: { 200: jsonResponse('What went with the team.', 'DeletedTeam') },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps, caller, params }) => {
      const deleted = await deleteTeam(teamDeletionDepsOf(deps), caller, params.name ?? '');
      sendResult(ctx, deleted, toDeletedTeamView);
    },
  }),
  route({
    method: 'patch',
    path: '/api/v1/teams/{name}/members/{member}',
    access: 'account',
    body: ChangeMemberInput,
    doc: {
      ...common,
      id: 'changeTeamMember',
      summary: 'Change a member’s role',
      description:
        'Admins change editors and viewers; making or unmaking an owner takes an owner. The last owner ' +
        'cannot be demoted: 409 `last_owner`.',
      parameters: [TEAM_NAME, MEMBER_NAME],
      example: { role: 'admin' },
      responses: { 200: jsonResponse('The member.', 'TeamMember') },
      errors: [400, 401, 403, 404, 409],
    },
    handle: async (ctx, { deps, caller, params, body }) => {
      const changed = await changeMemberRole(
        deps.core,
        caller,
        params.name ?? '',
        params.member ?? '',
        body.role,
      );
      sendResult(ctx, changed, toMemberView);
    },
  }),
  route({
    method: 'delete',
    path: '/api/v1/teams/{name}/members/{member}',
    access: 'account',
    doc: {
      ...common,
      id: 'removeTeamMember',
      summary: 'Remove a member, or leave',
      description:
        'Any member may remove themself (leave); admins remove editors and viewers, owners anyone. The last ' +
        'owner stays: 409 `last_owner`.',
      parameters: [TEAM_NAME, MEMBER_NAME],
      responses: { 204: { description: 'Removed.' } },
      errors: [401, 403, 404, 409],
    },
    handle: async (ctx, { deps, caller, params }) => {
      const removed = await removeMember(deps.core, caller, params.name ?? '', params.member ?? '');
      sendResult(ctx, removed, () => null, 204);
    },
  }),
  route({
    method: 'post',
    path: '/join/{token}',
    access: 'account',
    doc: {
      ...common,
      id: 'joinTeam',
      summary: 'Join a team by its invite link',
      description:
        'With a person’s key or session; the link is used up. A member already keeps their role (and the ' +
        'link stays unused). An unknown, used or expired link is 404.',
      parameters: [INVITE_TOKEN],
      responses: { 200: jsonResponse('The team and the role joined with.', 'Team') },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps, caller, params }) => {
      sendResult(ctx, await joinTeam(deps.core, caller, params.token ?? ''), (team) => team);
    },
  }),
];
