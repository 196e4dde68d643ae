import type { DomainError, SignedIn } from '@shortener/core';
import {
  MEMBER_ROLES,
  actingFor,
  changeMemberRole,
  createTeam,
  deleteTeam,
  findTeamInvite,
  inviteToTeam,
  joinTeam,
  listMembers,
  listTeamInvites,
  listTeams,
  permits,
  removeMember,
  sessionCaller,
  teamCaller,
  withdrawTeamInvite,
} from '@shortener/core';
import type { MemberRole } from '@shortener/core';
import type { Context } from 'koa';
import type { HttpDeps } from '../deps.js';
import { HTTP_STATUS, errorBody } from '../errors.js';
import { stateOf } from '../koa-helpers.js';
import { html, query, seeOther as seeOtherDoc } from '../openapi/openapi-pages.js';
import { pathParameter } from '../openapi/openapi-paths.js';
import { signInPage } from '../pages/account/account-pages.js';
import type { TeamsView } from '../pages/account/teams-page.js';
import { joinGonePage, teamsPage } from '../pages/account/teams-page.js';
import { teamTextOf } from '../pages/account/team-text.js';
import { fill } from '../pages/text.js';
import { queryOf } from '../request.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { fieldOf, seeOther, sendAccountPage } from '../server/account-area.js';
import { plainForm, text } from '../server/forms.js';
import { setActingCookie, switchBackOf } from '../server/acting.js';
import { signedInOf } from '../server/session.js';
import { signupOpen } from './sign-in-routes.js';
import { teamDeletionDepsOf } from '../server/team-deletion.js';

// The pages of teams (decisions §21): the switcher's post, `/account/teams` and its forms, and opening an
// invite link. Every rule is core's; these call its use cases as the person (their own session).

const SwitchForm = plainForm('SwitchAccountForm', {
  account: text('The account to act for: a team of yours, or empty for your own account.'),
  back: text('The page to come back to (a path of the account area); `/account` otherwise.'),
});
const TeamForm = plainForm('CreateTeamForm', { name: text('The team’s name (the rule of account names).') });
const InviteForm = plainForm('TeamInviteForm', {
  role: text(`The role it joins with: ${MEMBER_ROLES.join(', ')}.`),
  expires_in_days: text('How long the link works: 1-90 days, 7 by default.'),
});
const RoleForm = plainForm('TeamMemberRoleForm', { role: text(`The new role: ${MEMBER_ROLES.join(', ')}.`) });
const DeleteTeamForm = plainForm('DeleteTeamForm', {
  confirm: text('The team’s name, typed to confirm (any case).'),
});

const TEAM = pathParameter('team', 'The team’s name.', 'design');
const MEMBER = pathParameter('member', 'The member’s name.', 'sam');
const INVITE = pathParameter('id', 'The open invite’s id, as the page lists it.', '3f9a0c1be27d4a85');
const JOIN_TOKEN = pathParameter(
  'token',
  'The token of the team invite link (`tinv_…`).',
  'tinv_4fTq9ZrW2mXb7LcN1vYs8KdJ3hGp6QaE',
);

const isRole = (role: string): role is MemberRole => (MEMBER_ROLES as readonly string[]).includes(role);

const teamsHref = (team: string, done?: string) =>
  `/account/teams?team=${encodeURIComponent(team)}${done === undefined ? '' : `&done=${done}`}`;

/** Sends `/account/teams`, with the team named in the query (or `team`) opened. */
async function sendTeams(
  deps: HttpDeps,
  ctx: Context,
  signedIn: SignedIn,
  status: number,
  extra: Partial<Pick<TeamsView, 'notice' | 'invite' | 'name'>> & { team?: string } = {},
): Promise<void> {
  const { language } = stateOf(ctx);
  const person = sessionCaller(signedIn.account);
  const teams = await listTeams(deps.core, person);
  const opened = extra.team ?? fieldOf(queryOf(ctx.query), 'team');
  const member = opened === '' ? null : await teamCaller(deps.core, person, opened, 'members.read');
  const members = member?.ok === true ? await listMembers(deps.core, person, opened) : null;
  const manages = member?.ok === true && permits(member.value, 'members.manage');
  const invites = manages ? await listTeamInvites(deps.core, person, opened) : null;
  const named = teams.ok
    ? teams.value.find((team) => team.name.toLowerCase() === opened.toLowerCase())
    : undefined;
  const view: TeamsView = {
    language,
    person: signedIn.account.name,
    teams: teams.ok ? teams.value : [],
    ...(member?.ok === true && members?.ok === true && named !== undefined
      ? {
          team: {
            name: named.name,
            role: named.role,
            members: members.value,
            manages,
            managesOwners: permits(member.value, 'owners.manage'),
            invites: invites?.ok === true ? invites.value : [],
            deletes: permits(member.value, 'team.delete'),
          },
        }
      : {}),
    ...(extra.notice === undefined ? {} : { notice: extra.notice }),
    ...(extra.invite === undefined ? {} : { invite: extra.invite }),
    ...(extra.name === undefined ? {} : { name: extra.name }),
  };
  sendAccountPage(ctx, status, teamsPage(view));
}

