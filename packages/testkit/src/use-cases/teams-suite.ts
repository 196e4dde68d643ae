import type { Action, Caller, MemberRole, Result, Stores } from '@shortener/core';
import {
  ACTIONS,
  actingFor,
  authenticateApiKey,
  changeMemberRole,
  createAccount,
  createLink,
  createTeam,
  deleteTeam,
  getLink,
  getStatsAcross,
  inviteToTeam,
  joinTeam,
  keyCaller,
  listMembers,
  listTeamInvites,
  listTeams,
  makeApiKey,
  permission,
  removeMember,
  sessionCaller,
  updateLink,
  withdrawTeamInvite,
} from '@shortener/core';
import { describe, expect, it } from 'vitest';
import type { Harness } from './core-harness.js';
import { codeOf, useCoreHarness, valueOf } from './core-harness.js';

/** Who tries each action: members of each role acting for the team, and the team's keys of each role. */
const WHO = [
  'owner',
  'admin',
  'editor',
  'viewer',
  'key:admin',
  'key:editor',
  'key:viewer',
  'key:creator',
] as const;
type Who = (typeof WHO)[number];

const all = (allowed: readonly Who[]): Record<Who, boolean> =>
  Object.fromEntries(WHO.map((who) => [who, allowed.includes(who)])) as Record<Who, boolean>;

const EVERY_MEMBER: readonly Who[] = ['owner', 'admin', 'editor', 'viewer'];
const READERS: readonly Who[] = [...EVERY_MEMBER, 'key:admin', 'key:editor', 'key:viewer'];
const EDITORS: readonly Who[] = ['owner', 'admin', 'editor', 'key:admin', 'key:editor'];
const ADMINS: readonly Who[] = ['owner', 'admin', 'key:admin'];

/**
 * Decisions §21, written out: who may take each action in a team. A new action in core's table fails the
 * matrix below until its row is written here (and its attempt).
 */
const EXPECTED: Record<Action, Record<Who, boolean>> = {
  'links.create': all([...EDITORS, 'key:creator']),
  'links.read': all(READERS),
  'links.change': all(EDITORS),
  'stats.read': all(READERS),
  'imports.run': all(EDITORS),
  'members.read': all(READERS),
  'members.manage': all(ADMINS),
  'owners.manage': all(['owner']),
  'keys.manage': all(ADMINS),
  'webhooks.manage': all(ADMINS),
  'domains.manage': all(ADMINS),
  'team.delete': all(['owner']),
};

interface Team {
  readonly h: Harness;
  readonly callers: Record<Who, Caller>;
  readonly linkId: string;
  readonly people: Record<MemberRole, Caller>;
}

/** A person, by session, in their own account. */
async function person(h: Harness, name: string): Promise<Caller> {
  return sessionCaller(valueOf(await createAccount(h, name)));
}

/** A member of `team` acting for it. */
const acting = async (h: Harness, caller: Caller, team = 'acme') => valueOf(await actingFor(h, caller, team));

/** The caller of a new key made by `maker` (acting for the team: a team key). */
async function keyOf(h: Harness, maker: Caller, input: Parameters<typeof makeApiKey>[2]): Promise<Caller> {
  const { secret } = valueOf(await makeApiKey(h, maker, input, 'api'));
  const key = valueOf(await authenticateApiKey(h, secret));
  return keyCaller(key, key.account, null);
}

