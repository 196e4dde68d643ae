import type { Stores, VisitStore } from '@shortener/core';
import { createLink, followLink, getStats, getStatsAcross } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { anAccount } from '../fixtures.js';
import type { Harness } from './core-harness.js';
import {
  codeOf,
  human,
  recorderOf,
  useCoreHarness,
  valueOf,
  withAccount,
  withToken,
} from './core-harness.js';

/** Visits `link` once at each instant (ISO times), flushing after each, with the clock set there. */
async function visitAt(h: Harness, linkId: string, ...times: string[]): Promise<void> {
  const recorder = recorderOf(h);
  const link = await h.links.findById(linkId);
  if (link === null) throw new Error('no such link');
  for (const time of times) {
    h.clock.set(Date.parse(time));
    await followLink(h, recorder, link, human());
    await recorder.flush();
  }
}

const byDay = async (h: Harness, linkId: string, from: string, to: string, tz: string) =>
  valueOf(await getStats(h, linkId, { from, to, tz }, withToken(null))).by_day.map(
    (d) => `${d.key}:${d.count}`,
  );

/** Statistics in time zones and across links through core on a real store (decisions §18). */
export function describeStatsZonesSuite(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: statistics in time zones`, () => {
    const harness = useCoreHarness(open);
    const linkOf = async (h: Harness, accountId: string | null = null, tags: string[] = []) =>
      valueOf(await createLink(h, { url: 'https://a.example/', tags }, { accountId, editToken: null })).link
        .id;

    it('counts 23:30 UTC on the next day in UTC+1 and the same day in UTC-5', async () => {
      const h = harness();
      const id = await linkOf(h);
      await visitAt(h, id, '2026-01-10T23:30:00Z');
      const range = ['2026-01-10', '2026-01-11'] as const;
      expect(await byDay(h, id, ...range, 'Europe/Vienna')).toEqual(['2026-01-10:0', '2026-01-11:1']);
      expect(await byDay(h, id, ...range, 'America/Bogota')).toEqual(['2026-01-10:1', '2026-01-11:0']);
      expect(await byDay(h, id, ...range, 'UTC')).toEqual(['2026-01-10:1', '2026-01-11:0']);
    });

    it('gives a half-hour zone the hour holding its midnight, and a daylight-saving day its hours', async () => {
      const h = harness();
      const id = await linkOf(h);
      // Asia/Kolkata (+5:30): 18:10 UTC is 23:40 on the 10th, counted with its hour (18:00-19:00 UTC) on
      // the 11th; 17:50 UTC is 23:20 on the 10th
      await visitAt(h, id, '2026-01-10T17:50:00Z', '2026-01-10T18:10:00Z');
      expect(await byDay(h, id, '2026-01-10', '2026-01-11', 'Asia/Kolkata')).toEqual([
        '2026-01-10:1',
        '2026-01-11:1',
      ]);
      // Europe/Vienna moves to UTC+2 on 29 March 2026: 22:30 UTC on the 29th is 00:30 on the 30th
      await visitAt(h, id, '2026-03-28T22:30:00Z', '2026-03-29T22:30:00Z');
      expect(await byDay(h, id, '2026-03-28', '2026-03-30', 'Europe/Vienna')).toEqual([
        '2026-03-28:1',
        '2026-03-29:0',
        '2026-03-30:1',
      ]);
    });

    it("answers an account's statistics from its store's sums as from its links, top links by UTC day", async () => {
      const h = harness();
      const account = anAccount();
      await h.accounts.createAccount(account);
      const ids: string[] = [];
      for (let i = 0; i < 70; i++) ids.push(await linkOf(h, account.id));
      const counter = (linkId: string, day: string, key: string, count: number) => ({
        linkId,
        day,
        dimension: 'total' as const,
        key,
        count,
      });
      // by_day counts Los Angeles' 2026-01-10 (08:00 on the 10th to 07:00 on the 11th, UTC); the links, as
      // the other dimensions, the UTC day: the first 65 links' visits fall on the 11th, out of both
      await h.visits.record({
        clicks: [],
        visitors: [],
        counters: ids.flatMap((id, i) =>
          i < 65 ? [counter(id, '2026-01-11', '20', 3)] : [counter(id, '2026-01-10', '12', 1)],
        ),
      });
      const query = { from: '2026-01-10', to: '2026-01-10', tz: 'America/Los_Angeles' };
      const bySums = valueOf(await getStatsAcross(h, null, query, withAccount(account.id)));
      // the same deps with a store that keeps no sums per account: every link is read
      const linkReads = Object.entries(h.visits).filter(([name]) => name !== 'ofAccount');
      const byLinks = { ...h, visits: Object.fromEntries(linkReads) as VisitStore };
      expect(valueOf(await getStatsAcross(byLinks, null, query, withAccount(account.id)))).toEqual(bySums);
      expect(bySums.links.map((l) => l.id)).toEqual(ids.slice(65).sort());
      expect(bySums.total).toBe(5);

      // now every link has one visit in the zone's day too: the top 20 are the first by id
      await h.visits.record({
        clicks: [],
        visitors: [],
        counters: ids.slice(0, 65).map((id) => counter(id, '2026-01-10', '09', 1)),
      });
      const again = valueOf(await getStatsAcross(h, null, query, withAccount(account.id)));
      expect(valueOf(await getStatsAcross(byLinks, null, query, withAccount(account.id)))).toEqual(again);
      expect(again.links.map((l) => l.id)).toEqual([...ids].sort().slice(0, 20));
    });

    it('sums the links of a tag and of the account, with the top links in the range', async () => {
      const h = harness();
      const account = anAccount();
      await h.accounts.createAccount(account);
      const accountId = account.id;
      const [a, b, other] = [
        await linkOf(h, accountId, ['spring']),
        await linkOf(h, accountId, ['spring']),
        await linkOf(h, accountId),
      ];
      await visitAt(h, a, '2026-01-10T12:00:00Z');
      await visitAt(h, b, '2026-01-10T12:00:00Z', '2026-01-10T13:00:00Z', '2026-01-09T12:00:00Z');
      await visitAt(h, other, '2026-01-10T12:00:00Z');
      const query = { from: '2026-01-10', to: '2026-01-10' };
      const tag = valueOf(await getStatsAcross(h, 'Spring', query, withAccount(accountId)));
      expect(tag).toMatchObject({ total: 3, by_day: [{ key: '2026-01-10', count: 3 }] });
      expect(tag.links.map((l) => [l.id, l.clicks])).toEqual([
        [b, 2],
        [a, 1],
      ]);
      const all = valueOf(await getStatsAcross(h, null, query, withAccount(accountId)));
      expect(all).toMatchObject({ total: 4, devices: [{ key: 'desktop', count: 4 }] });
      expect(codeOf(await getStatsAcross(h, null, query, withToken(null)))).toBe('unauthorized');
      expect(codeOf(await getStatsAcross(h, 'no/tag', query, withAccount(accountId)))).toBe(
        'invalid_request',
      );
    });
  });
}
