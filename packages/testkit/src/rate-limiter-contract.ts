import type { RateDecision, RateLimiter, RateWindow } from '@shortener/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_TIME } from './fixtures.js';

const T = FIXTURE_TIME;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const THREE_PER_SECOND: readonly RateWindow[] = [{ windowMs: 1000, limit: 3 }];

/** The decision fields a test pins, all of them. */
const decision = (
  allowed: boolean,
  limit: number,
  remaining: number,
  resetMs: number,
  retryAfterMs: number,
) => ({ allowed, limit, remaining, resetMs, retryAfterMs }) satisfies RateDecision;

/**
 * Registers the RateLimiter contract: rolling windows, whole refusals, several windows at once.
 * `make` is called before each test and must return an empty limiter.
 */
export function describeRateLimiterContract(name: string, make: () => RateLimiter): void {
  describe(`${name}: RateLimiter contract`, () => {
    let limiter: RateLimiter;
    const hit = (now: number, cost = 1, windows = THREE_PER_SECOND, key = 'k') =>
      limiter.hit(key, windows, cost, now);
    beforeEach(() => {
      limiter = make();
    });

    it('allows limit hits in a window and refuses the next with a retry time', async () => {
      expect(await hit(T)).toEqual(decision(true, 3, 2, 1000, 0));
      expect(await hit(T + 100)).toEqual(decision(true, 3, 1, 900, 0));
      expect(await hit(T + 200)).toEqual(decision(true, 3, 0, 800, 0));
      expect(await hit(T + 500)).toEqual(decision(false, 3, 0, 500, 500));
    });

    it('frees units one by one as each hit leaves the rolling window', async () => {
      await hit(T);
      await hit(T + 300);
      await hit(T + 600);
      expect(await hit(T + 999)).toMatchObject({ allowed: false, retryAfterMs: 1 });
      expect(await hit(T + 1000)).toEqual(decision(true, 3, 0, 300, 0));
      expect(await hit(T + 1000)).toMatchObject({ allowed: false, retryAfterMs: 300 });
      expect(await hit(T + 1299)).toMatchObject({ allowed: false, retryAfterMs: 1 });
      expect(await hit(T + 1300)).toMatchObject({ allowed: true, remaining: 0 });
      expect(await hit(T + 1599)).toMatchObject({ allowed: false, retryAfterMs: 1 });
    });

    it('consumes nothing for refused hits', async () => {
      for (let i = 0; i < 3; i += 1) await hit(T);
      for (let i = 0; i < 5; i += 1) expect((await hit(T + 500)).allowed).toBe(false);
      expect(await hit(T + 1000)).toEqual(decision(true, 3, 2, 1000, 0));
    });

    it('refuses a cost above what is left whole and consumes nothing', async () => {
      const windows = [{ windowMs: 1000, limit: 5 }];
      expect(await hit(T, 3, windows)).toEqual(decision(true, 5, 2, 1000, 0));
      expect(await hit(T + 100, 3, windows)).toMatchObject({
        allowed: false,
        remaining: 0,
        retryAfterMs: 900,
      });
      expect(await hit(T + 200, 2, windows)).toEqual(decision(true, 5, 0, 800, 0));
    });

    it('reports no reset time for an empty window', async () => {
      expect(await hit(T, 0)).toEqual(decision(true, 3, 3, 0, 0));
    });

    it('peeks without consuming when the cost is 0', async () => {
      await hit(T);
      await hit(T + 100);
      expect(await hit(T + 200, 0)).toEqual(decision(true, 3, 1, 800, 0));
      expect(await hit(T + 300, 0)).toEqual(decision(true, 3, 1, 700, 0));
      expect(await hit(T + 400)).toEqual(decision(true, 3, 0, 600, 0));
      expect(await hit(T + 500, 0)).toMatchObject({ limit: 3, remaining: 0, resetMs: 500 });
      expect((await hit(T + 600)).allowed).toBe(false);
    });

    it('keeps separate keys independent', async () => {
      for (let i = 0; i < 3; i += 1) await hit(T, 1, THREE_PER_SECOND, 'a');
      expect((await hit(T, 1, THREE_PER_SECOND, 'a')).allowed).toBe(false);
      expect(await hit(T, 1, THREE_PER_SECOND, 'b')).toEqual(decision(true, 3, 2, 1000, 0));
    });

    it('reports the tightest of several windows', async () => {
      const windows = [
        { windowMs: DAY, limit: 4 },
        { windowMs: HOUR, limit: 3 },
      ];
      expect(await hit(T, 1, windows)).toEqual(decision(true, 3, 2, HOUR, 0));
      expect(await hit(T, 1, windows)).toEqual(decision(true, 3, 1, HOUR, 0));
      expect(await hit(T, 1, windows)).toEqual(decision(true, 3, 0, HOUR, 0));
      expect(await hit(T + 1000, 1, windows)).toEqual(decision(false, 3, 0, HOUR - 1000, HOUR - 1000));
      expect(await hit(T + HOUR, 1, windows)).toEqual(decision(true, 4, 0, DAY - HOUR, 0));
      expect(await hit(T + HOUR + 1, 1, windows)).toEqual(
        decision(false, 4, 0, DAY - HOUR - 1, DAY - HOUR - 1),
      );
      expect(await hit(T + DAY, 1, windows)).toMatchObject({ allowed: true });
    });

    it('gives a refunded hit back, and nothing for a hit it does not hold', async () => {
      await hit(T);
      await hit(T + 100);
      await hit(T + 200);
      await limiter.refund('k', 1, T + 100);
      await limiter.refund('k', 1, T + 100); // already given back: nothing more
      await limiter.refund('k', 1, T + 150); // no hit at that time
      await limiter.refund('unknown', 1, T);
      expect(await hit(T + 300)).toEqual(decision(true, 3, 0, 700, 0));
      expect((await hit(T + 400)).allowed).toBe(false);
    });

    it('gives back part of a hit of a larger cost', async () => {
      const windows = [{ windowMs: 1000, limit: 5 }];
      await hit(T, 4, windows);
      await limiter.refund('k', 2, T);
      expect(await hit(T + 10, 3, windows)).toEqual(decision(true, 5, 0, 990, 0));
    });

    it('checks no more concurrent guesses than the budget, refunding the right ones', async () => {
      // spend, then check, refund on success (decisions §14): of 100 guesses at once, 10 pass
      const windows = [{ windowMs: 60_000, limit: 10 }];
      const decisions = await Promise.all(
        Array.from({ length: 100 }, (_, i) => limiter.hit('guess', windows, 1, T + (i % 7))),
      );
      expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
      const passed = decisions.flatMap((d, i) => (d.allowed ? [T + (i % 7)] : []));
      await Promise.all(passed.map((at) => limiter.refund('guess', 1, at)));
      expect((await limiter.hit('guess', windows, 0, T + 10)).remaining).toBe(10);
    });
  });
}