/** `acme`, owned by alice, with bob (admin), carol (editor) and dave (viewer) joined by invite links. */
async function teamOf(h: Harness): Promise<Team> {
  const alice = await person(h, 'alice');
  valueOf(await createTeam(h, alice, 'acme'));
  const owner = await acting(h, alice);
  const people: Record<MemberRole, Caller> = { owner: alice, admin: alice, editor: alice, viewer: alice };
  for (const [name, role] of [
    ['bob', 'admin'],
    ['carol', 'editor'],
    ['dave', 'viewer'],
  ] as const) {
    const member = await person(h, name);
    h.clock.advance(1000); // members are listed by when they joined
    const { url } = valueOf(await inviteToTeam(h, alice, 'acme', { role }));
    valueOf(await joinTeam(h, member, url.slice(url.lastIndexOf('/') + 1)));
    people[role] = member;
  }
  const link = valueOf(await createLink(h, { url: 'https://example.com/team' }, owner));
  const callers = {} as Record<Who, Caller>;
  for (const role of ['owner', 'admin', 'editor', 'viewer'] as const)
    callers[role] = await acting(h, people[role]);
  for (const role of ['admin', 'editor', 'viewer', 'creator'] as const)
    callers[`key:${role}`] = await keyOf(h, owner, { name: role, role });
  return { h, callers, linkId: link.link.id, people };
}

/** One attempt at each action through core, as every entry point makes it. */
const ATTEMPTS: Record<Action, (team: Team, caller: Caller) => Promise<Result<unknown>>> = {
  'links.create': ({ h }, c) => createLink(h, { url: 'https://example.com/new' }, c),
  'links.read': ({ h, linkId }, c) => getLink(h, linkId, c),
  'links.change': ({ h, linkId }, c) => updateLink(h, linkId, { title: 'changed' }, c),
  'stats.read': ({ h }, c) => getStatsAcross(h, null, { days: 7 }, c),
  // imports, webhooks and domains take the account a route or tool has checked with `permission`
  'imports.run': async (_team, c) => permission(c, 'imports.run'),
  'members.read': ({ h }, c) => listMembers(h, c, 'acme'),
  'members.manage': ({ h }, c) => inviteToTeam(h, c, 'acme', { role: 'viewer' }),
  'owners.manage': ({ h }, c) => inviteToTeam(h, c, 'acme', { role: 'owner' }),
  'keys.manage': ({ h }, c) => makeApiKey(h, c, { name: 'more', role: 'viewer' }, 'api'),
  'webhooks.manage': async (_team, c) => permission(c, 'webhooks.manage'),
  'domains.manage': async (_team, c) => permission(c, 'domains.manage'),
  // deleting is tried for real below, once: here the owner would delete the team for the others
  'team.delete': async (_team, c) => permission(c, 'team.delete'),
};

