import {
  ChangeMemberInput,
  CreateTeamInput,
  CreateTeamInviteInput,
  changeMemberRole,
  createTeam,
  inviteToTeam,
  joinTeam,
  listMembers,
  listTeams,
  removeMember,
  toMemberView,
  toTeamInviteView,
} from '@shortener/core';
import { sendResult } from '../koa-helpers.js';
import { KEY_OR_SESSION } from '../openapi/openapi-paths.js';
import { route } from '../routes/route-table.js';
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
