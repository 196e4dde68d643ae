import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../src/config.js';
import type { ServiceConfig } from '../src/config.js';
import type { GuessBudget } from '../src/limits/guess-limit.js';
import {
  TOKEN_GUESS_LIMIT,
  guessUnderLimit,
  spendGuess,
  tokenGuessBudget,
  tooManyGuesses,
  underGuessLimit,
  underTokenGuessLimit,
} from '../src/limits/guess-limit.js';
import type { RateDecision, RateLimiter, RateWindow } from '../src/ports.js';

/** A rolling-window limiter in memory that writes down what it is asked. */
function aLimiter() {
  const hits = new Map<string, number[]>();
  const calls: string[] = [];
  const limiter: RateLimiter = {
    async hit(key: string, windows: readonly RateWindow[], cost: number, now: number): Promise<RateDecision> {
      calls.push(`hit ${key} @${now}`);
      const held = hits.get(key) ?? [];
      for (const window of windows) {
        const inWindow = held.filter((at) => at > now - window.windowMs);
        if (inWindow.length + cost > window.limit) {
          const retryAfterMs = (inWindow[0] ?? now) + window.windowMs - now;
          return { allowed: false, limit: window.limit, remaining: 0, resetMs: retryAfterMs, retryAfterMs };
        }
      }
      hits.set(key, [...held, ...Array.from({ length: cost }, () => now)]);
      return { allowed: true, limit: windows[0]?.limit ?? 0, remaining: 0, resetMs: 0, retryAfterMs: 0 };
    },
    async refund(key: string, cost: number, at: number): Promise<void> {
      calls.push(`refund ${key} @${at}`);
      const held = hits.get(key) ?? [];
      for (let i = 0; i < cost; i++) {
        const index = held.indexOf(at);
        if (index >= 0) held.splice(index, 1);
      }
    },
  };
  const spent = (key: string) => hits.get(key)?.length ?? 0;
  return { limiter, calls, spent };
}

function aClock(start = Date.UTC(2026, 5, 1)) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

const config = (ipv6PrefixBits = 64): ServiceConfig => ({
  shortDomains: [{ origin: 'https://sho.rt', host: 'sho.rt' }],
  baseUrl: 'https://sho.rt',
  extraReservedSlugs: [],
  blocklist: [],
  allowPrivateHosts: false,
  limits: { ...DEFAULT_LIMITS, ipv6PrefixBits },
});

const one: GuessBudget = { key: 'one', windows: [{ limit: 2, windowMs: 60_000 }] };
const two: GuessBudget = { key: 'two', windows: [{ limit: 1, windowMs: 60_000 }] };

describe('spendGuess', () => {
  it('spends one unit of every budget, at the same instant, before the secret is checked', async () => {
    const { limiter, calls, spent } = aLimiter();
    const clock = aClock();
    const guess = await spendGuess({ rateLimiter: limiter, clock }, [one, two]);
    expect(guess.allowed).toBe(true);
    expect(calls).toEqual([`hit one @${clock.now()}`, `hit two @${clock.now()}`]);
    expect([spent('one'), spent('two')]).toEqual([1, 1]);
  });

  it('gives back what earlier budgets spent when a later one refuses, and says how long to wait', async () => {
    const { limiter, spent } = aLimiter();
    const clock = aClock();
    const deps = { rateLimiter: limiter, clock };
    expect((await spendGuess(deps, [two])).allowed).toBe(true);
    clock.advance(10_000);
    const refused = await spendGuess(deps, [one, two]);
    expect(refused).toEqual({
      allowed: false,
      decision: expect.objectContaining({ allowed: false, retryAfterMs: 50_000 }),
    });
    expect([spent('one'), spent('two')]).toEqual([0, 1]);
  });

  it('gives every unit back when the guess was right, and keeps them when it was wrong', async () => {
    const { limiter, calls, spent } = aLimiter();
    const clock = aClock();
    const deps = { rateLimiter: limiter, clock };
    const right = await spendGuess(deps, [one, two]);
    clock.advance(5);
    if (right.allowed) await right.settle(true);
    expect([spent('one'), spent('two')]).toEqual([0, 0]);
    // the refund names the instant of the spend, not of the settling
    expect(calls.filter((c) => c.startsWith('refund'))).toEqual([
      `refund one @${clock.now() - 5}`,
      `refund two @${clock.now() - 5}`,
    ]);
    const wrong = await spendGuess(deps, [one, two]);
    if (wrong.allowed) await wrong.settle(false);
    expect([spent('one'), spent('two')]).toEqual([1, 1]);
  });

  it('admits a guess that spends from no budget', async () => {
    const { limiter, calls } = aLimiter();
    const guess = await spendGuess({ rateLimiter: limiter, clock: aClock() }, []);
    expect(guess.allowed).toBe(true);
    expect(calls).toEqual([]);
  });
});