/** Teams, roles and keys that can do less (decisions §21), through core on a real store. */
export function describeTeamsSuite(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: teams and roles`, () => {
    const harness = useCoreHarness(open);

    it('lets each role and each team key take exactly the actions of decisions §21', async () => {
      const team = await teamOf(harness());
      for (const action of ACTIONS) {
        const expected = EXPECTED[action];
        expect(expected, `the row of ${action}`).toBeDefined();
        for (const who of WHO) {
          const result = await ATTEMPTS[action](team, team.callers[who]);
          const allowed = result.ok || result.error.code !== 'forbidden';
          expect(allowed, `${who} → ${action}`).toBe(expected[who]);
          if (!result.ok && result.error.code === 'forbidden' && !who.startsWith('key:'))
            expect(result.error.message, `${who} → ${action}`).toMatch(
              /needs the (owner|admin|editor|viewer) role/,
            );
        }
      }
    });

    it('hides a team from people who are not in it, and lets a team key act only as its team', async () => {
      const { h, callers } = await teamOf(harness());
      const stranger = await person(h, 'mallory');
      expect(codeOf(await actingFor(h, stranger, 'acme'))).toBe('not_found');
      expect(codeOf(await actingFor(h, stranger, 'nobody'))).toBe('not_found');
      expect(codeOf(await listMembers(h, stranger, 'acme'))).toBe('not_found');
      expect(codeOf(await actingFor(h, callers['key:admin'], 'mallory'))).toBe('not_found');
      expect(valueOf(await actingFor(h, callers['key:admin'], 'ACME')).accountId).toBe(
        callers['key:admin'].accountId,
      );
      // a person is not a team: their own name acts as themself, but is no team to list
      expect(valueOf(await actingFor(h, stranger, 'mallory'))).toEqual(stranger);
      expect(codeOf(await listMembers(h, stranger, 'mallory'))).toBe('not_found');
    });

    it('lists the person’s teams with their role, and the members oldest first', async () => {
      const { h, people } = await teamOf(harness());
      expect(valueOf(await listTeams(h, people.editor))).toEqual([
        { name: 'acme', kind: 'team', role: 'editor' },
      ]);
      const members = valueOf(await listMembers(h, people.viewer, 'acme'));
      expect(members.map((m) => [m.name, m.role])).toEqual([
        ['alice', 'owner'],
        ['bob', 'admin'],
        ['carol', 'editor'],
        ['dave', 'viewer'],
      ]);
    });

    it('shares the accounts’ names: a team cannot take a person’s name in any case', async () => {
      const h = harness();
      const alice = await person(h, 'alice');
      await person(h, 'Bob');
      expect(codeOf(await createTeam(h, alice, 'bob'))).toBe('invalid_request');
      expect(codeOf(await createTeam(h, alice, 'has space'))).toBe('invalid_request');
      valueOf(await createTeam(h, alice, 'Acme'));
      expect(codeOf(await createTeam(h, alice, 'ACME'))).toBe('invalid_request');
      expect(codeOf(await createAccount(h, 'acme'))).toBe('invalid_request');
    });

    it('uses an invite link once, until it expires, and keeps a member’s role when they open another', async () => {
      const h = harness();
      const alice = await person(h, 'alice');
      valueOf(await createTeam(h, alice, 'acme'));
      const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
      const first = tokenOf(valueOf(await inviteToTeam(h, alice, 'acme', { role: 'editor' })).url);
      const bob = await person(h, 'bob');
      const carol = await person(h, 'carol');
      expect(valueOf(await joinTeam(h, bob, first)).role).toBe('editor');
      expect(codeOf(await joinTeam(h, carol, first))).toBe('not_found');
      const second = tokenOf(valueOf(await inviteToTeam(h, alice, 'acme', { role: 'admin' })).url);
      expect(valueOf(await joinTeam(h, bob, second)).role).toBe('editor');
      expect(valueOf(await joinTeam(h, carol, second)).role).toBe('admin');
      const late = tokenOf(
        valueOf(await inviteToTeam(h, alice, 'acme', { role: 'viewer', expiresInDays: 1 })).url,
      );
      h.clock.advance(86_400_000);
      expect(codeOf(await joinTeam(h, await person(h, 'dave'), late))).toBe('not_found');
      expect(codeOf(await joinTeam(h, bob, 'tinv_nonsense'))).toBe('not_found');
    });

    it('changes roles, lets members leave, and never leaves a team without an owner', async () => {
      const { h, people } = await teamOf(harness());
      expect(codeOf(await changeMemberRole(h, people.admin, 'acme', 'carol', 'owner'))).toBe('forbidden');
      expect(codeOf(await changeMemberRole(h, people.admin, 'acme', 'alice', 'viewer'))).toBe('forbidden');
      expect(valueOf(await changeMemberRole(h, people.admin, 'acme', 'dave', 'editor')).role).toBe('editor');
      expect(codeOf(await changeMemberRole(h, people.owner, 'acme', 'alice', 'admin'))).toBe('last_owner');
      expect(codeOf(await removeMember(h, people.owner, 'acme', 'alice'))).toBe('last_owner');
      expect(codeOf(await removeMember(h, people.editor, 'acme', 'dave'))).toBe('forbidden');
      valueOf(await removeMember(h, people.viewer, 'acme', 'dave')); // leaves
      expect(codeOf(await listMembers(h, people.viewer, 'acme'))).toBe('not_found');
      expect(codeOf(await removeMember(h, people.owner, 'acme', 'nobody'))).toBe('not_found');
      valueOf(await changeMemberRole(h, people.owner, 'acme', 'bob', 'owner'));
      valueOf(await changeMemberRole(h, people.admin, 'acme', 'alice', 'editor')); // bob, an owner now
      expect(codeOf(await changeMemberRole(h, people.admin, 'acme', 'bob', 'admin'))).toBe('last_owner');
    });

    it('leaves one owner of two after 50 simultaneous demotions of both', async () => {
      const { h, people } = await teamOf(harness());
      valueOf(await changeMemberRole(h, people.owner, 'acme', 'bob', 'owner'));
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          changeMemberRole(
            h,
            i % 2 === 0 ? people.owner : people.admin,
            'acme',
            i % 2 === 0 ? 'bob' : 'alice',
            'editor',
          ),
        ),
      );
      const members = valueOf(await listMembers(h, people.editor, 'acme'));
      expect(members.filter((m) => m.role === 'owner')).toHaveLength(1);
      expect(results.some((r) => !r.ok && r.error.code === 'last_owner')).toBe(true);
    });

    it('keeps a key within its role and limits, and never stronger than its maker', async () => {
      const { h, people } = await teamOf(harness());
      const owner = await acting(h, people.owner);
      const blog = await keyOf(h, owner, {
        name: 'blog',
        role: 'creator',
        domains: ['alt.example'],
        url_hosts: ['example.com'],
      });
      const made = valueOf(
        await createLink(h, { url: 'https://www.example.com/post', domain: 'alt.example' }, blog),
      );
      expect(made.link.createdBy).toMatch(/^key:shk_/);
      const elsewhere = await createLink(h, { url: 'https://other.org/', domain: 'alt.example' }, blog);
      expect(elsewhere.ok ? null : [elsewhere.error.code, elsewhere.error.field]).toEqual([
        'forbidden',
        'url',
      ]);
      const otherDomain = await createLink(h, { url: 'https://example.com/', domain: 'sho.rt' }, blog);
      expect(otherDomain.ok ? null : [otherDomain.error.code, otherDomain.error.field]).toEqual([
        'forbidden',
        'domain',
      ]);
      expect(codeOf(await getLink(h, made.link.id, blog))).toBe('forbidden');
      // an editor makes no keys; a limited admin key makes keys within its limits only
      expect(codeOf(await makeApiKey(h, await acting(h, people.editor), { name: 'x' }, 'api'))).toBe(
        'forbidden',
      );
      const limited = await keyOf(h, owner, { name: 'limited', url_hosts: ['example.com'] });
      expect(codeOf(await makeApiKey(h, limited, { name: 'y', url_hosts: ['other.org'] }, 'api'))).toBe(
        'forbidden',
      );
      const inherited = await keyOf(h, limited, { name: 'z', role: 'editor' });
      expect(inherited.grant?.urlHosts).toEqual(['example.com']);
      expect(codeOf(await makeApiKey(h, owner, { name: 'bad', domains: ['nowhere.example'] }, 'api'))).toBe(
        'domain_invalid',
      );
    });

    it('records who made and who last changed a link', async () => {
      const { h, people, linkId } = await teamOf(harness());
      expect(valueOf(await getLink(h, linkId, await acting(h, people.viewer))).createdBy).toBe('alice');
      const changed = valueOf(await updateLink(h, linkId, { title: 'new' }, await acting(h, people.editor)));
      expect([changed.createdBy, changed.updatedBy]).toEqual(['alice', 'carol']);
    });

    it('deletes a team for an owner only, with its links, keys, members and invites; its name is free again', async () => {
      const { h, people, callers, linkId } = await teamOf(harness());
      valueOf(await inviteToTeam(h, people.owner, 'acme', { role: 'editor' }));
      for (const who of ['admin', 'editor', 'viewer'] as const)
        expect(codeOf(await deleteTeam(h, people[who], 'acme'))).toBe('forbidden');
      expect(codeOf(await deleteTeam(h, callers['key:admin'], 'acme'))).toBe('forbidden');
      const teamId = callers.owner.accountId ?? '';
      const second = valueOf(await createLink(h, { url: 'https://example.com/two' }, callers.owner));

      expect(valueOf(await deleteTeam(h, people.owner, 'ACME'))).toEqual({ name: 'acme', links: 2 });
      expect(await h.links.findById(linkId)).toBeNull();
      expect(await h.links.findById(second.link.id)).toBeNull();
      expect(await h.accounts.findAccountById(teamId)).toBeNull();
      expect(await h.teams.findMembership(teamId, people.editor.personId ?? '')).toBeNull();
      expect(await h.teams.listTeamInvites(teamId, h.clock.now())).toEqual([]);
      expect(valueOf(await listTeams(h, people.editor))).toEqual([]);
      expect(codeOf(await actingFor(h, people.owner, 'acme'))).toBe('not_found');
      const keys = await h.accounts.listApiKeys(teamId);
      expect(keys.every((key) => key.revokedAt !== null)).toBe(true);
      expect(codeOf(await deleteTeam(h, people.owner, 'acme'))).toBe('not_found');
      // the name is free: a person or a team may take it
      valueOf(await createTeam(h, people.viewer, 'acme'));
      expect(valueOf(await listMembers(h, people.viewer, 'acme')).map((m) => m.name)).toEqual(['dave']);
    });

    it('lists open invites to admins, and withdraws them; an owner’s invite only an owner withdraws', async () => {
      const { h, people } = await teamOf(harness());
      const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
      const editor = valueOf(await inviteToTeam(h, people.admin, 'acme', { role: 'editor' }));
      h.clock.advance(1000);
      valueOf(await inviteToTeam(h, people.owner, 'acme', { role: 'owner', expiresInDays: 2 }));
      const open = valueOf(await listTeamInvites(h, people.admin, 'acme'));
      expect(open.map((i) => [i.role, i.createdBy])).toEqual([
        ['owner', 'alice'],
        ['editor', 'bob'],
      ]);
      expect(open[0]?.id).toMatch(/^[0-9a-f]{16}$/);
      expect(codeOf(await listTeamInvites(h, people.editor, 'acme'))).toBe('forbidden');
      const [owners, editors] = open;
      expect(codeOf(await withdrawTeamInvite(h, people.admin, 'acme', owners?.id ?? ''))).toBe('forbidden');
      valueOf(await withdrawTeamInvite(h, people.admin, 'acme', editors?.id ?? ''));
      expect(codeOf(await withdrawTeamInvite(h, people.admin, 'acme', editors?.id ?? ''))).toBe('not_found');
      expect(codeOf(await withdrawTeamInvite(h, people.admin, 'acme', 'not-an-id'))).toBe('not_found');
      // a withdrawn link no longer joins
      const erin = await person(h, 'erin');
      expect(codeOf(await joinTeam(h, erin, tokenOf(editor.url)))).toBe('not_found');
      valueOf(await withdrawTeamInvite(h, people.owner, 'acme', owners?.id ?? ''));
      expect(valueOf(await listTeamInvites(h, people.owner, 'acme'))).toEqual([]);
    });

    it('leaves no link of a team deleted while its members make links at once', async () => {
      const { h, people, callers } = await teamOf(harness());
      const teamId = callers.owner.accountId ?? '';
      const makers = [callers.editor, callers.admin, callers['key:creator'], callers.owner];
      const [deleted, ...made] = await Promise.all([
        deleteTeam(h, people.owner, 'acme'),
        ...Array.from({ length: 40 }, (_, i) =>
          createLink(h, { url: `https://example.com/at-once/${i}` }, makers[i % makers.length]!),
        ),
      ]);
      expect(valueOf(deleted).links).toBeGreaterThanOrEqual(1);
      for (const result of made) if (!result.ok) expect(result.error.code).toBe('not_found');
      expect(await h.links.list({ accountId: teamId, limit: 100 })).toEqual([]);
      for (const result of made)
        if (result.ok) expect(await h.links.findById(result.value.link.id)).toBeNull();
    });
  });
}
