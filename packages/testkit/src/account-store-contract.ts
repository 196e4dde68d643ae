import type { Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { anAccount, anApiKey, FIXTURE_TIME } from './fixtures.js';
import { givenAccount, useFreshStores } from './fresh-stores.js';

const UNKNOWN_ID = '00000000-0000-4000-a000-ffffffffffff';

/**
 * Registers the AccountStore contract: every AccountStore must pass it. Each test gets stores from
 * `open` and closes them afterwards.
 */
export function describeAccountStoreContract(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: AccountStore contract`, () => {
    const stores = useFreshStores(open);
    describeAccounts(stores);
    describeApiKeys(stores);
  });
}

function describeAccounts(stores: () => Stores): void {
  describe('accounts', () => {
    it('finds a created account by id and by name', async () => {
      const account = anAccount({ name: 'alice', createdAt: FIXTURE_TIME + 1 });
      expect(await stores().accounts.createAccount(account)).toStrictEqual({ ok: true, value: account });
      expect(await stores().accounts.findAccountById(account.id)).toStrictEqual(account);
      expect(await stores().accounts.findAccountByName('alice')).toStrictEqual(account);
    });

    it('keeps whether an account is a person or a team (decisions §21)', async () => {
      const team = anAccount({ name: 'Acme', kind: 'team', createdAt: FIXTURE_TIME + 1 });
      expect(await stores().accounts.createAccount(team)).toStrictEqual({ ok: true, value: team });
      expect(await stores().accounts.findAccountById(team.id)).toStrictEqual(team);
      expect(await stores().accounts.findAccountByName('acme')).toStrictEqual(team);
      const person = await givenAccount(stores(), { name: 'alice' });
      expect(person.kind).toBe('person');
      expect(await stores().accounts.listAccounts()).toEqual(expect.arrayContaining([team, person]));
    });

    it('returns null for an unknown account id or name', async () => {
      await givenAccount(stores(), { name: 'alice' });
      expect(await stores().accounts.findAccountById(UNKNOWN_ID)).toBeNull();
      expect(await stores().accounts.findAccountByName('bob')).toBeNull();
    });

    it('refuses a taken name with invalid_request on the field name', async () => {
      const first = await givenAccount(stores(), { name: 'alice' });
      const result = await stores().accounts.createAccount(anAccount({ name: 'alice' }));
      expect(result.ok ? null : { code: result.error.code, field: result.error.field }).toEqual({
        code: 'invalid_request',
        field: 'name',
      });
      expect(await stores().accounts.listAccounts()).toStrictEqual([first]);
    });

    it('treats names alike whatever their case, keeping the spelling given (decisions §14)', async () => {
      const alice = await givenAccount(stores(), { name: 'Alice' });
      for (const name of ['alice', 'Alice', 'ALICE']) {
        expect(await stores().accounts.findAccountByName(name)).toStrictEqual(alice);
      }
      const taken = await stores().accounts.createAccount(anAccount({ id: 'other', name: 'aLICE' }));
      expect(taken).toMatchObject({ ok: false, error: { code: 'invalid_request', field: 'name' } });
      expect(await stores().accounts.findAccountByName('bob')).toBeNull();
    });

    it('changes the role and the disabled time, and only those', async () => {
      const account = await givenAccount(stores(), { name: 'carol' });
      const admin = { ...account, role: 'admin' as const };
      expect(await stores().accounts.updateAccount(account.id, { role: 'admin' })).toStrictEqual(admin);
      const disabled = { ...admin, disabledAt: FIXTURE_TIME + 5 };
      expect(
        await stores().accounts.updateAccount(account.id, { disabledAt: FIXTURE_TIME + 5 }),
      ).toStrictEqual(disabled);
      expect(await stores().accounts.findAccountByName('carol')).toStrictEqual(disabled);
      expect(await stores().accounts.updateAccount(account.id, { disabledAt: null })).toStrictEqual(admin);
      expect(await stores().accounts.updateAccount(UNKNOWN_ID, { role: 'admin' })).toBeNull();
    });

    it('lists every account', async () => {
      const accounts = [
        await givenAccount(stores()),
        await givenAccount(stores()),
        await givenAccount(stores()),
      ];
      const listed = await stores().accounts.listAccounts();
      expect(listed).toHaveLength(3);
      expect(listed).toEqual(expect.arrayContaining(accounts));
    });
  });
}

function describeApiKeys(stores: () => Stores): void {
  describe('API keys', () => {
    it('finds an added key by hash and by id', async () => {
      const { id: accountId } = await givenAccount(stores());
      const key = anApiKey({ accountId, createdAt: FIXTURE_TIME + 1 });
      await stores().accounts.addApiKey(key);
      expect(await stores().accounts.findApiKeyByHash(key.keyHash)).toStrictEqual(key);
      expect(await stores().accounts.findApiKeyById(key.id)).toStrictEqual(key);
    });

    it('finds a key with its account in one read, as they are now', async () => {
      const account = await givenAccount(stores());
      const key = anApiKey({ accountId: account.id, lastUsedAt: FIXTURE_TIME + 3 });
      await stores().accounts.addApiKey(key);
      expect(await stores().accounts.findApiKeyWithAccount(key.keyHash)).toStrictEqual({ key, account });
      await stores().accounts.updateAccount(account.id, { disabledAt: FIXTURE_TIME + 4 });
      await stores().accounts.revokeApiKey(key.id, FIXTURE_TIME + 5);
      expect(await stores().accounts.findApiKeyWithAccount(key.keyHash)).toStrictEqual({
        key: { ...key, revokedAt: FIXTURE_TIME + 5 },
        account: { ...account, disabledAt: FIXTURE_TIME + 4 },
      });
      expect(await stores().accounts.findApiKeyWithAccount('0'.repeat(63) + 'f')).toBeNull();
    });

    it("keeps a key's role and limits, lists and no limit alike (decisions §21)", async () => {
      const team = await givenAccount(stores(), { kind: 'team' });
      const limited = anApiKey({
        accountId: team.id,
        role: 'creator',
        domains: ['go.acme.test', 's.example'],
        urlHosts: ['acme.test', 'docs.example.org'],
        createdAt: FIXTURE_TIME + 1,
      });
      const viewer = anApiKey({
        accountId: team.id,
        role: 'viewer',
        domains: [],
        createdAt: FIXTURE_TIME + 2,
      });
      for (const key of [limited, viewer]) await stores().accounts.addApiKey(key);
      expect(await stores().accounts.findApiKeyByHash(limited.keyHash)).toStrictEqual(limited);
      expect(await stores().accounts.findApiKeyById(viewer.id)).toStrictEqual(viewer);
      expect(await stores().accounts.findApiKeyWithAccount(limited.keyHash)).toStrictEqual({
        key: limited,
        account: team,
      });
      expect(await stores().accounts.listApiKeys(team.id)).toStrictEqual([limited, viewer]);
    });

    it('returns null for an unknown key hash or id', async () => {
      const { id: accountId } = await givenAccount(stores());
      await stores().accounts.addApiKey(anApiKey({ accountId }));
      expect(await stores().accounts.findApiKeyByHash('0'.repeat(63) + 'f')).toBeNull();
      expect(await stores().accounts.findApiKeyById('00000000-0000-4000-b000-ffffffffffff')).toBeNull();
    });

    it("lists the account's keys oldest first, revoked ones included", async () => {
      const { id: accountId } = await givenAccount(stores());
      const other = await givenAccount(stores());
      const newest = anApiKey({ accountId, createdAt: FIXTURE_TIME + 2 });
      const revoked = anApiKey({ accountId, createdAt: FIXTURE_TIME, revokedAt: FIXTURE_TIME + 5 });
      const middle = anApiKey({ accountId, createdAt: FIXTURE_TIME + 1 });
      for (const key of [newest, revoked, middle, anApiKey({ accountId: other.id })]) {
        await stores().accounts.addApiKey(key);
      }
      expect(await stores().accounts.listApiKeys(accountId)).toStrictEqual([revoked, middle, newest]);
    });

    it('revokes a key once and records when', async () => {
      const { id: accountId } = await givenAccount(stores());
      const key = anApiKey({ accountId });
      await stores().accounts.addApiKey(key);
      expect(await stores().accounts.revokeApiKey(key.id, FIXTURE_TIME + 9)).toBe(true);
      expect(await stores().accounts.revokeApiKey(key.id, FIXTURE_TIME + 10)).toBe(false);
      const revoked = { ...key, revokedAt: FIXTURE_TIME + 9 };
      expect(await stores().accounts.findApiKeyById(key.id)).toStrictEqual(revoked);
      expect(await stores().accounts.findApiKeyByHash(key.keyHash)).toStrictEqual(revoked);
    });

    it('records the last use of a key, never moving it back', async () => {
      const { id: accountId } = await givenAccount(stores());
      const key = anApiKey({ accountId });
      await stores().accounts.addApiKey(key);
      await stores().accounts.touchApiKey(key.id, FIXTURE_TIME + 60_000);
      await stores().accounts.touchApiKey(key.id, FIXTURE_TIME + 1);
      expect(await stores().accounts.findApiKeyByHash(key.keyHash)).toStrictEqual({
        ...key,
        lastUsedAt: FIXTURE_TIME + 60_000,
      });
    });

    it('answers false when revoking an unknown key', async () => {
      expect(await stores().accounts.revokeApiKey('00000000-0000-4000-b000-ffffffffffff', FIXTURE_TIME)).toBe(
        false,
      );
    });
  });
}