describe('underGuessLimit', () => {
  it('runs the check with a unit spent and keeps it when the secret was wrong', async () => {
    const { limiter, spent } = aLimiter();
    const deps = { rateLimiter: limiter, clock: aClock() };
    let seen = -1;
    const result = await underGuessLimit(
      deps,
      [one],
      async () => ((seen = spent('one')), 'checked'),
      () => false,
    );
    expect(result).toEqual({ allowed: true, value: 'checked' });
    expect(seen).toBe(1);
    expect(spent('one')).toBe(1);
  });

  it('gives the unit back when the secret was right', async () => {
    const { limiter, spent } = aLimiter();
    const deps = { rateLimiter: limiter, clock: aClock() };
    const result = await underGuessLimit(
      deps,
      [one],
      async () => 7,
      (value) => value === 7,
    );
    expect(result).toEqual({ allowed: true, value: 7 });
    expect(spent('one')).toBe(0);
  });

  it('gives the unit back when the check fails, since that was no wrong guess', async () => {
    const { limiter, spent } = aLimiter();
    const deps = { rateLimiter: limiter, clock: aClock() };
    await expect(
      underGuessLimit(
        deps,
        [one],
        async () => {
          throw new Error('store away');
        },
        () => false,
      ),
    ).rejects.toThrow('store away');
    expect(spent('one')).toBe(0);
  });

  it('never runs the check once the budget is spent', async () => {
    const { limiter } = aLimiter();
    const deps = { rateLimiter: limiter, clock: aClock() };
    let runs = 0;
    const run = async () => ++runs;
    for (let i = 0; i < 2; i++) await underGuessLimit(deps, [one], run, () => false);
    const refused = await underGuessLimit(deps, [one], run, () => false);
    expect(refused.allowed).toBe(false);
    expect(runs).toBe(2);
  });
});

describe('guessUnderLimit', () => {
  it('says whether the secret was right, and counts only the wrong ones', async () => {
    const { limiter, spent } = aLimiter();
    const deps = { rateLimiter: limiter, clock: aClock() };
    expect(await guessUnderLimit(deps, [one], async () => true)).toEqual({ allowed: true, right: true });
    expect(spent('one')).toBe(0);
    expect(await guessUnderLimit(deps, [one], async () => false)).toEqual({ allowed: true, right: false });
    expect(await guessUnderLimit(deps, [one], async () => false)).toEqual({ allowed: true, right: false });
    const refused = await guessUnderLimit(deps, [one], async () => true);
    expect(refused).toMatchObject({ allowed: false, decision: { allowed: false } });
  });
});

describe('tooManyGuesses', () => {
  const refusal = (retryAfterMs: number) =>
    tooManyGuesses(
      {
        allowed: false,
        decision: { allowed: false, limit: 1, remaining: 0, resetMs: retryAfterMs, retryAfterMs },
      },
      'Too many guesses.',
    );

  it('is rate_limited with the wait the limiter gives', () => {
    expect(refusal(90_000)).toMatchObject({
      ok: false,
      error: { code: 'rate_limited' },
      retryAfterMs: 90_000,
    });
    expect(refusal(1001).retryAfterMs).toBe(1001);
  });

  it('never asks to wait less than one second', () => {
    expect(refusal(0).retryAfterMs).toBe(1000);
    expect(refusal(1).retryAfterMs).toBe(1000);
    expect(refusal(999).retryAfterMs).toBe(1000);
    expect(refusal(1000).retryAfterMs).toBe(1000);
  });
});

