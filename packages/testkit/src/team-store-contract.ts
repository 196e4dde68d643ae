import type { Account, MemberRole, Membership, Stores, TeamInviteRecord } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { anAccount, anApiKey, FIXTURE_TIME } from './fixtures.js';
import { givenAccount, useFreshStores } from './fresh-stores.js';

const DAY = 86_400_000;
let sequence = 0;

/** An unused invite to `teamId` valid for a day from {@link FIXTURE_TIME}, with a unique hash; overrides win. */
export function aTeamInvite(teamId: string, overrides: Partial<TeamInviteRecord> = {}): TeamInviteRecord {
  sequence += 1;
  return {
    tokenHash: `d${sequence.toString(16).padStart(63, '0')}`,
    teamId,
    role: 'editor',
    createdBy: 'nobody',
    createdAt: FIXTURE_TIME,
    expiresAt: FIXTURE_TIME + DAY,
    usedAt: null,
    usedBy: null,
    ...overrides,
  };
}

const member = (team: Account, person: Account, role: MemberRole, joinedAt = FIXTURE_TIME): Membership => ({
  teamId: team.id,
  personId: person.id,
  role,
  joinedAt,
});

/** Creates a team with `owner` as its first owner; fails the test when the store refuses it. */
async function givenTeam(stores: Stores, owner: Account, overrides: Partial<Account> = {}): Promise<Account> {
  const team = anAccount({ kind: 'team', ...overrides });
  const created = await stores.teams.createTeam(team, member(team, owner, 'owner'));
  if (!created.ok) expect.fail(`could not create the team: ${created.error.code}`);
  return created.value;
}

/**
 * Two owners of a new team, every connection of a pool opened first (concurrent reads) so the calls
 * that follow really overlap rather than wait in turn for connections to open.
 */
async function givenTwoOwners(stores: Stores): Promise<{ team: Account; owners: string[] }> {
  const { team, people } = await givenMembers(stores, 'owner');
  await Promise.all(Array.from({ length: 20 }, () => stores.teams.findMembership(team.id, team.id)));
  return { team, owners: people.map((p) => p.id) };
}

/** A team whose first owner is a new person, and a new person for each of `roles` after. */
async function givenMembers(
  stores: Stores,
  ...roles: MemberRole[]
): Promise<{ team: Account; people: Account[] }> {
  const owner = await givenAccount(stores);
  const team = await givenTeam(stores, owner);
  const people = [owner];
  for (const role of roles) {
    const person = await givenAccount(stores);
    await stores.teams.addMember(member(team, person, role));
    people.push(person);
  }
  return { team, people };
}

/** The people with the role `owner` in the team. */
const ownersOf = async (stores: Stores, team: Account) =>
  (await stores.teams.listMembers(team.id)).filter((m) => m.role === 'owner').map((m) => m.personId);

/**
 * Registers the TeamStore contract (decisions §21): every TeamStore must pass it (memory, SQLite,
 * PostgreSQL). A team keeps an owner under any number of concurrent demotions and removals; an invite
 * is used once.
 */
