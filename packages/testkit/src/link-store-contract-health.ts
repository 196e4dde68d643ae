import { UNKNOWN_HEALTH } from '@shortener/core';
import type { LinkHealth, Stores } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { FIXTURE_TIME } from './fixtures.js';
import { givenAccount, givenLink } from './fresh-stores.js';

const HOUR = 3_600_000;
const NOW = FIXTURE_TIME + 30 * 24 * HOUR;
const RECENT = NOW - 7 * 24 * HOUR;

const broken = (checkedAt: number): LinkHealth => ({
  state: 'broken',
  status: 404,
  reason: 'http_4xx',
  finalUrl: null,
  checkedAt,
  since: checkedAt,
  failures: 3,
});

/** The health part of the LinkStore contract (decisions §23): due links, leases, writes that agree. */
export function describeLinkHealth(stores: () => Stores): void {
  describe('link health', () => {
    it('gives a new link unknown health, and no update changes it', async () => {
      const link = await givenLink(stores());
      expect(link.health).toStrictEqual(UNKNOWN_HEALTH);
      expect(await stores().links.recordHealth(link.id, broken(NOW), null, NOW + HOUR)).toBe(true);
      const updated = await stores().links.update(link.id, { title: 'x', updatedAt: NOW + 1 });
      expect(updated?.health).toStrictEqual(broken(NOW));
      expect((await stores().links.findById(link.id))?.health).toStrictEqual(broken(NOW));
    });

    it('claims due links once (clicked in the last 7 days first) until their lease ends', async () => {
      const old = await givenLink(stores());
      const clicked = await givenLink(stores(), { lastClickAt: NOW - HOUR, clicks: 1 });
      const claimed = await stores().links.claimHealthChecks(NOW, RECENT, NOW + HOUR, 10);
      expect(claimed.map((l) => l.id)).toStrictEqual([clicked.id, old.id]);
      expect(await stores().links.claimHealthChecks(NOW + 1, RECENT, NOW + HOUR, 10)).toStrictEqual([]);
      const again = await stores().links.claimHealthChecks(NOW + HOUR, RECENT, NOW + 2 * HOUR, 1);
      expect(again.map((l) => l.id)).toStrictEqual([clicked.id]);
    });

    it('hands each due link to one of 10 concurrent claims', async () => {
      for (let i = 0; i < 20; i += 1) await givenLink(stores());
      const claims = await Promise.all(
        Array.from({ length: 10 }, () => stores().links.claimHealthChecks(NOW, RECENT, NOW + HOUR, 5)),
      );
      const ids = claims.flat().map((l) => l.id);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
    });

    it('writes a check only over the health it was computed from, and moves the next check', async () => {
      const link = await givenLink(stores());
      expect(await stores().links.recordHealth(link.id, broken(NOW), null, NOW + 24 * HOUR)).toBe(true);
      // a second check computed from the same (older) health lost the race
      expect(await stores().links.recordHealth(link.id, broken(NOW + 5), null, NOW + 24 * HOUR)).toBe(false);
      expect((await stores().links.findById(link.id))?.health).toStrictEqual(broken(NOW));
      expect(await stores().links.claimHealthChecks(NOW + HOUR, RECENT, NOW + 2 * HOUR, 10)).toStrictEqual(
        [],
      );
      const due = await stores().links.claimHealthChecks(NOW + 24 * HOUR, RECENT, NOW + 25 * HOUR, 10);
      expect(due.map((l) => l.id)).toStrictEqual([link.id]);
      expect(
        await stores().links.recordHealth('00000000-0000-4000-8000-ffffffffffff', broken(NOW), null, 0),
      ).toBe(false);
    });

    it('filters the list by health and counts the states', async () => {
      const account = await givenAccount(stores());
      const fine = await givenLink(stores(), { accountId: account.id });
      const gone = await givenLink(stores(), { accountId: account.id });
      await givenLink(stores(), { accountId: account.id });
      await stores().links.recordHealth(gone.id, broken(NOW), null, NOW + HOUR);
      const ok: LinkHealth = { ...broken(NOW), state: 'ok', status: 200, reason: null, failures: 0 };
      await stores().links.recordHealth(fine.id, ok, null, NOW + HOUR);
      const list = (health: 'broken' | 'unknown') =>
        stores().links.list({ accountId: account.id, limit: 10, health });
      expect((await list('broken')).map((l) => l.id)).toStrictEqual([gone.id]);
      expect(await list('unknown')).toHaveLength(1);
      expect(await stores().links.healthCounts()).toStrictEqual({
        unknown: 1,
        ok: 1,
        redirected: 0,
        broken: 1,
      });
    });
  });
}
