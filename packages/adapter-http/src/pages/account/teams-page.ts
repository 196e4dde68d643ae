import type { Language, MemberRole, OpenTeamInvite } from '@shortener/core';
import { MEMBER_ROLES } from '@shortener/core';
import { copyButton } from '../copy-button.js';
import type { Notice } from '../notice.js';
import { noticeLine } from '../notice.js';
import type { SafeHtml } from '../layout.js';
import { accountAreaPage, html } from '../layout.js';
import { headCard, inputField, listOrNone, messageCard } from '../page-parts.js';
import { fill } from '../text.js';
import { when } from './settings-page.js';
import type { TeamText } from './team-text.js';
import { teamTextOf } from './team-text.js';

// The pages of teams (decisions §21): the switcher under every account page's header, `/account/teams`,
// and the answers of invite links.

/** A team the person belongs to, with their role there. */
export interface TeamRow {
  readonly name: string;
  readonly role: MemberRole;
}

/** What the switcher shows: the person, their teams, the account acted for, and the page to come back to. */
export interface SwitcherView {
  readonly language: Language;
  readonly person: string;
  readonly teams: readonly TeamRow[];
  /** The team acted for, or null for the person's own account. */
  readonly acting: TeamRow | null;
  readonly back: string;
}

/** The switcher (works without script: a select and a button) and the line naming the account acted for. */
export function switcherBar(view: SwitcherView): SafeHtml {
  const t = teamTextOf(view.language);
  const { acting } = view;
  const option = (value: string, label: string, selected: boolean) =>
    html`<option value="${value}" ${selected ? html`selected` : ''}>${label}</option>`;
  return html`<div class="bar acting">
    <p id="acting-for" role="status">
      ${
        acting === null
          ? fill(t.actingOwn, { account: view.person })
          : fill(t.actingFor, { account: acting.name, role: t[acting.role] })
      }
    </p>
    <form method="post" action="/account/switch" class="inline-form" id="switcher">
      <input type="hidden" name="back" value="${view.back}" />
      <label for="switch-account">${t.switchLabel}</label>
      <select id="switch-account" name="account">
        ${option('', fill(t.ownAccount, { account: view.person }), acting === null)}
        ${view.teams.map((team) =>
          option(team.name, `${team.name} (${t[team.role]})`, acting?.name === team.name),
        )}
      </select>
      <button type="submit" class="button">${t.switchSubmit}</button>
    </form>
  </div>`;
}

/** A member of the team shown. */
export interface MemberRow {
  readonly name: string;
  readonly role: MemberRole;
  readonly joinedAt: number;
}

/** What `/account/teams` shows. */
export interface TeamsView {
  readonly language: Language;
  readonly person: string;
  readonly teams: readonly TeamRow[];
  /** The team opened (`?team=`), its members, and whether the person may manage members and owners. */
  readonly team?: {
    readonly name: string;
    readonly role: MemberRole;
    readonly members: readonly MemberRow[];
    readonly manages: boolean;
    readonly managesOwners: boolean;
    /** Its open invites, for those who manage members. */
    readonly invites: readonly OpenTeamInvite[];
    /** Whether the person may delete the team (an owner). */
    readonly deletes: boolean;
  };
  readonly notice?: Notice;
  /** An invite link just made: shown this once. */
  readonly invite?: { readonly url: string; readonly role: MemberRole; readonly expiresAt: number };
  /** The name typed in the failed form to make a team. */
  readonly name?: string;
}

const roleSelect = (
  t: TeamText,
  id: string,
  label: string,
  roles: readonly MemberRole[],
  chosen: MemberRole,
) =>
  html`<label for="${id}">${label}</label>
    <select id="${id}" name="role">
      ${roles.map((role) => html`<option value="${role}" ${role === chosen ? html`selected` : ''}>${t[role]}</option>`)}
    </select>`;

/** The roles a member may give: owners any, admins up to admin. */
const rolesFor = (managesOwners: boolean): readonly MemberRole[] =>
  managesOwners ? MEMBER_ROLES : MEMBER_ROLES.filter((role) => role !== 'owner');

function memberItem(view: TeamsView, team: NonNullable<TeamsView['team']>, member: MemberRow, t: TeamText) {
  const base = `/account/teams/${encodeURIComponent(team.name)}/members/${encodeURIComponent(member.name)}`;
  const self = member.name === view.person;
  const touches = team.manages && (team.managesOwners || member.role !== 'owner');
  const id = `role-${member.name}`;
  return html`<li class="member" data-member="${member.name}">
    <strong>${member.name}</strong> ${self ? t.you : ''}
    <span>${t[member.role]}</span>
    <span class="hint">${fill(t.joined, { when: when(view.language, member.joinedAt) })}</span>
    ${
      touches
        ? html`<form method="post" action="${base}/role" class="inline-form">
            ${roleSelect(t, id, fill(t.roleLabel, { name: member.name }), rolesFor(team.managesOwners), member.role)}
            <button type="submit" class="button">${t.changeRole}</button>
          </form>`
        : ''
    }
    ${
      self || touches
        ? html`<form method="post" action="${base}/remove">
            <button type="submit" class="button danger">${self ? t.leave : t.remove}</button>
          </form>`
        : ''
    }
  </li>`;
}

