import {
  aLink,
  anAccount,
  anApiKey,
  describeAccountStoreContract,
  describeCredentialStoreContract,
  describeLinkStoreContract,
  describeSessionStoreContract,
  describeSettingStoreContract,
  describeDomainStoreContract,
  describeTeamStoreContract,
  describeIdentityStoreContract,
  describeRateLimiterContract,
  describeVisitStoreContract,
  FIXTURE_TIME,
  anInsertedLink,
} from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, createMemoryStores } from '../src/index.js';

const open = async () => createMemoryStores();

describeLinkStoreContract('memory', open);
describeVisitStoreContract('memory', open);
describeAccountStoreContract('memory', open);
describeSessionStoreContract('memory', open);
describeCredentialStoreContract('memory', open);
describeSettingStoreContract('memory', open);
describeDomainStoreContract('memory', open);
describeTeamStoreContract('memory', open);
describeIdentityStoreContract('memory', open);
describeRateLimiterContract('memory', createMemoryRateLimiter);

describe('memory stores', () => {
  it('keeps its state when a caller mutates a record it passed in or got back', async () => {
    const stores = createMemoryStores();
    const link = { ...aLink({ title: 'Original' }) };
    await stores.links.insert(link);
    Object.assign(link, { title: 'Changed by the caller' });
    const found = await stores.links.findById(link.id);
    Object.assign(found ?? {}, { clicks: 1000 });
    const stored = await stores.links.findBySlug(link.domain, link.slug);
    expect(stored).toMatchObject({ title: 'Original', clicks: 0 });
  });

  it('keeps accounts and keys safe from mutation of returned records', async () => {
    const stores = createMemoryStores();
    const account = anAccount();
    await stores.accounts.createAccount(account);
    const key = anApiKey({ accountId: account.id });
    await stores.accounts.addApiKey(key);
    Object.assign((await stores.accounts.findApiKeyById(key.id)) ?? {}, { revokedAt: 1 });
    Object.assign((await stores.accounts.findAccountById(account.id)) ?? {}, { name: 'mallory' });
    expect(await stores.accounts.findApiKeyById(key.id)).toStrictEqual(key);
    expect(await stores.accounts.findAccountByName(account.name)).toStrictEqual(account);
  });

  it("keeps a key's limits and a team's members safe from mutation of what was passed in or returned", async () => {
    const stores = createMemoryStores();
    const [person, team] = [anAccount(), anAccount({ kind: 'team' })];
    await stores.accounts.createAccount(person);
    const domains = ['go.acme.test'];
    const key = anApiKey({ accountId: person.id, domains, urlHosts: ['acme.test'] });
    await stores.accounts.addApiKey(key);
    domains.push('evil.example');
    (((await stores.accounts.findApiKeyById(key.id))?.urlHosts ?? []) as string[]).push('evil.example');
    expect(await stores.accounts.findApiKeyById(key.id)).toMatchObject({
      domains: ['go.acme.test'],
      urlHosts: ['acme.test'],
    });
    const owner = { teamId: team.id, personId: person.id, role: 'owner' as const, joinedAt: FIXTURE_TIME };
    await stores.teams.createTeam(team, owner);
    Object.assign((await stores.teams.findMembership(team.id, person.id)) ?? {}, { role: 'viewer' });
    Object.assign(owner, { role: 'viewer' });
    expect((await stores.teams.findMembership(team.id, person.id))?.role).toBe('owner');
  });

  it('shares nothing between two sets of stores', async () => {
    const [first, second] = [createMemoryStores(), createMemoryStores()];
    const link = await anInsertedLink(first.links);
    expect(await second.links.findById(link.id)).toBeNull();
  });

  it('answers ping while open', async () => {
    const stores = createMemoryStores();
    expect(await stores.ping()).toBe(true);
    await stores.close();
  });
});