describe('token guess budgets', () => {
  it('allows 30 wrong tokens per 15 minutes', () => {
    expect(TOKEN_GUESS_LIMIT).toEqual({ limit: 30, windowMs: 900_000 });
  });

  it("keys an edit token's guesses by link and client address, the link's id in any case", () => {
    const a = tokenGuessBudget(config(), 'edit', '203.0.113.7', 'AbC123');
    expect(a).toEqual({ key: 'edit-token:abc123:203.0.113.7', windows: [TOKEN_GUESS_LIMIT] });
    expect(tokenGuessBudget(config(), 'edit', '203.0.113.7', 'abc123').key).toBe(a.key);
    expect(tokenGuessBudget(config(), 'edit', '203.0.113.7', 'abd123').key).not.toBe(a.key);
    expect(tokenGuessBudget(config(), 'edit', '203.0.113.8', 'abc123').key).not.toBe(a.key);
    // nodes sharing a limiter (Redis, PostgreSQL) must agree on the key, a link named or not
    expect(tokenGuessBudget(config(), 'edit', '203.0.113.7').key).toBe('edit-token::203.0.113.7');
  });

  it("keys an invite token's guesses by client address alone", () => {
    const a = tokenGuessBudget(config(), 'invite', '203.0.113.7');
    expect(a).toEqual({ key: 'invite-token:203.0.113.7', windows: [TOKEN_GUESS_LIMIT] });
    expect(tokenGuessBudget(config(), 'invite', '203.0.113.7', 'link').key).toBe(a.key);
    expect(tokenGuessBudget(config(), 'edit', '203.0.113.7').key).not.toBe(a.key);
  });

  it('keys an IPv6 client by its prefix, as configured', () => {
    const key = (ip: string, bits = 64) => tokenGuessBudget(config(bits), 'invite', ip).key;
    expect(key('2001:db8:1:2::1')).toBe('invite-token:2001:db8:1:2:0:0:0:0/64');
    expect(key('2001:db8:1:2:ffff::9')).toBe(key('2001:db8:1:2::1'));
    expect(key('2001:db8:1:3::1')).not.toBe(key('2001:db8:1:2::1'));
    expect(key('2001:db8:1:3::1', 48)).toBe(key('2001:db8:1:2::1', 48));
  });
});

describe('underTokenGuessLimit', () => {
  it('refuses the 31st wrong token of an address in 15 minutes, without looking at it', async () => {
    const { limiter } = aLimiter();
    const clock = aClock();
    const deps = { rateLimiter: limiter, clock, config: config() };
    const guess = { kind: 'invite' as const, ip: '198.51.100.4' };
    let runs = 0;
    const run = async () => ++runs;
    for (let i = 0; i < 30; i++) {
      expect(await underTokenGuessLimit(deps, guess, run, () => false)).toEqual({ ok: true, value: i + 1 });
    }
    clock.advance(60_000);
    const refused = await underTokenGuessLimit(deps, guess, run, () => false);
    expect(refused).toMatchObject({ ok: false, error: { code: 'rate_limited' }, retryAfterMs: 840_000 });
    expect(refused.ok ? '' : refused.error.message).not.toBe('');
    expect(runs).toBe(30);
    // another address, and the same address once the window has passed, may try again
    expect((await underTokenGuessLimit(deps, { ...guess, ip: '198.51.100.5' }, run, () => false)).ok).toBe(
      true,
    );
    clock.advance(840_000);
    expect((await underTokenGuessLimit(deps, guess, run, () => false)).ok).toBe(true);
  });

  it('counts edit tokens per link, so many links read at once stay clear of the limit', async () => {
    const { limiter } = aLimiter();
    const deps = { rateLimiter: limiter, clock: aClock(), config: config() };
    /** A wrong edit token of `target` sent from `ip`. */
    const wrongToken = (ip: string, target: string) =>
      underTokenGuessLimit(
        deps,
        { kind: 'edit', ip, target },
        async () => 0,
        () => false,
      );
    for (let i = 0; i < 30; i++) await wrongToken('2001:db8::1', 'one');
    expect((await wrongToken('2001:db8::2', 'ONE')).ok).toBe(false); // the same link
    expect(await wrongToken('2001:db8::1', 'two')).toEqual({ ok: true, value: 0 }); // another link
  });

  it('does not count a right token', async () => {
    const { limiter, spent } = aLimiter();
    const deps = { rateLimiter: limiter, clock: aClock(), config: config() };
    const guess = { kind: 'invite' as const, ip: '198.51.100.4' };
    for (let i = 0; i < 40; i++) {
      expect(
        (
          await underTokenGuessLimit(
            deps,
            guess,
            async () => 'ok',
            (v) => v === 'ok',
          )
        ).ok,
      ).toBe(true);
    }
    expect(spent('invite-token:198.51.100.4')).toBe(0);
  });
});