function teamSection(view: TeamsView, t: TeamText): SafeHtml | '' {
  const team = view.team;
  if (team === undefined) return '';
  const path = `/account/teams/${encodeURIComponent(team.name)}`;
  const invite = view.invite;
  return html`<section class="card" aria-labelledby="members-title">
      <h2 id="members-title">${fill(t.members, { team: team.name })}</h2>
      ${listOrNone(
        team.members.map((member) => memberItem(view, team, member, t)),
        { id: 'members', class: 'settings-list' },
        html``,
      )}
    </section>
    ${
      team.manages
        ? html`<section class="card" aria-labelledby="invite-title">
            <h2 id="invite-title">${t.invite}</h2>
            <p class="hint">${t.inviteIntro}</p>
            ${
              invite === undefined
                ? ''
                : html`<div class="new-key" role="status" tabindex="-1" data-flash="secret">
                    <p>
                      ${fill(t.inviteShown, {
                        team: team.name,
                        role: t[invite.role],
                        until: when(view.language, invite.expiresAt),
                      })}
                    </p>
                    <p><code id="invite-url" class="secret">${invite.url}</code></p>
                    <p>${copyButton(view.language, invite.url)}</p>
                  </div>`
            }
            <form method="post" action="${path}/invites" class="stack">
              <div class="field">
                ${roleSelect(t, 'invite-role', t.inviteRole, rolesFor(team.managesOwners), 'editor')}
              </div>
              ${inputField('invite-days', t.inviteDays, html`name="expires_in_days" type="number" min="1" max="90" value="7" required`)}
              <button type="submit">${t.inviteSubmit}</button>
            </form>
            <h3 id="open-invites-title">${t.openInvites}</h3>
            ${listOrNone(
              team.invites.map((invite) => openInviteItem(view, team, invite, t)),
              { id: 'open-invites', class: 'settings-list' },
              html`<p>${t.openInvitesNone}</p>`,
            )}
          </section>`
        : ''
    }
    ${team.deletes ? deleteSection(team.name, t) : ''}`;
}

function openInviteItem(
  view: TeamsView,
  team: NonNullable<TeamsView['team']>,
  invite: OpenTeamInvite,
  t: TeamText,
): SafeHtml {
  const action = `/account/teams/${encodeURIComponent(team.name)}/invites/${invite.id}/withdraw`;
  const until = when(view.language, invite.expiresAt);
  const withdraws = team.managesOwners || invite.role !== 'owner';
  return html`<li class="invite" data-invite="${invite.id}">
    <span>${fill(t.openInvite, { role: t[invite.role], who: invite.createdBy, until })}</span>
    ${
      withdraws
        ? html`<form method="post" action="${action}" class="inline-form">
            <button type="submit" class="button danger">${t.withdraw}</button>
          </form>`
        : ''
    }
  </li>`;
}

/** The owner's card to delete the team: its name typed to confirm, so one click never does it. */
function deleteSection(team: string, t: TeamText): SafeHtml {
  return html`<section class="card" aria-labelledby="delete-team-title">
    <h2 id="delete-team-title">${t.deleteTitle}</h2>
    <p class="hint">${fill(t.deleteIntro, { team })}</p>
    <form method="post" action="/account/teams/${encodeURIComponent(team)}/delete" class="stack">
      ${inputField(
        'delete-confirm',
        t.deleteConfirm,
        html`name="confirm" required autocomplete="off" autocapitalize="none" spellcheck="false"
        placeholder="${team}"`,
      )}
      <button type="submit" class="danger">${t.deleteSubmit}</button>
    </form>
  </section>`;
}

/** `/account/teams`: make a team, the person's teams, and the members of the one opened. */
export function teamsPage(view: TeamsView): string {
  const t = teamTextOf(view.language);
  const items = view.teams.map(
    (team) =>
      html`<li class="team" data-team="${team.name}">
        <a href="/account/teams?team=${encodeURIComponent(team.name)}"><strong>${team.name}</strong></a>
        <span>${fill(t.yourRole, { role: t[team.role] })}</span>
      </li>`,
  );
  const main = html`${headCard('teams', t.title, t.back, noticeLine(view.notice, 'teams-notice'))}
    <section class="card" aria-labelledby="your-teams-title">
      <h2 id="your-teams-title">${t.yours}</h2>
      <p class="hint">${t.intro}</p>
      ${listOrNone(items, { id: 'teams', class: 'settings-list' }, html`<p>${t.none}</p>`)}
    </section>
    ${teamSection(view, t)}
    <section class="card" aria-labelledby="create-team-title">
      <h2 id="create-team-title">${t.create}</h2>
      <form method="post" action="/account/teams" class="stack">
        ${inputField(
          'team-name',
          t.nameLabel,
          html`name="name" value="${view.name ?? ''}" required maxlength="64" autocomplete="off"
          autocapitalize="none" spellcheck="false" aria-describedby="team-name-hint"`,
          html`<small class="hint" id="team-name-hint">${t.nameHint}</small>`,
        )}
        <button type="submit">${t.createSubmit}</button>
      </form>
    </section>`;
  return accountAreaPage(view.language, t.title, main, ['copy.js', 'flash.js']);
}

/** The 404 page of an invite link that is unknown, used or expired. */
export function joinGonePage(language: Language): string {
  const t = teamTextOf(language);
  const card = { title: t.joinGoneTitle, text: t.joinGone, href: '/account', link: t.back };
  return accountAreaPage(language, t.joinGoneTitle, messageCard(card, 'not-found'), []);
}

/** The 403 page of a form the role acted with may not send, saying the role needed. */
export function forbiddenPage(language: Language, message: string): string {
  const t = teamTextOf(language);
  const card = { title: t.forbiddenTitle, text: message, href: '/account', link: t.back };
  return accountAreaPage(language, t.forbiddenTitle, messageCard(card, 'forbidden'), []);
}