/** The page again, saying what went wrong in words (403 the role needed, 409 the last owner). */
const failed = (deps: HttpDeps, ctx: Context, signedIn: SignedIn, error: DomainError, extra = {}) =>
  sendTeams(deps, ctx, signedIn, HTTP_STATUS[error.code], {
    ...extra,
    notice: { error: true, text: errorBody(error, stateOf(ctx).language).error.message },
  });

const DONE: Record<string, keyof ReturnType<typeof teamTextOf>> = {
  created: 'created',
  left: 'left',
  joined: 'joinedTeam',
  member: 'alreadyMember',
  deleted: 'deleted',
};

const teamsDoc = {
  400: html('The page again with the error.'),
  403: html('The page again, naming the role needed.'),
  404: html('The page again: no such team of yours, or no such member.'),
  409: html('The page again: the last owner stays one.'),
};

export const TEAM_PAGE_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'post',
    path: '/account/switch',
    area: 'account',
    access: 'signed-in',
    body: SwitchForm,
    form: true,
    doc: {
      id: 'switchAccountByForm',
      summary: 'Choose the account the pages act for',
      description:
        'The switcher of every account page (decisions §21): a team the person is a member of, or empty for ' +
        'their own account, kept in the `shortener_account` cookie. A team they are not in: their own ' +
        'account, with a notice.',
      example: { account: 'design', back: '/account' },
      responses: { 303: seeOtherDoc('Back to `back` (a page of the account area), else `/account`.') },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn, body }) => {
      if (signedIn === null) return;
      const { baseUrl } = deps.core.config;
      const back = switchBackOf(body.back);
      const name = (body.account ?? '').trim();
      const own = sessionCaller(signedIn.account);
      const acting = name === '' ? null : await actingFor(deps.core, own, name);
      if (acting === null || (acting.ok && acting.value.accountId === own.accountId)) {
        setActingCookie(ctx, baseUrl, null);
        return seeOther(ctx, back);
      }
      if (!acting.ok) {
        setActingCookie(ctx, baseUrl, null);
        return seeOther(ctx, `/account/teams?switch=${encodeURIComponent(name)}`);
      }
      setActingCookie(ctx, baseUrl, name);
      seeOther(ctx, back);
    },
  }),
  route({
    method: 'get',
    path: '/account/teams',
    area: 'account',
    access: 'signed-in',
    doc: {
      id: 'teamsPage',
      summary: 'The person’s teams',
      description:
        'Make a team; the teams with the role there; for the team opened, its members (role, joined), and ' +
        'for admins and owners the forms to invite, change roles and remove; "Leave team" for oneself.',
      parameters: [
        query('team', 'The team whose members are shown.', 'design'),
        query('done', 'What the last form did: `created`, `left`, `joined`, `member`, `deleted`.', 'created'),
        query('switch', 'A team the switcher was asked for that the person is not in.', 'design'),
      ],
      responses: { 200: html('The page.'), 303: seeOtherDoc('Not signed in: to `/login`.') },
    },
    handle: async (ctx, { deps, signedIn }) => {
      if (signedIn === null) return;
      const t = teamTextOf(stateOf(ctx).language);
      const q = queryOf(ctx.query);
      const done = DONE[fieldOf(q, 'done')];
      const team = fieldOf(q, 'team');
      const refused = fieldOf(q, 'switch');
      const notice =
        refused !== ''
          ? { error: true, text: fill(t.notMember, { account: refused }) }
          : done === undefined
            ? undefined
            : { error: false, text: fill(t[done], { team, role: t[roleOf(fieldOf(q, 'role'))] }) };
      await sendTeams(deps, ctx, signedIn, 200, notice === undefined ? {} : { notice });
    },
  }),
  route({
    method: 'post',
    path: '/account/teams',
    area: 'account',
    access: 'signed-in',
    body: TeamForm,
    form: true,
    doc: {
      id: 'createTeamByForm',
      summary: 'Make a team',
      description: 'The person becomes its first owner.',
      example: { name: 'design' },
      responses: { 303: seeOtherDoc('Made: to the team’s page.'), ...teamsDoc },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn, body }) => {
      if (signedIn === null) return;
      const name = body.name ?? '';
      const made = await createTeam(deps.core, sessionCaller(signedIn.account), name);
      if (!made.ok) return failed(deps, ctx, signedIn, made.error, { name });
      seeOther(ctx, teamsHref(made.value.name, 'created'));
    },
  }),
  route({
    method: 'post',
    path: '/account/teams/{team}/invites',
    area: 'account',
    access: 'signed-in',
    body: InviteForm,
    form: true,
    doc: {
      id: 'inviteToTeamByForm',
      summary: 'Make a team invite link',
      description:
        'A one-time link with a role, shown once on the page with a copy button (admins and owners).',
      parameters: [TEAM],
      example: { role: 'editor', expires_in_days: '7' },
      responses: { 200: html('The team’s page, showing the link once.'), ...teamsDoc },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn, body, params }) => {
      if (signedIn === null) return;
      const team = params.team ?? '';
      const role = roleOf(body.role ?? '');
      const days = Number(body.expires_in_days ?? '7');
      const input = {
        role,
        ...(Number.isInteger(days) && days >= 1 && days <= 90 ? { expiresInDays: days } : {}),
      };
      const made = await inviteToTeam(deps.core, sessionCaller(signedIn.account), team, input);
      if (!made.ok) return failed(deps, ctx, signedIn, made.error, { team });
      await sendTeams(deps, ctx, signedIn, 200, { team, invite: made.value });
    },
  }),
  route({
    method: 'post',
    path: '/account/teams/{team}/members/{member}/role',
    area: 'account',
    access: 'signed-in',
    body: RoleForm,
    form: true,
    doc: {
      id: 'changeTeamRoleByForm',
      summary: 'Change a member’s role',
      description: 'Admins change editors and viewers; owners anyone; the last owner stays one.',
      parameters: [TEAM, MEMBER],
      example: { role: 'viewer' },
      responses: { 200: html('The team’s page, saying so.'), ...teamsDoc },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn, body, params }) => {
      if (signedIn === null) return;
      const team = params.team ?? '';
      const member = params.member ?? '';
      const role = roleOf(body.role ?? '');
      const changed = await changeMemberRole(deps.core, sessionCaller(signedIn.account), team, member, role);
      if (!changed.ok) return failed(deps, ctx, signedIn, changed.error, { team });
      const t = teamTextOf(stateOf(ctx).language);
      const notice = { error: false, text: fill(t.roleChanged, { name: member, role: t[role] }) };
      await sendTeams(deps, ctx, signedIn, 200, { team, notice });
    },
  }),
  route({
    method: 'post',
    path: '/account/teams/{team}/members/{member}/remove',
    area: 'account',
    access: 'signed-in',
    doc: {
      id: 'removeTeamMemberByForm',
      summary: 'Remove a member, or leave',
      description:
        'Any member may leave; admins remove editors and viewers, owners anyone; the last owner stays.',
      parameters: [TEAM, MEMBER],
      responses: {
        200: html('The team’s page, saying so.'),
        303: seeOtherDoc('Left: to `/account/teams`, saying so.'),
        ...teamsDoc,
      },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn, params }) => {
      if (signedIn === null) return;
      const team = params.team ?? '';
      const member = params.member ?? '';
      const removed = await removeMember(deps.core, sessionCaller(signedIn.account), team, member);
      if (!removed.ok) return failed(deps, ctx, signedIn, removed.error, { team });
      if (member.toLowerCase() === signedIn.account.name.toLowerCase())
        return seeOther(ctx, `/account/teams?done=left&team=${encodeURIComponent(team)}`);
      const t = teamTextOf(stateOf(ctx).language);
      await sendTeams(deps, ctx, signedIn, 200, {
        team,
        notice: { error: false, text: fill(t.removed, { name: member }) },
      });
    },
  }),
  route({
    method: 'post',
    path: '/account/teams/{team}/invites/{id}/withdraw',
    area: 'account',
    access: 'signed-in',
    doc: {
      id: 'withdrawTeamInviteByForm',
      summary: 'Withdraw a team invite link',
      description: 'The link no longer joins (admins; an invite to become an owner takes an owner).',
      parameters: [TEAM, INVITE],
      responses: { 200: html('The team’s page, saying so.'), ...teamsDoc },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn, params }) => {
      if (signedIn === null) return;
      const team = params.team ?? '';
      const person = sessionCaller(signedIn.account);
      const withdrawn = await withdrawTeamInvite(deps.core, person, team, params.id ?? '');
      if (!withdrawn.ok) return failed(deps, ctx, signedIn, withdrawn.error, { team });
      const t = teamTextOf(stateOf(ctx).language);
      await sendTeams(deps, ctx, signedIn, 200, { team, notice: { error: false, text: t.withdrawn } });
    },
  }),
  route({
    method: 'post',
    path: '/account/teams/{team}/delete',
    area: 'account',
    access: 'signed-in',
    body: DeleteTeamForm,
    form: true,
    doc: {
      id: 'deleteTeamByForm',
      summary: 'Delete a team',
      description:
        'Owners only, with the team’s name typed to confirm: the team, its links and their statistics, its ' +
        'domains, keys, webhooks, members and invites go for good.',
      parameters: [TEAM],
      example: { confirm: 'design' },
      responses: {
        303: seeOtherDoc('Deleted: to `/account/teams`, saying so.'),
        ...teamsDoc,
      },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn, body, params }) => {
      if (signedIn === null) return;
      const team = params.team ?? '';
      if ((body.confirm ?? '').trim().toLowerCase() !== team.trim().toLowerCase()) {
        const t = teamTextOf(stateOf(ctx).language);
        const notice = { error: true, text: fill(t.deleteMismatch, { team }) };
        return sendTeams(deps, ctx, signedIn, 400, { team, notice });
      }
      const person = sessionCaller(signedIn.account);
      const deleted = await deleteTeam(teamDeletionDepsOf(deps), person, team);
      if (!deleted.ok) return failed(deps, ctx, signedIn, deleted.error, { team });
      seeOther(ctx, `/account/teams?done=deleted&team=${encodeURIComponent(deleted.value.name)}`);
    },
  }),
  route({
    method: 'get',
    path: '/join/{token}',
    area: 'account',
    access: 'anyone',
    doc: {
      id: 'openTeamInvite',
      summary: 'Open a team invite link',
      description:
        'Signed in: joins the team (a member already keeps their role) and goes to its page. Signed out: ' +
        'the sign-in page, saying which team and role it invites to, coming back here once signed in.',
      parameters: [JOIN_TOKEN],
      responses: {
        200: html('Signed out: the sign-in page, naming the team and role.'),
        303: seeOtherDoc('Joined (or already a member): to the team’s page.'),
        404: html('The link is unknown, used or expired.'),
      },
    },
    handle: async (ctx, { deps, params }) => {
      const { language } = stateOf(ctx);
      const token = params.token ?? '';
      const gone = () => sendAccountPage(ctx, 404, joinGonePage(language));
      const signedIn = await signedInOf(deps, ctx);
      if (signedIn === null) {
        const offered = await findTeamInvite(deps.core, token);
        if (offered === null) return gone();
        const t = teamTextOf(language);
        const invite = fill(t.joinInvite, { team: offered.team, role: t[offered.role] });
        const page = signInPage({
          language,
          signupOpen: signupOpen(deps),
          next: `/join/${token}`,
          invitation: invite,
        });
        return sendAccountPage(ctx, 200, page);
      }
      const person = sessionCaller(signedIn.account);
      const before = await listTeams(deps.core, person);
      const joined = await joinTeam(deps.core, person, token);
      if (!joined.ok) return gone();
      const member = before.ok && before.value.some((team) => team.name === joined.value.name);
      const done = member ? 'member' : 'joined';
      seeOther(ctx, `${teamsHref(joined.value.name, done)}&role=${joined.value.role}`);
    },
  }),
];

/** A role from a form, `viewer` for anything else (the weakest: never more than asked). */
const roleOf = (role: string): MemberRole => (isRole(role) ? role : 'viewer');