export function describeTeamStoreContract(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: TeamStore contract`, () => {
    const stores = useFreshStores(open);
    describeTeamsAndMembers(stores);
    describeOwners(stores);
    describeInvites(stores);
  });
}

function describeTeamsAndMembers(stores: () => Stores): void {
  describe('teams and members', () => {
    it('creates a team with its first owner: an account of kind team, found with its member', async () => {
      const s = stores();
      const alice = await givenAccount(s, { name: 'alice' });
      const team = anAccount({ name: 'Acme', kind: 'team', createdAt: FIXTURE_TIME + 1 });
      const owner = member(team, alice, 'owner', FIXTURE_TIME + 1);
      expect(await s.teams.createTeam(team, owner)).toStrictEqual({ ok: true, value: team });
      expect(await s.accounts.findAccountById(team.id)).toStrictEqual(team);
      expect(await s.accounts.findAccountByName('acme')).toStrictEqual(team);
      expect(await s.teams.findMembership(team.id, alice.id)).toStrictEqual(owner);
      expect(await s.teams.listMembers(team.id)).toStrictEqual([{ ...owner, name: 'alice' }]);
      expect(await s.teams.listTeamsOf(alice.id)).toStrictEqual([{ team, role: 'owner' }]);
    });

    it('refuses a name taken by a person or a team, in any case, creating neither account nor membership', async () => {
      const s = stores();
      const alice = await givenAccount(s, { name: 'Alice' });
      const acme = await givenTeam(s, alice, { name: 'acme' });
      for (const name of ['alice', 'ALICE', 'Acme']) {
        const team = anAccount({ name, kind: 'team' });
        const result = await s.teams.createTeam(team, member(team, alice, 'owner'));
        expect(result.ok ? null : { code: result.error.code, field: result.error.field }).toEqual({
          code: 'invalid_request',
          field: 'name',
        });
        expect(await s.accounts.findAccountById(team.id)).toBeNull();
        expect(await s.teams.findMembership(team.id, alice.id)).toBeNull();
      }
      expect(await s.teams.listTeamsOf(alice.id)).toStrictEqual([{ team: acme, role: 'owner' }]);
      expect(await s.accounts.listAccounts()).toHaveLength(2);
    });

    it('adds a member once, the second add changing nothing', async () => {
      const s = stores();
      const [alice, bob] = [await givenAccount(s), await givenAccount(s)];
      const team = await givenTeam(s, alice);
      const bobs = member(team, bob, 'viewer', FIXTURE_TIME + 5);
      expect(await s.teams.addMember(bobs)).toBe(true);
      expect(await s.teams.addMember({ ...bobs, role: 'admin', joinedAt: FIXTURE_TIME + 6 })).toBe(false);
      expect(await s.teams.findMembership(team.id, bob.id)).toStrictEqual(bobs);
      expect(await s.teams.findMembership(team.id, 'no-such-person')).toBeNull();
      expect(await s.teams.findMembership('no-such-team', bob.id)).toBeNull();
    });

    it('lists the members with their names, oldest membership first', async () => {
      const s = stores();
      const [carol, alice, bob] = [
        await givenAccount(s, { name: 'carol' }),
        await givenAccount(s, { name: 'alice' }),
        await givenAccount(s, { name: 'bob' }),
      ];
      const team = await givenTeam(s, carol);
      await s.teams.addMember(member(team, bob, 'editor', FIXTURE_TIME + 20));
      await s.teams.addMember(member(team, alice, 'viewer', FIXTURE_TIME + 10));
      const listed = await s.teams.listMembers(team.id);
      expect(listed.map((m) => [m.name, m.role, m.joinedAt])).toEqual([
        ['carol', 'owner', FIXTURE_TIME],
        ['alice', 'viewer', FIXTURE_TIME + 10],
        ['bob', 'editor', FIXTURE_TIME + 20],
      ]);
      expect(listed[1]).toStrictEqual({ ...member(team, alice, 'viewer', FIXTURE_TIME + 10), name: 'alice' });
      expect(await s.teams.listMembers('no-such-team')).toEqual([]);
    });

    it("lists a person's teams with the role there, by team name whatever its case", async () => {
      const s = stores();
      const [alice, bob] = [await givenAccount(s), await givenAccount(s)];
      const zeta = await givenTeam(s, alice, { name: 'zeta' });
      const beta = await givenTeam(s, bob, { name: 'Beta' });
      const alpha = await givenTeam(s, alice, { name: 'alpha' });
      await s.teams.addMember(member(beta, alice, 'viewer'));
      expect(await s.teams.listTeamsOf(alice.id)).toStrictEqual([
        { team: alpha, role: 'owner' },
        { team: beta, role: 'viewer' },
        { team: zeta, role: 'owner' },
      ]);
      expect(await s.teams.listTeamsOf(bob.id)).toStrictEqual([{ team: beta, role: 'owner' }]);
      expect(await s.teams.listTeamsOf('no-such-person')).toEqual([]);
    });
  });
}

function describeOwners(stores: () => Stores): void {
  describe('roles and the last owner', () => {
    it('changes roles, refusing to demote or remove the last owner', async () => {
      const s = stores();
      const { team, people } = await givenMembers(s, 'viewer', 'editor');
      const [alice, bob, carol] = people as [Account, Account, Account];
      expect(await s.teams.setMemberRole(team.id, bob.id, 'admin')).toBe('done');
      expect((await s.teams.findMembership(team.id, bob.id))?.role).toBe('admin');
      for (const role of ['admin', 'editor', 'viewer'] as const) {
        expect(await s.teams.setMemberRole(team.id, alice.id, role)).toBe('last_owner');
      }
      expect(await s.teams.removeMember(team.id, alice.id)).toBe('last_owner');
      expect(await s.teams.setMemberRole(team.id, alice.id, 'owner')).toBe('done');
      expect(await ownersOf(s, team)).toEqual([alice.id]);
      expect(await s.teams.removeMember(team.id, carol.id)).toBe('done');
      expect(await s.teams.findMembership(team.id, carol.id)).toBeNull();
      expect(await s.teams.listTeamsOf(carol.id)).toEqual([]);
    });

    it('removes or demotes an owner when another owner remains', async () => {
      const s = stores();
      const { team, people } = await givenMembers(s, 'editor', 'owner');
      const [alice, bob, carol] = people as [Account, Account, Account];
      expect(await s.teams.setMemberRole(team.id, bob.id, 'owner')).toBe('done');
      expect(await s.teams.removeMember(team.id, alice.id)).toBe('done');
      expect(await s.teams.setMemberRole(team.id, carol.id, 'viewer')).toBe('done');
      expect(await s.teams.setMemberRole(team.id, bob.id, 'viewer')).toBe('last_owner');
      expect(await s.teams.removeMember(team.id, bob.id)).toBe('last_owner');
      expect(await ownersOf(s, team)).toEqual([bob.id]);
    });

    it('answers not_found for a person who is not a member, changing nothing', async () => {
      const s = stores();
      const [alice, bob] = [await givenAccount(s), await givenAccount(s)];
      const team = await givenTeam(s, alice);
      const other = await givenTeam(s, bob);
      expect(await s.teams.setMemberRole(team.id, bob.id, 'owner')).toBe('not_found');
      expect(await s.teams.removeMember(team.id, bob.id)).toBe('not_found');
      expect(await s.teams.setMemberRole('no-such-team', alice.id, 'viewer')).toBe('not_found');
      expect(await s.teams.removeMember(other.id, alice.id)).toBe('not_found');
      expect(await s.teams.findMembership(team.id, bob.id)).toBeNull();
      expect(await ownersOf(s, other)).toEqual([bob.id]);
    });

    it('leaves exactly one owner of two after 50 concurrent demotions of both', async () => {
      const s = stores();
      const { team, owners } = await givenTwoOwners(s);
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) => s.teams.setMemberRole(team.id, owners[i % 2] ?? '', 'editor')),
      );
      const left = await ownersOf(s, team);
      expect(left).toHaveLength(1);
      // the owner demoted first takes every call on it; every call on the other is refused
      const refused = outcomes.filter((_, i) => owners[i % 2] === left[0]);
      expect(refused).toEqual(Array.from({ length: 25 }, () => 'last_owner'));
      expect(outcomes.filter((o) => o === 'done')).toHaveLength(25);
    });

    it('leaves exactly one owner of two after 50 concurrent removals of both', async () => {
      const s = stores();
      const { team, owners } = await givenTwoOwners(s);
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, (_, i) => s.teams.removeMember(team.id, owners[i % 2] ?? '')),
      );
      const left = await ownersOf(s, team);
      expect(left).toHaveLength(1);
      expect(await s.teams.listMembers(team.id)).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'done')).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'not_found')).toHaveLength(24);
      expect(outcomes.filter((_, i) => owners[i % 2] === left[0])).toEqual(
        Array.from({ length: 25 }, () => 'last_owner'),
      );
    });
  });
}

function describeInvites(stores: () => Stores): void {
  describe('invites', () => {
    it('lists the invites not used and not expired, newest first, and finds any by hash', async () => {
      const s = stores();
      const alice = await givenAccount(s);
      const [team, other] = [await givenTeam(s, alice), await givenTeam(s, alice)];
      const older = aTeamInvite(team.id, { createdBy: alice.id, role: 'viewer' });
      const newer = aTeamInvite(team.id, { createdBy: alice.id, role: 'admin', createdAt: FIXTURE_TIME + 1 });
      const used = aTeamInvite(team.id, { usedAt: FIXTURE_TIME + 2, usedBy: alice.id });
      const expired = aTeamInvite(team.id, { createdAt: FIXTURE_TIME - 1, expiresAt: FIXTURE_TIME + 10 });
      const elsewhere = aTeamInvite(other.id);
      for (const invite of [older, used, newer, expired, elsewhere]) await s.teams.addTeamInvite(invite);
      expect(await s.teams.listTeamInvites(team.id, FIXTURE_TIME + 10)).toStrictEqual([newer, older]);
      expect(await s.teams.listTeamInvites(team.id, FIXTURE_TIME + 9)).toStrictEqual([newer, older, expired]);
      expect(await s.teams.listTeamInvites(other.id, FIXTURE_TIME)).toStrictEqual([elsewhere]);
      expect(await s.teams.findTeamInvite(used.tokenHash)).toStrictEqual(used);
      expect(await s.teams.findTeamInvite(expired.tokenHash)).toStrictEqual(expired);
      expect(await s.teams.findTeamInvite('f'.repeat(64))).toBeNull();
    });

    it('uses an invite once, returning it as it was, and records who used it and when', async () => {
      const s = stores();
      const [alice, bob] = [await givenAccount(s), await givenAccount(s)];
      const team = await givenTeam(s, alice);
      const invite = aTeamInvite(team.id, { createdBy: alice.id });
      await s.teams.addTeamInvite(invite);
      expect(await s.teams.consumeTeamInvite(invite.tokenHash, bob.id, FIXTURE_TIME + 5)).toStrictEqual(
        invite,
      );
      expect(await s.teams.consumeTeamInvite(invite.tokenHash, alice.id, FIXTURE_TIME + 6)).toBeNull();
      expect(await s.teams.findTeamInvite(invite.tokenHash)).toStrictEqual({
        ...invite,
        usedAt: FIXTURE_TIME + 5,
        usedBy: bob.id,
      });
      expect(await s.teams.listTeamInvites(team.id, FIXTURE_TIME + 6)).toEqual([]);
      expect(await s.teams.consumeTeamInvite('f'.repeat(64), bob.id, FIXTURE_TIME)).toBeNull();
    });

    it('refuses an expired invite, from the moment it expires', async () => {
      const s = stores();
      const alice = await givenAccount(s);
      const team = await givenTeam(s, alice);
      const invite = aTeamInvite(team.id);
      await s.teams.addTeamInvite(invite);
      expect(await s.teams.consumeTeamInvite(invite.tokenHash, alice.id, invite.expiresAt)).toBeNull();
      expect(await s.teams.findTeamInvite(invite.tokenHash)).toStrictEqual(invite);
    });

    it('lets one of two concurrent uses of an invite win', async () => {
      const s = stores();
      const [alice, bob, carol] = [await givenAccount(s), await givenAccount(s), await givenAccount(s)];
      const team = await givenTeam(s, alice);
      const invite = aTeamInvite(team.id);
      await s.teams.addTeamInvite(invite);
      const outcomes = await Promise.all(
        [bob, carol].map((person) =>
          s.teams.consumeTeamInvite(invite.tokenHash, person.id, FIXTURE_TIME + 1),
        ),
      );
      expect(outcomes.filter((o) => o !== null)).toStrictEqual([invite]);
      const winner = outcomes[0] === null ? carol : bob;
      expect((await s.teams.findTeamInvite(invite.tokenHash))?.usedBy).toBe(winner.id);
    });

    it('deletes an unused invite of the team only', async () => {
      const s = stores();
      const alice = await givenAccount(s);
      const [team, other] = [await givenTeam(s, alice), await givenTeam(s, alice)];
      const invite = aTeamInvite(team.id);
      const used = aTeamInvite(team.id, { usedAt: FIXTURE_TIME + 1, usedBy: alice.id });
      for (const i of [invite, used]) await s.teams.addTeamInvite(i);
      expect(await s.teams.deleteTeamInvite(other.id, invite.tokenHash)).toBe(false);
      expect(await s.teams.deleteTeamInvite(team.id, used.tokenHash)).toBe(false);
      expect(await s.teams.deleteTeamInvite(team.id, invite.tokenHash)).toBe(true);
      expect(await s.teams.deleteTeamInvite(team.id, invite.tokenHash)).toBe(false);
      expect(await s.teams.findTeamInvite(invite.tokenHash)).toBeNull();
      expect(await s.teams.findTeamInvite(used.tokenHash)).toStrictEqual(used);
    });

    it('deletes a team with its members, invites and keys, freeing its name; never a person', async () => {
      const s = stores();
      const { team, people } = await givenMembers(s, 'editor');
      const [alice, bob] = people as [Account, Account];
      const other = await givenTeam(s, alice);
      const invite = aTeamInvite(team.id);
      await s.teams.addTeamInvite(invite);
      const key = anApiKey({ accountId: team.id });
      await s.accounts.addApiKey(key);

      expect(await s.teams.deleteTeam(alice.id)).toBe(false);
      expect(await s.teams.deleteTeam(team.id)).toBe(true);
      expect(await s.teams.deleteTeam(team.id)).toBe(false);
      expect(await s.accounts.findAccountById(team.id)).toBeNull();
      expect(await s.accounts.findAccountById(alice.id)).not.toBeNull();
      expect(await s.teams.findMembership(team.id, bob.id)).toBeNull();
      expect(await s.teams.listMembers(team.id)).toEqual([]);
      expect((await s.teams.listTeamsOf(alice.id)).map((t) => t.team.id)).toEqual([other.id]);
      expect(await s.teams.findTeamInvite(invite.tokenHash)).toBeNull();
      expect(await s.accounts.findApiKeyWithAccount(key.keyHash)).toBeNull();
      const again = await s.accounts.createAccount(anAccount({ name: team.name }));
      expect(again.ok).toBe(true);
    });
  });
}
