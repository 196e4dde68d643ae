import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RouteVisit, SplitEntry, VisitStore } from '../src/index.js';
import type { UrlPolicy } from '../src/urls/validate-url.js';
import { checkSplit, createVisitRecorder, hashVisitor, pickVariant, routeVisit } from '../src/index.js';
import { aRouteVisit, aRouting } from './routing-fixtures.js';

// Decisions §19 "Split tests": each visitor goes to one entry chosen by their daily visitor hash (§4's
// unique-visitor hash, salted by the day's secret salt): no cookie, nothing stored.

const DAY = 86_400_000;
const NOON = Date.UTC(2026, 5, 1, 12);
const LINK_ID = '0190a000-0000-7000-8000-000000000001';
const SPLIT: readonly SplitEntry[] = [
  { url: 'https://example.com/a', weight: 50 },
  { url: 'https://example.com/b', weight: 30 },
  { url: 'https://example.com/c', weight: 20 },
];

/** The daily salts as a server keeps them: the recorder's, over a store that keeps the first per day. */
function dailySalts(clock: { now: number }) {
  const kept = new Map<string, string>();
  const visits = {
    salt: async (day: string, candidate: string) => kept.get(day) ?? (kept.set(day, candidate), candidate),
  } as unknown as VisitStore;
  const recorder = createVisitRecorder({
    visits,
    clock: { now: () => clock.now },
    random: { bytes: (size) => new Uint8Array(randomBytes(size)) },
    userAgents: { describe: () => ({ device: 'desktop', browser: 'Firefox' }) },
    geo: null,
  });
  return async (at: number): Promise<string> => recorder.saltOf(at);
}

/** Visitor `n`: an address and a browser of their own. */
const visitorOf = (n: number) => ({
  ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
  userAgent: `Mozilla/5.0 (Windows NT 10.0) Firefox/${120 + (n % 7)}.0 build${n % 13}`,
});

const variantOf = (salt: string, n: number): number => {
  const { ip, userAgent } = visitorOf(n);
  return pickVariant(SPLIT, hashVisitor(salt, LINK_ID, ip, userAgent));
};

describe('split tests (decisions §19)', () => {
  it('share 10,000 simulated visitors within ±3% of the weights', async () => {
    const salt = await dailySalts({ now: NOON })(NOON);
    const counts = [0, 0, 0];
    for (let n = 0; n < 10_000; n++) counts[variantOf(salt, n)]!++;
    for (const [i, entry] of SPLIT.entries()) {
      expect(Math.abs((counts[i]! / 10_000) * 100 - entry.weight), `entry ${i}`).toBeLessThanOrEqual(3);
    }
  });

  it('still pick, alike on every node, while the store cannot give the day its salt', async () => {
    const away = {
      salt: async () => {
        throw new Error('store away');
      },
    } as unknown as VisitStore;
    const recorderOf = () =>
      createVisitRecorder({
        visits: away,
        clock: { now: () => NOON },
        random: { bytes: (size) => new Uint8Array(randomBytes(size)) },
        userAgents: { describe: () => ({ device: 'desktop', browser: 'Firefox' }) },
        geo: null,
      });
    const [one, two] = [await recorderOf().saltOf(NOON), await recorderOf().saltOf(NOON + 1000)];
    expect(one).toBe(two);
    expect(await recorderOf().saltOf(NOON + DAY)).not.toBe(one);
    const counts = [0, 0, 0];
    for (let n = 0; n < 3000; n++) counts[variantOf(one, n)]!++;
    expect(counts.every((count) => count > 0)).toBe(true);
  });

  it('send a visitor to the same entry all day, and may send them elsewhere another day', async () => {
    const clock = { now: NOON };
    const saltOf = dailySalts(clock);
    const morning = await saltOf(Date.UTC(2026, 5, 1, 0, 0, 1));
    const evening = await saltOf(Date.UTC(2026, 5, 1, 23, 59, 59));
    expect(evening).toBe(morning);
    const tomorrow = await saltOf(NOON + DAY);
    expect(tomorrow).not.toBe(morning);
    let moved = 0;
    for (let n = 0; n < 1000; n++) {
      const today = variantOf(morning, n);
      expect(variantOf(evening, n)).toBe(today);
      if (variantOf(tomorrow, n) !== today) moved++;
    }
    // with the weights 50/30/20 about 62% land elsewhere on a new day (1 - 0.25 - 0.09 - 0.04)
    expect(moved).toBeGreaterThan(500);
  });

  it('picks by the weights in order: the first 50 of 100 go to the first entry', () => {
    const hashAt = (point: number) =>
      Math.ceil((point / 100) * 0x1_0000_0000)
        .toString(16)
        .padStart(8, '0');
    expect(pickVariant(SPLIT, hashAt(0))).toBe(0);
    expect(pickVariant(SPLIT, hashAt(49.99))).toBe(0);
    expect(pickVariant(SPLIT, hashAt(50))).toBe(1);
    expect(pickVariant(SPLIT, hashAt(79.99))).toBe(1);
    expect(pickVariant(SPLIT, hashAt(80))).toBe(2);
    expect(pickVariant(SPLIT, 'ffffffff')).toBe(2);
  });

  it('routes by the rules first, and by the split only when none holds', () => {
    const routing = aRouting({
      rules: [{ when: { os: ['ios'] }, url: 'https://apps.example/' }],
      split: SPLIT,
    });
    const asked: string[] = [];
    const visit = (os: 'ios' | 'windows'): RouteVisit =>
      aRouteVisit(NOON, { os: () => os, visitorHash: () => (asked.push(os), 'dddddddd') });
    const link = { url: 'https://example.com/' };
    expect(routeVisit(link, routing, visit('ios'), '')).toEqual({
      url: 'https://apps.example/',
      rule: '0',
      variant: null,
    });
    expect(asked).toEqual([]); // a rule that holds needs no visitor hash
    expect(routeVisit(link, routing, visit('windows'), '')).toEqual({
      url: 'https://example.com/c',
      rule: 'default',
      variant: '2',
    });
    const withoutRules = aRouting({ split: SPLIT, forwardQuery: true });
    expect(routeVisit(link, withoutRules, visit('windows'), 'x=1')).toEqual({
      url: 'https://example.com/c?x=1',
      rule: null,
      variant: '2',
    });
  });
});

describe('checkSplit', () => {
  const policy: UrlPolicy = { shortHosts: ['sho.rt'], blocklist: [], allowPrivateHosts: false };

  it('checks every URL as a destination, naming the entry at fault', () => {
    const split = [
      { url: 'https://example.com/a', weight: 50 },
      { url: 'ftp://example.com/b', weight: 50 },
    ];
    const checked = checkSplit(split, policy, {});
    expect(checked.ok ? null : checked.error).toMatchObject({
      code: 'unsupported_scheme',
      field: 'split.1.url',
    });
  });

  it("adds the link's UTM parameters to each URL, and is null when none is given", () => {
    const split = [
      { url: 'example.com/a', weight: 60 },
      { url: 'https://example.com/b?x=1', weight: 40 },
    ];
    expect(checkSplit(split, policy, { utm_source: 'news' })).toEqual({
      ok: true,
      value: [
        { url: 'https://example.com/a?utm_source=news', weight: 60 },
        { url: 'https://example.com/b?x=1&utm_source=news', weight: 40 },
      ],
    });
    expect(checkSplit(null, policy, {})).toEqual({ ok: true, value: null });
  });
});
