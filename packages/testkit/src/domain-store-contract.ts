import type { Domain, Stores } from '@shortener/core';
import { NO_DOMAIN_SETTINGS } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { FIXTURE_TIME } from './fixtures.js';
import { givenLink, useFreshStores } from './fresh-stores.js';

let sequence = 0;

/** A pending domain, due for its first check at once; overrides win. */
export function aDomain(overrides: Partial<Domain> = {}): Domain {
  sequence += 1;
  const id = `00000000-0000-4000-8000-${String(sequence).padStart(12, '0')}`;
  return {
    id,
    accountId: 'account-1',
    host: `go${sequence}.acme.test`,
    state: 'pending',
    token: `token${sequence}`,
    problems: [],
    settings: NO_DOMAIN_SETTINGS,
    createdAt: FIXTURE_TIME + sequence,
    checkedAt: null,
    verifiedAt: null,
    failures: 0,
    nextCheckAt: FIXTURE_TIME,
    ...overrides,
  };
}

/**
 * Registers the DomainStore contract (decisions §20): every DomainStore must pass it (memory, SQLite,
 * PostgreSQL). Hosts are held by one domain not removed; adds and claims hold under concurrency.
 */
export function describeDomainStoreContract(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: DomainStore contract`, () => {
    const stores = useFreshStores(open);

    it('adds a domain and finds it by id and by host, the account listing it oldest first', async () => {
      const { domains } = stores();
      const first = aDomain({ createdAt: FIXTURE_TIME + 1 });
      const second = aDomain({ createdAt: FIXTURE_TIME + 2 });
      expect(await domains.addDomain(second, 10)).toBe('added');
      expect(await domains.addDomain(first, 10)).toBe('added');
      expect(await domains.findDomain(first.id)).toEqual(first);
      expect(await domains.findDomainByHost(second.host)).toEqual(second);
      expect((await domains.listDomains('account-1')).map((d) => d.id)).toEqual([first.id, second.id]);
      expect(await domains.listDomains('account-2')).toEqual([]);
      expect(await domains.findDomain('00000000-0000-4000-8000-999999999999')).toBeNull();
      expect(await domains.findDomainByHost('nowhere.acme.test')).toBeNull();
    });

    it('refuses a host another domain holds, in any account, until that one is removed', async () => {
      const { domains } = stores();
      const held = aDomain({ host: 'go.acme.test' });
      await domains.addDomain(held, 10);
      const again = aDomain({ host: 'go.acme.test', accountId: 'account-2' });
      expect(await domains.addDomain(again, 10)).toBe('taken');
      expect(await domains.removeDomain(held.id)).toBe(true);
      expect(await domains.removeDomain(held.id)).toBe(false);
      expect(await domains.findDomainByHost('go.acme.test')).toBeNull();
      expect((await domains.findDomain(held.id))?.state).toBe('removed');
      expect(await domains.listDomains('account-1')).toEqual([]);
      expect(await domains.addDomain(again, 10)).toBe('added');
      expect((await domains.findDomainByHost('go.acme.test'))?.accountId).toBe('account-2');
    });

    it('refuses more than the most an account may have, removed ones not counted', async () => {
      const { domains } = stores();
      const two = [aDomain(), aDomain()];
      for (const domain of two) expect(await domains.addDomain(domain, 2)).toBe('added');
      expect(await domains.addDomain(aDomain(), 2)).toBe('too_many');
      expect(await domains.addDomain(aDomain({ accountId: 'account-2' }), 2)).toBe('added');
      await domains.removeDomain(two[0]?.id ?? '');
      expect(await domains.addDomain(aDomain(), 2)).toBe('added');
    });

    it('lets one of twenty concurrent adds of one host through, and no more than the most of one account', async () => {
      const { domains } = stores();
      const sameHost = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          domains.addDomain(aDomain({ host: 'race.acme.test', accountId: `account-${i}` }), 10),
        ),
      );
      expect(sameHost.filter((outcome) => outcome === 'added')).toHaveLength(1);
      const oneAccount = await Promise.all(
        Array.from({ length: 20 }, () => domains.addDomain(aDomain({ accountId: 'busy' }), 3)),
      );
      expect(oneAccount.filter((outcome) => outcome === 'added')).toHaveLength(3);
      expect(await domains.listDomains('busy')).toHaveLength(3);
    });

    it('records a check and settings, keeps JSON values as given, and changes nothing once removed', async () => {
      const { domains } = stores();
      const domain = aDomain();
      await domains.addDomain(domain, 10);
      const check = {
        state: 'active' as const,
        problems: ['TXT _shortener-challenge.x not found, expected "shortener-verify=y".'],
        checkedAt: FIXTURE_TIME + 60_000,
        verifiedAt: FIXTURE_TIME + 60_000,
        failures: 2,
        nextCheckAt: FIXTURE_TIME + 3_600_000,
      };
      expect(await domains.recordCheck(domain.id, check)).toBe(true);
      const settings = {
        baseRedirect: 'https://acme.test/',
        notFoundRedirect: null,
        appleAppSiteAssociation: { applinks: { details: [{ appIDs: ['ABCDE.com.acme'], components: [] }] } },
        androidAssetLinks: [{ relation: ['delegate_permission/common.handle_all_urls'], target: { n: 1.5 } }],
      };
      expect(await domains.updateSettings(domain.id, settings)).toBe(true);
      expect(await domains.findDomain(domain.id)).toEqual({ ...domain, ...check, settings });
      expect((await domains.servedDomains()).map((d) => d.id)).toEqual([domain.id]);
      await domains.removeDomain(domain.id);
      expect(await domains.servedDomains()).toEqual([]);
      expect(await domains.recordCheck(domain.id, check)).toBe(false);
      expect(await domains.updateSettings(domain.id, NO_DOMAIN_SETTINGS)).toBe(false);
    });

    it('claims what is due, moving the next check on so a second claim skips it; never failed or removed', async () => {
      const { domains } = stores();
      const now = FIXTURE_TIME + 1_000_000;
      const due = [aDomain({ nextCheckAt: now - 2 }), aDomain({ state: 'active', nextCheckAt: now - 1 })];
      const later = aDomain({ nextCheckAt: now + 1 });
      const failed = aDomain({ state: 'failed', nextCheckAt: now - 5 });
      const removed = aDomain({ nextCheckAt: now - 5 });
      for (const domain of [...due, later, failed, removed]) await domains.addDomain(domain, 10);
      await domains.removeDomain(removed.id);
      const claimed = await domains.claimDueDomains(now, now + 60_000, 10);
      expect(claimed.map((d) => d.id)).toEqual(due.map((d) => d.id));
      expect(await domains.claimDueDomains(now, now + 60_000, 10)).toEqual([]);
      expect((await domains.findDomain(due[0]?.id ?? ''))?.nextCheckAt).toBe(now + 60_000);
      expect((await domains.claimDueDomains(now + 2, now + 60_000, 1)).map((d) => d.id)).toEqual([later.id]);
    });

    it('lists the ids of the links on a host, up to a limit, whoever made them', async () => {
      const s = stores();
      const on = [
        await givenLink(s, { domain: 'go.acme.test', slug: 'a1' }),
        await givenLink(s, { domain: 'go.acme.test', slug: 'a2' }),
      ];
      await givenLink(s, { domain: 's.example', slug: 'a1' });
      expect((await s.domains.linkIdsOn('go.acme.test', 10)).sort()).toEqual(on.map((l) => l.id).sort());
      expect(await s.domains.linkIdsOn('go.acme.test', 1)).toHaveLength(1);
      expect(await s.domains.linkIdsOn('other.acme.test', 10)).toEqual([]);
    });

    it('hands each due domain to one of several concurrent claims', async () => {
      const { domains } = stores();
      const now = FIXTURE_TIME + 1_000_000;
      const all = Array.from({ length: 12 }, (_, i) => aDomain({ nextCheckAt: now - 100 + i }));
      for (const domain of all) await domains.addDomain(domain, 100);
      const claims = await Promise.all(
        Array.from({ length: 6 }, () => domains.claimDueDomains(now, now + 60_000, 4)),
      );
      const ids = claims.flat().map((d) => d.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.sort()).toEqual(all.map((d) => d.id).sort());
    });
  });
}
