import { describe, expect, it } from 'vitest';
import type { RedirectRule, RouteVisit } from '../src/index.js';
import { acceptedLanguages, checkRules, forwardQuery, pickRule, routingOf } from '../src/index.js';
import { aLink, aRouteVisit } from './routing-fixtures.js';

const NOW = Date.UTC(2026, 5, 1);

const visitor = (over: Parameters<typeof aRouteVisit>[1] = {}): RouteVisit => aRouteVisit(NOW, over);

const RULES: RedirectRule[] = [
  { when: { device: ['mobile'], os: ['ios'] }, url: 'https://a.example/' },
  { when: { language: ['de', 'fr'] }, url: 'https://b.example/' },
  { when: { country: ['AT'], after: NOW - 1000, before: NOW + 1000 }, url: 'https://c.example/' },
  { when: { query: { ref: 'mail' } }, url: 'https://d.example/' },
];

describe('pickRule', () => {
  it('picks the first rule whose conditions all hold, else -1', () => {
    expect(pickRule(RULES, visitor({ device: () => 'mobile', os: () => 'ios' }))).toBe(0);
    expect(pickRule(RULES, visitor({ device: () => 'tablet', os: () => 'ios' }))).toBe(-1);
    expect(pickRule(RULES, visitor({ languages: () => ['en', 'fr'], country: () => 'AT' }))).toBe(1);
    expect(pickRule(RULES, visitor({ country: () => 'AT' }))).toBe(2);
    expect(pickRule(RULES, visitor({ country: () => 'AT', now: NOW + 1000 }))).toBe(-1);
    expect(pickRule(RULES, visitor({ query: (name: string) => (name === 'ref' ? 'mail' : null) }))).toBe(3);
    expect(pickRule(RULES, visitor())).toBe(-1);
  });

  it('asks only what the rules need', () => {
    let asked = 0;
    const counting = visitor({ country: () => (asked++, 'AT') });
    expect(pickRule([{ when: { os: ['linux'] }, url: 'https://x.example/' }], counting)).toBe(-1);
    expect(asked).toBe(0);
  });
});

describe('forwardQuery', () => {
  it("appends the visitor's parameters the destination does not have, before the fragment", () => {
    expect(forwardQuery('https://e.example/p?a=1#f', 'a=2&b=3&c')).toBe('https://e.example/p?a=1&b=3&c#f');
    expect(forwardQuery('https://e.example/p', 'x=%20y')).toBe('https://e.example/p?x=%20y');
    expect(forwardQuery('https://e.example/p?a=1', 'a=9')).toBe('https://e.example/p?a=1');
    expect(forwardQuery('https://e.example/p', '')).toBe('https://e.example/p');
  });
});

describe('acceptedLanguages', () => {
  it('lists languages with their regions with q > 0, best first', () => {
    expect(acceptedLanguages('fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5')).toEqual([
      'fr-CH',
      'fr',
      'en',
      'de',
    ]);
    expect(acceptedLanguages('en;q=0.1, de-AT')).toEqual(['de-AT', 'en']);
    expect(acceptedLanguages('de;q=0, en')).toEqual(['en']);
    expect(acceptedLanguages('not a tag!!')).toEqual([]);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});

describe('routingOf', () => {
  it('is null for a plain link and holds the status and rules otherwise', () => {
    expect(routingOf(aLink(), 302)).toBeNull();
    expect(routingOf(aLink({ redirectStatus: 302 }), 302)).toBeNull();
    expect(routingOf(aLink({ crawlable: true }), 302)).toMatchObject({ crawlable: true, status: 302 });
    // a permanent server default never applies to a link that needs every visit
    expect(routingOf(aLink({ maxClicks: 3 }), 301)).toMatchObject({ status: 302 });
    expect(routingOf(aLink(), 301)).toBeNull();
  });
});

describe('checkRules', () => {
  const policy = {
    shortHosts: ['s.example', 'sho.example'],
    blocklist: ['bad.example'],
    allowPrivateHosts: false,
  };
  const codeOf = (url: string) => {
    const checked = checkRules(
      [
        { when: { device: 'tablet' }, url: 'https://ok.example/' },
        { when: { os: 'ios' }, url },
      ],
      policy,
      {},
    );
    return checked.ok ? 'ok' : `${checked.error.code} ${checked.error.field ?? ''}`;
  };

  it('puts every rule URL through the checks of a link URL, naming the rule', () => {
    expect(codeOf('https://s.example/abc')).toBe('self_reference rules.1.url');
    expect(codeOf('https://www.bad.example/')).toBe('unsafe_url rules.1.url');
    expect(codeOf('http://[::1]/')).toBe('private_host rules.1.url');
    expect(codeOf('javascript:alert(1)')).toBe('unsupported_scheme rules.1.url');
    expect(codeOf('example.org/fine')).toBe('ok');
  });

  it('stores lists, upper-case countries, lower-case languages, epoch times and the UTM parameters', () => {
    const when = {
      device: 'mobile' as const,
      country: 'at',
      language: ['DE'],
      after: '2026-01-01T00:00:00Z',
    };
    const checked = checkRules([{ when, url: 'https://e.example/?a=1' }], policy, { utm_source: 'news' });
    expect(checked).toEqual({
      ok: true,
      value: [
        {
          when: { device: ['mobile'], country: ['AT'], language: ['de'], after: Date.UTC(2026, 0, 1) },
          url: 'https://e.example/?a=1&utm_source=news',
        },
      ],
    });
  });
});
