import type { Stores } from '@shortener/core';
import { createLinkWithinBudget, createLinksWithinBudget } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { TEST_CONFIG, codeOf, useCoreHarness, valueOf } from './core-harness.js';
import type { Harness } from './core-harness.js';

const anonymous = { accountId: null, editToken: null };
const IP = '203.0.113.7';

/** A harness whose anonymous clients may create `perHour` links an hour. */
const limitedTo = (h: Harness, perHour: number): Harness => ({
  ...h,
  config: { ...TEST_CONFIG, limits: { ...TEST_CONFIG.limits, anonPerHour: perHour } },
});

/** Creation on the open internet spends the caller's budget inside core (decisions §14). */
export function describeBudgetSuite(name: string, open: () => Promise<Stores>): void {
  describe(`${name}: creating within the creation budget`, () => {
    const harness = useCoreHarness(open);

    it('spends one unit per link and refuses the one past the budget without creating it', async () => {
      const refusals: string[] = [];
      const h = { ...limitedTo(harness(), 2), onLimited: (limit: string) => void refusals.push(limit) };
      for (const n of [1, 2]) {
        const { decision, result } = await createLinkWithinBudget(
          h,
          { url: `https://a.example/${n}` },
          anonymous,
          IP,
        );
        valueOf(result);
        expect(decision?.remaining).toBe(2 - n);
      }
      const refused = await createLinkWithinBudget(
        h,
        { url: 'https://a.example/3', alias: 'third' },
        anonymous,
        IP,
      );
      expect(codeOf(refused.result)).toBe('rate_limited');
      expect(refused.decision?.allowed).toBe(false);
      expect(await h.links.findBySlug('sho.rt', 'third')).toBeNull();
      expect(refusals).toEqual(['creation']);
    });

    it('refuses a bulk request whole when its URLs do not fit, and spends nothing on too many URLs', async () => {
      const h = limitedTo(harness(), 3);
      const urls = [
        'https://b.example/1',
        'https://b.example/2',
        'https://b.example/3',
        'https://b.example/4',
      ];
      const whole = await createLinksWithinBudget(h, { urls }, anonymous, IP);
      expect(codeOf(whole.result)).toBe('rate_limited');
      const tooMany = Array.from(
        { length: TEST_CONFIG.limits.bulkAnonymous + 1 },
        (_, i) => `https://c.example/${i}`,
      );
      const refused = await createLinksWithinBudget(h, { urls: tooMany }, anonymous, IP);
      expect(codeOf(refused.result)).toBe('too_many');
      expect(refused.decision).toBeNull();
      // nothing was spent by either: three still fit
      const three = await createLinksWithinBudget(h, { urls: urls.slice(0, 3) }, anonymous, IP);
      expect(valueOf(three.result).every((item) => item.ok)).toBe(true);
      expect(three.decision?.remaining).toBe(0);
    });
  });
}
