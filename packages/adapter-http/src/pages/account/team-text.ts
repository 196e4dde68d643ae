import { byLanguage } from '../text.js';
import type { TextsLike } from '../text.js';

/** The shape of one language's texts of teams on the pages (decisions §21). */
export type TeamText = TextsLike<typeof EN>;

/** The texts of `/account/teams`, the switcher and invite links, in English. */
const EN = {
  title: 'Teams',
  intro: 'A team is an account people act for: its links, keys, webhooks and domains are the team’s.',
  back: 'Back to your account',
  create: 'Make a team',
  nameLabel: 'Team name',
  nameHint: '1-64 letters, digits, _ . @ -; teams and people share one set of names.',
  createSubmit: 'Make team',
  created: 'Team {team} made: you are its owner.',
  yours: 'Your teams',
  none: 'You are in no team yet.',
  yourRole: 'your role: {role}',
  open: 'Open',
  members: 'Members of {team}',
  joined: 'joined {when}',
  you: '(you)',
  roleLabel: 'Role of {name}',
  changeRole: 'Change role',
  roleChanged: '{name} is now {role}.',
  remove: 'Remove',
  removed: '{name} is no longer a member.',
  leave: 'Leave team',
  left: 'You left {team}.',
  invite: 'Invite someone',
  inviteIntro: 'A one-time link: whoever opens it signed in joins with this role.',
  inviteRole: 'Role',
  inviteDays: 'Days the link works',
  inviteSubmit: 'Make invite link',
  inviteShown:
    'The invite link into {team} as {role}, working until {until}. Copy it now: it is not shown again.',
  owner: 'owner',
  admin: 'admin',
  editor: 'editor',
  viewer: 'viewer',
  actingFor: 'Acting for {account} ({role})',
  actingOwn: 'Acting for your own account ({account})',
  switchLabel: 'Act for',
  ownAccount: 'your own account ({account})',
  switchSubmit: 'Switch',
  notMember: 'You are not a member of {account}: acting for your own account.',
  joinedTeam: 'You joined {team} as {role}.',
  alreadyMember: 'You are already a member of {team} ({role}).',
  joinInvite: 'This link invites you into the team {team} as {role}. Sign in (or sign up) to join.',
  joinGoneTitle: 'Invite link not valid',
  joinGone: 'This invite link is unknown, used or expired. Ask the team for a new one.',
  forbiddenTitle: 'Not allowed',
  createdBy: 'Created by {who}',
  changedBy: 'changed by {who}',
  by: 'by {who}',
};

export const teamTextOf = byLanguage<TeamText>({ en: EN, de: EN, fr: EN, es: EN });
