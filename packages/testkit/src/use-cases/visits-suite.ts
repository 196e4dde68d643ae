import type { Stores } from '@shortener/core';
import {
  createLink,
  findLinkShown,
  findRedirectLink,
  followLink,
  getLink,
  getStats,
  redirectState,
} from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { keyCounts } from '../fixtures.js';
import type { Harness } from './core-harness.js';
import { codeOf, human, recorderOf, useCoreHarness, valueOf, withToken } from './core-harness.js';

const anonymous = withToken(null);
const DAY = 86_400_000;

async function linkWith(h: Harness, input: Partial<Parameters<typeof createLink>[1]> = {}) {
  return valueOf(await createLink(h, { url: 'https://a.example/', ...input }, anonymous));
}

/** Redirect resolution, click counting and statistics through core on a real store (decisions §4, §7). */
export function describeVisitsSuite(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: redirects and clicks`, () => {
    const harness = useCoreHarness(open);

    it('resolves a slug by Host among the short domains, case-insensitively, else on the default domain', async () => {
      const h = harness();
      const { link } = await linkWith(h, { alias: 'here', domain: 'alt.example' });
      expect((await findRedirectLink(h, 'ALT.example', 'HERE'))?.id).toBe(link.id);
      expect(await findRedirectLink(h, 'unknown.example', 'here')).toBeNull();
      const main = await linkWith(h, { alias: 'main' });
      expect((await findRedirectLink(h, 'unknown.example', 'main'))?.id).toBe(main.link.id);
    });

    it('derives not found, gone, password and redirect without counting', async () => {
      const h = harness();
      expect(redirectState(null, h.clock.now()).kind).toBe('not_found');
      const expiring = await linkWith(h, { expires_in_days: 1 });
      expect(redirectState(expiring.link, h.clock.now() + DAY)).toMatchObject({
        kind: 'gone',
        reason: 'expired',
      });
      const locked = await linkWith(h, { password: 'letmein' });
      expect(redirectState(locked.link, h.clock.now()).kind).toBe('password');
      expect(redirectState(expiring.link, h.clock.now()).kind).toBe('redirect');
    });

    it('answers a link as an unknown slug until its starts_at, then follows it', async () => {
      const h = harness();
      const startsAt = new Date(h.clock.now() + 60_000).toISOString();
      const { link } = await linkWith(h, { alias: 'later', starts_at: startsAt });
      expect(link.startsAt).toBe(Date.parse(startsAt));
      expect(redirectState(link, h.clock.now()).kind).toBe('not_found');
      expect(await findRedirectLink(h, link.domain, 'later')).toBeNull();
      expect(await findLinkShown(h, link.domain, 'later')).toBeNull();
      h.clock.advance(60_000);
      expect(redirectState(link, h.clock.now()).kind).toBe('redirect');
      expect((await findRedirectLink(h, link.domain, 'later'))?.id).toBe(link.id);
    });

    it('lets exactly max_clicks humans through however many arrive at once', async () => {
      const h = harness();
      const recorder = recorderOf(h);
      const { link } = await linkWith(h, { max_clicks: 5 });
      const outcomes = await Promise.all(
        Array.from({ length: 50 }, () => followLink(h, recorder, link, human())),
      );
      expect(outcomes.filter((o) => o.kind === 'redirect')).toHaveLength(5);
      expect(outcomes.filter((o) => o.kind === 'gone' && o.reason === 'click_limit')).toHaveLength(45);
      await recorder.flush();
      expect((await h.links.findById(link.id))?.clicks).toBe(5);
    });

    it('redirects bots and HEAD requests without consuming the cap', async () => {
      const h = harness();
      const recorder = recorderOf(h);
      const { link } = await linkWith(h, { max_clicks: 1 });
      expect((await followLink(h, recorder, link, human({ bot: true }))).kind).toBe('redirect');
      expect((await followLink(h, recorder, link, human({ countable: false }))).kind).toBe('redirect');
      expect((await followLink(h, recorder, link, human())).kind).toBe('redirect');
      await recorder.flush();
      const stats = valueOf(await getStats(h, link.id, { days: 30 }, anonymous));
      expect(stats).toMatchObject({ total: 1, bots: 1 });
    });

    it('writes nothing on the request of an uncapped link until the recorder flushes', async () => {
      const h = harness();
      const recorder = recorderOf(h);
      const { link } = await linkWith(h);
      await followLink(h, recorder, link, human());
      expect((await h.links.findById(link.id))?.clicks).toBe(0);
      expect(recorder.pending()).toBe(1);
      expect(await recorder.flush()).toBe(1);
      const stored = await h.links.findById(link.id);
      expect(stored).toMatchObject({ clicks: 1, lastClickAt: h.clock.now() });
    });
  });

  describe(`${name}: reading what was served`, () => {
    const harness = useCoreHarness(open);

    it('shows every visit served before a read of clicks or statistics, flushed or not', async () => {
      const base = harness();
      const recorder = recorderOf(base);
      const h = { ...base, settleVisits: async () => void (await recorder.flush()) };
      const { link, editToken } = await linkWith(h);
      await followLink(h, recorder, link, human());
      await followLink(h, recorder, link, human({ ip: '198.51.100.2' }));
      const caller = withToken(editToken);
      expect(valueOf(await getStats(h, link.id, { days: 30 }, caller))).toMatchObject({ total: 2 });
      await followLink(h, recorder, link, human({ ip: '198.51.100.3' }));
      expect(valueOf(await getLink(h, link.id, caller)).clicks).toBe(3);
      await followLink(h, recorder, link, human({ ip: '198.51.100.4' }));
      expect((await findLinkShown(h, link.domain, link.slug))?.clicks).toBe(4);
      expect(recorder.pending()).toBe(0);
    });
  });

  describe(`${name}: statistics`, () => {
    const harness = useCoreHarness(open);

    it('adds up a mix of visits by day, country, referrer, device, browser and unique visitor', async () => {
      const h = harness();
      const recorder = recorderOf(h);
      const { link } = await linkWith(h);
      const visits = [
        human({ referrer: 'https://news.example/a?b=c', country: 'de' }),
        human({ referrer: 'https://news.example/other', country: 'DE' }),
        human({ ip: '198.51.100.1', userAgent: 'Chrome/120 Mobile', country: 'FR' }),
        human({ ip: '198.51.100.2', userAgent: 'Chrome/120', country: 'XX' }),
        human({ bot: true, userAgent: 'Slackbot' }),
      ];
      for (const v of visits) await followLink(h, recorder, link, v);
      await recorder.flush();
      h.clock.advance(DAY);
      await followLink(h, recorder, link, human());
      await recorder.flush();

      const stats = valueOf(await getStats(h, link.id, { days: 7 }, anonymous));
      expect(stats).toMatchObject({ total: 5, bots: 1, unique: 4, days: 7 });
      expect(stats.by_day).toHaveLength(7);
      expect(stats.by_day.slice(-2).map((d) => d.count)).toEqual([4, 1]);
      expect(stats.by_day[0]?.count).toBe(0);
      expect(stats.countries).toEqual(keyCounts(['DE', 2], ['unknown', 2], ['FR', 1]));
      expect(stats.referrers).toEqual(keyCounts(['direct', 3], ['news.example', 2]));
      expect(stats.devices).toEqual(keyCounts(['desktop', 4], ['mobile', 1]));
      expect(stats.browsers).toEqual(keyCounts(['Firefox', 3], ['Chrome', 2]));
      expect((await h.links.findById(link.id))?.clicks).toBe(stats.total);
    });

    it('keeps the top 20 keys and folds the rest into other', async () => {
      const h = harness();
      const recorder = recorderOf(h);
      const { link } = await linkWith(h);
      for (let i = 0; i < 25; i++) {
        for (let n = 0; n <= i; n++)
          await followLink(h, recorder, link, human({ referrer: `https://r${i}.example/` }));
      }
      await recorder.flush();
      const stats = valueOf(await getStats(h, link.id, { days: 1 }, anonymous));
      expect(stats.referrers).toHaveLength(21);
      expect(stats.referrers[0]).toEqual({ key: 'r24.example', count: 25 });
      expect(stats.referrers[20]).toEqual({ key: 'other', count: 1 + 2 + 3 + 4 + 5 });
    });

    it('guards private statistics: edit token yes, anonymous no', async () => {
      const h = harness();
      const { link, editToken } = await linkWith(h, { public_stats: false });
      expect(codeOf(await getStats(h, link.id, { days: 30 }, anonymous))).toBe('forbidden');
      expect(valueOf(await getStats(h, link.id, { days: 30 }, withToken(editToken))).total).toBe(0);
      expect(codeOf(await getStats(h, '00000000-0000-4000-8000-000000000000', { days: 30 }, anonymous))).toBe(
        'not_found',
      );
    });

    it('counts the same visitor once a day and again on the next day, then forgets the old salt', async () => {
      const h = harness();
      const recorder = recorderOf(h);
      const { link } = await linkWith(h);
      await followLink(h, recorder, link, human());
      await followLink(h, recorder, link, human());
      await recorder.flush();
      await followLink(h, recorder, link, human());
      await recorder.flush();
      h.clock.advance(3 * DAY);
      await followLink(h, recorder, link, human());
      await recorder.flush();
      const stats = valueOf(await getStats(h, link.id, { days: 30 }, anonymous));
      expect(stats).toMatchObject({ total: 4, unique: 2 });
      const today = new Date(h.clock.now()).toISOString().slice(0, 10);
      const firstDay = new Date(h.clock.now() - 3 * DAY).toISOString().slice(0, 10);
      expect(await h.visits.salt(firstDay, 'fresh-candidate')).toBe('fresh-candidate');
      expect(await h.visits.salt(today, 'another')).not.toBe('another');
    });
  });
}