describe('memory rate limiter', () => {
  it('forgets keys whose hits all left their windows', async () => {
    const limiter = createMemoryRateLimiter();
    const windows = [{ windowMs: 1000, limit: 5 }];
    for (let i = 0; i < 500; i += 1) await limiter.hit(`old-${i}`, windows, 1, FIXTURE_TIME);
    expect(limiter.keyCount()).toBe(500);
    for (let i = 0; i < 600; i += 1) await limiter.hit('busy', windows, 1, FIXTURE_TIME + 2000 + i * 300);
    expect(limiter.keyCount()).toBe(1);
  });

  it('keeps no key for a peek or a refused hit', async () => {
    const limiter = createMemoryRateLimiter();
    await limiter.hit('peek', [{ windowMs: 1000, limit: 5 }], 0, FIXTURE_TIME);
    await limiter.hit('too-big', [{ windowMs: 1000, limit: 5 }], 6, FIXTURE_TIME);
    expect(limiter.keyCount()).toBe(0);
  });

  it('counts hits at the same millisecond and slightly out of order exactly', async () => {
    const limiter = createMemoryRateLimiter();
    const windows = [{ windowMs: 1000, limit: 4 }];
    const t = FIXTURE_TIME;
    await limiter.hit('k', windows, 1, t + 10);
    await limiter.hit('k', windows, 1, t + 5);
    await limiter.hit('k', windows, 1, t + 5);
    expect(await limiter.hit('k', windows, 0, t + 20)).toMatchObject({ remaining: 1, resetMs: 985 });
    expect(await limiter.hit('k', windows, 0, t + 1005)).toMatchObject({ remaining: 3, resetMs: 5 });
    expect(await limiter.hit('k', windows, 0, t + 1010)).toMatchObject({ remaining: 4, resetMs: 0 });
  });

  it('keeps exact counts over many thousands of hits of one key', async () => {
    const limiter = createMemoryRateLimiter();
    const windows = [{ windowMs: 10_000, limit: 1_000_000 }];
    for (let i = 0; i < 20_000; i += 1) await limiter.hit('busy', windows, 1, FIXTURE_TIME + i);
    // the hits of the last 10 s (10,000 of them) count; the older ones have left the window
    expect(await limiter.hit('busy', windows, 0, FIXTURE_TIME + 20_000)).toMatchObject({
      remaining: 1_000_000 - 9_999,
      resetMs: 1,
    });
  });

  it('keeps hits for the longest window a key was checked against', async () => {
    const limiter = createMemoryRateLimiter();
    const hourAndDay = [
      { windowMs: 3_600_000, limit: 10 },
      { windowMs: 86_400_000, limit: 2 },
    ];
    await limiter.hit('k', hourAndDay, 2, FIXTURE_TIME);
    await limiter.hit('k', [{ windowMs: 1000, limit: 10 }], 1, FIXTURE_TIME + 7_200_000);
    expect((await limiter.hit('k', hourAndDay, 1, FIXTURE_TIME + 7_200_001)).allowed).toBe(false);
  });

  it('holds at most maxKeys keys and forgets the one hit least recently', async () => {
    const limiter = createMemoryRateLimiter({ maxKeys: 3 });
    const day = [{ windowMs: 86_400_000, limit: 5 }];
    for (const key of ['a', 'b', 'c', 'a', 'd']) await limiter.hit(key, day, 1, FIXTURE_TIME);
    expect(limiter.keyCount()).toBe(3);
    expect(await limiter.hit('a', day, 0, FIXTURE_TIME)).toMatchObject({ remaining: 3 });
    expect(await limiter.hit('b', day, 0, FIXTURE_TIME)).toMatchObject({ remaining: 5 });
  });

  it('forgets keys in least-recently-hit order through thousands of evictions, as a plain list would', async () => {
    const limiter = createMemoryRateLimiter({ maxKeys: 50 });
    const day = [{ windowMs: 86_400_000, limit: 1_000_000 }];
    const model: string[] = []; // least recently hit first
    let seed = 7;
    // a linear congruential generator; its high bits (its low ones repeat with a short period)
    const next = () => Math.floor((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 15);
    for (let i = 0; i < 5_000; i += 1) {
      // a few hot keys hit again and again among a stream of others
      const key = next() % 3 === 0 ? `hot${next() % 10}` : `k${next() % 400}`;
      await limiter.hit(key, day, 1, FIXTURE_TIME);
      const at = model.indexOf(key);
      if (at >= 0) model.splice(at, 1);
      else if (model.length >= 50) model.shift();
      model.push(key);
    }
    expect(limiter.keyCount()).toBe(50);
    const held: string[] = [];
    for (const key of [
      ...Array.from({ length: 10 }, (_, i) => `hot${i}`),
      ...Array.from({ length: 400 }, (_, i) => `k${i}`),
    ]) {
      const probe = await limiter.hit(key, day, 0, FIXTURE_TIME);
      if (probe.remaining < 1_000_000) held.push(key);
    }
    expect(held.sort()).toEqual([...model].sort());
  });

  it('stays within 50,000 keys by default when every hit comes from another address', async () => {
    const limiter = createMemoryRateLimiter();
    const hourAndDay = [
      { windowMs: 3_600_000, limit: 60 },
      { windowMs: 86_400_000, limit: 300 },
    ];
    for (let i = 0; i < 60_000; i += 1)
      await limiter.hit(`anon:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, hourAndDay, 1, FIXTURE_TIME + i);
    expect(limiter.keyCount()).toBe(50_000);
  });
});
