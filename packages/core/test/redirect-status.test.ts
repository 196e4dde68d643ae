import { describe, expect, it } from 'vitest';
import { itGives } from './table.js';
import type { LinkRecord, RedirectRule, RedirectStatus } from '../src/index.js';
import { isPermanent, needsEveryVisit, routingOf, statusOf } from '../src/links/routing.js';
import { aLink, aRouting } from './routing-fixtures.js';

const RULE: RedirectRule = { when: { device: ['mobile'] }, url: 'https://m.example.com/' };

/** One link for each thing that needs every visit to come back (decisions §15, §19). */
const NEEDS_EVERY_VISIT: [string, Partial<LinkRecord>][] = [
  ['rules', { rules: [RULE] }],
  [
    'a split',
    {
      split: [
        { url: 'https://a.example/', weight: 50 },
        { url: 'https://b.example/', weight: 50 },
      ],
    },
  ],
  ['a click cap', { maxClicks: 10 }],
  ['an expiry', { expiresAt: Date.UTC(2027, 0, 1) }],
  ['a password', { passwordHash: 'scrypt$hash' }],
];

describe('isPermanent', () => {
  itGives('says %s is permanent: %s', isPermanent, [
    [301, true],
    [308, true],
    [302, false],
    [307, false],
    [null, false],
  ]);
});

describe('needsEveryVisit', () => {
  it.each(NEEDS_EVERY_VISIT)('holds for a link with %s', (_, over) => {
    expect(needsEveryVisit(aLink(over))).toBe(true);
  });

  it('does not hold for a plain link, nor for forwarding, crawlability or a status', () => {
    expect(needsEveryVisit(aLink())).toBe(false);
    expect(needsEveryVisit(aLink({ forwardQuery: true, crawlable: true, redirectStatus: 307 }))).toBe(false);
  });
});

describe('statusOf', () => {
  it.each(NEEDS_EVERY_VISIT)(
    'answers 302 for a link with %s under a 301 or 308 server default',
    (_, over) => {
      expect(statusOf(aLink(over), 301)).toBe(302);
      expect(statusOf(aLink(over), 308)).toBe(302);
    },
  );

  it.each(NEEDS_EVERY_VISIT)('keeps a 302 or 307 server default for a link with %s', (_, over) => {
    expect(statusOf(aLink(over), 302)).toBe(302);
    expect(statusOf(aLink(over), 307)).toBe(307);
  });

  it.each<RedirectStatus>([301, 302, 307, 308])(
    'answers a plain link with the server default %s',
    (status) => {
      expect(statusOf(aLink(), status)).toBe(status);
    },
  );

  it("answers with the link's own status over the server's", () => {
    expect(statusOf(aLink({ redirectStatus: 307 }), 301)).toBe(307);
    expect(statusOf(aLink({ redirectStatus: 308 }), 302)).toBe(308);
    expect(statusOf(aLink({ redirectStatus: 301 }), 307)).toBe(301);
  });
});

describe('routingOf', () => {
  it('is null for a plain link under any server default', () => {
    for (const status of [301, 302, 307, 308] as const) expect(routingOf(aLink(), status)).toBeNull();
    expect(routingOf(aLink({ redirectStatus: 307 }), 307)).toBeNull();
  });

  it('routes a link with rules', () => {
    expect(routingOf(aLink({ rules: [RULE] }), 302)).toEqual(aRouting({ rules: [RULE] }));
  });

  it('routes a link that forwards the query', () => {
    expect(routingOf(aLink({ forwardQuery: true }), 307)).toEqual(
      aRouting({ forwardQuery: true, status: 307 }),
    );
  });

  it('routes a crawlable link', () => {
    expect(routingOf(aLink({ crawlable: true }), 302)).toEqual(aRouting({ crawlable: true }));
  });

  it("routes a link whose status is not the server's", () => {
    expect(routingOf(aLink({ redirectStatus: 308 }), 302)).toEqual(aRouting({ status: 308 }));
  });

  it.each(NEEDS_EVERY_VISIT)('routes a link with %s with 302 under a permanent server default', (_, over) => {
    expect(routingOf(aLink(over), 308)).toMatchObject({ status: 302 });
    expect(routingOf(aLink(over), 301)).toMatchObject({ status: 302 });
  });
});
