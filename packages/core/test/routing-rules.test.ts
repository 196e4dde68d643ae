import { describe, expect, it } from 'vitest';
import type { RedirectRule, RouteVisit } from '../src/index.js';
import { acceptedLanguages, forwardQuery, pickRule, routeVisit, ruleKey } from '../src/links/routing.js';
import { aRouteVisit, aRouting } from './routing-fixtures.js';

const NOW = Date.UTC(2026, 5, 1, 12);

const visitor = (over: Parameters<typeof aRouteVisit>[1] = {}): RouteVisit => aRouteVisit(NOW, over);

const rule = (when: RedirectRule['when'], url = 'https://rule.example/'): RedirectRule => ({ when, url });
const picks = (when: RedirectRule['when'], visit: RouteVisit) => pickRule([rule(when)], visit) === 0;

describe('rule conditions', () => {
  it('holds a rule with no conditions for every visit', () => {
    expect(picks({}, visitor())).toBe(true);
  });

  it('does not hold a rule whose `after` lies in the future, and holds it from that instant on', () => {
    expect(picks({ after: NOW + 1 }, visitor())).toBe(false);
    expect(picks({ after: NOW + 86_400_000 }, visitor())).toBe(false);
    expect(picks({ after: NOW }, visitor())).toBe(true);
    expect(picks({ after: NOW - 1 }, visitor())).toBe(true);
  });

  it('holds a rule until just before its `before`', () => {
    expect(picks({ before: NOW + 1 }, visitor())).toBe(true);
    expect(picks({ before: NOW }, visitor())).toBe(false);
    expect(picks({ before: NOW - 86_400_000 }, visitor())).toBe(false);
  });

  it('holds a device or operating system condition when any listed value matches', () => {
    expect(picks({ device: ['mobile', 'tablet'] }, visitor({ device: () => 'tablet' }))).toBe(true);
    expect(picks({ device: ['mobile'] }, visitor({ device: () => 'desktop' }))).toBe(false);
    expect(picks({ os: ['ios', 'android'] }, visitor({ os: () => 'android' }))).toBe(true);
    expect(picks({ os: ['ios'] }, visitor({ os: () => 'other' }))).toBe(false);
  });

  it('needs the device and the operating system both to match when a rule names both', () => {
    const when = { device: ['mobile' as const], os: ['ios' as const] };
    expect(picks(when, visitor({ device: () => 'mobile', os: () => 'ios' }))).toBe(true);
    expect(picks(when, visitor({ device: () => 'mobile', os: () => 'android' }))).toBe(false);
    expect(picks(when, visitor({ device: () => 'desktop', os: () => 'ios' }))).toBe(false);
  });

  it('holds a country condition only for a known country on the list', () => {
    expect(picks({ country: ['AT', 'CH'] }, visitor({ country: () => 'CH' }))).toBe(true);
    expect(picks({ country: ['AT', 'CH'] }, visitor({ country: () => 'DE' }))).toBe(false);
    expect(picks({ country: ['AT'] }, visitor({ country: () => null }))).toBe(false);
  });

  it('holds `en` for any English and `en-US` for that region only (decisions §25)', () => {
    expect(picks({ language: ['en'] }, visitor({ languages: () => ['en-GB'] }))).toBe(true);
    expect(picks({ language: ['en'] }, visitor({ languages: () => ['en'] }))).toBe(true);
    expect(picks({ language: ['en-US'] }, visitor({ languages: () => ['en-US'] }))).toBe(true);
    expect(picks({ language: ['en-US'] }, visitor({ languages: () => ['en-GB'] }))).toBe(false);
    expect(picks({ language: ['en-US'] }, visitor({ languages: () => ['en'] }))).toBe(false);
    expect(picks({ language: ['fr', 'en-US'] }, visitor({ languages: () => ['de', 'en-US'] }))).toBe(true);
  });

  it('holds a language condition when any accepted language is wanted', () => {
    expect(picks({ language: ['de'] }, visitor({ languages: () => ['en', 'de'] }))).toBe(true);
    expect(picks({ language: ['fr', 'de'] }, visitor({ languages: () => ['de'] }))).toBe(true);
    expect(picks({ language: ['de'] }, visitor({ languages: () => ['en', 'fr'] }))).toBe(false);
    expect(picks({ language: ['de'] }, visitor({ languages: () => [] }))).toBe(false);
  });

  it('holds a query condition only when every named parameter has exactly its value', () => {
    const query = (values: Record<string, string>) =>
      visitor({ query: (name: string) => values[name] ?? null });
    const when = { query: { campaign: 'spring', source: 'mail' } };
    expect(picks(when, query({ campaign: 'spring', source: 'mail', other: 'x' }))).toBe(true);
    expect(picks(when, query({ campaign: 'spring' }))).toBe(false);
    expect(picks(when, query({ campaign: 'spring', source: 'Mail' }))).toBe(false);
    expect(picks(when, query({ source: 'mail' }))).toBe(false);
    expect(picks({ query: { flag: '' } }, query({ flag: '' }))).toBe(true);
    expect(picks({ query: { flag: '' } }, query({}))).toBe(false);
  });

  it('needs every condition of a rule to hold', () => {
    const when = { country: ['AT'], language: ['de'], after: NOW - 1 };
    expect(picks(when, visitor({ country: () => 'AT', languages: () => ['de'] }))).toBe(true);
    expect(picks(when, visitor({ country: () => 'AT', languages: () => ['en'] }))).toBe(false);
    expect(picks(when, visitor({ country: () => 'DE', languages: () => ['de'] }))).toBe(false);
  });

  it('picks the first rule that holds, later ones only when earlier ones do not', () => {
    const rules = [rule({ country: ['AT'] }, 'https://a.example/'), rule({}, 'https://any.example/')];
    expect(pickRule(rules, visitor({ country: () => 'AT' }))).toBe(0);
    expect(pickRule(rules, visitor({ country: () => 'DE' }))).toBe(1);
    expect(pickRule([], visitor())).toBe(-1);
  });
});

describe('ruleKey', () => {
  it('names a picked rule by its index and none as default', () => {
    expect(ruleKey(0)).toBe('0');
    expect(ruleKey(12)).toBe('12');
    expect(ruleKey(-1)).toBe('default');
  });
});

describe('forwardQuery', () => {
  it('keeps the destination’s value of a parameter with a longer name, and adds the rest', () => {
    expect(forwardQuery('https://e.example/p?campaign=spring', 'campaign=autumn&source=mail')).toBe(
      'https://e.example/p?campaign=spring&source=mail',
    );
    expect(forwardQuery('https://e.example/p?ref=one', 'reference=two&re=three')).toBe(
      'https://e.example/p?ref=one&reference=two&re=three',
    );
  });

  it('compares parameter names decoded', () => {
    expect(forwardQuery('https://e.example/?utm%5Fsource=a', 'utm_source=b')).toBe(
      'https://e.example/?utm%5Fsource=a',
    );
    expect(forwardQuery('https://e.example/?my+name=a', 'my%20name=b&x=1')).toBe(
      'https://e.example/?my+name=a&x=1',
    );
  });

  it('starts a query where the destination has none, before its fragment', () => {
    expect(forwardQuery('https://e.example/path#section-2', 'source=mail&lang=de')).toBe(
      'https://e.example/path?source=mail&lang=de#section-2',
    );
  });

  it('adds to a query that ends in ? or & without another separator', () => {
    expect(forwardQuery('https://e.example/p?', 'source=mail')).toBe('https://e.example/p?source=mail');
    expect(forwardQuery('https://e.example/p?a=1&', 'source=mail')).toBe(
      'https://e.example/p?a=1&source=mail',
    );
  });

  it('skips empty pairs of the visitor’s query and keeps the order it was sent in', () => {
    expect(forwardQuery('https://e.example/p?a=1&&b=2', '&&zeta=1&&alpha=2&')).toBe(
      'https://e.example/p?a=1&&b=2&zeta=1&alpha=2',
    );
  });

  it('leaves the destination as it is when every parameter is taken or none is sent', () => {
    const destination = 'https://e.example/p?source=x&lang=en#top';
    expect(forwardQuery(destination, 'lang=de&source=mail')).toBe(destination);
    expect(forwardQuery(destination, '&&')).toBe(destination);
    expect(forwardQuery(destination, '')).toBe(destination);
  });

  it('reads a ? in the fragment as part of the fragment', () => {
    expect(forwardQuery('https://e.example/p#a?b=1', 'b=2')).toBe('https://e.example/p?b=2#a?b=1');
  });
});

describe('routeVisit', () => {
  const link = { url: 'https://default.example/' };
  const rules = [rule({ country: ['AT'] }, 'https://at.example/?lang=de'), rule({ device: ['mobile'] })];

  it("sends a visit of a link without rules to the link's URL, with no rule named", () => {
    expect(routeVisit(link, aRouting({ crawlable: true }), visitor(), 'x=1')).toEqual({
      url: 'https://default.example/',
      rule: null,
      variant: null,
    });
    expect(routeVisit(link, aRouting({ forwardQuery: true }), visitor(), 'x=1')).toEqual({
      url: 'https://default.example/?x=1',
      rule: null,
      variant: null,
    });
  });

  it('sends a visit to the picked rule’s URL and names the rule', () => {
    expect(routeVisit(link, aRouting({ rules }), visitor({ country: () => 'AT' }), 'x=1')).toEqual({
      url: 'https://at.example/?lang=de',
      rule: '0',
      variant: null,
    });
    expect(routeVisit(link, aRouting({ rules }), visitor({ device: () => 'mobile' }), '')).toEqual({
      url: 'https://rule.example/',
      rule: '1',
      variant: null,
    });
  });

  it("sends a visit no rule picks to the link's URL as `default`", () => {
    expect(routeVisit(link, aRouting({ rules }), visitor(), '')).toEqual({
      url: 'https://default.example/',
      rule: 'default',
      variant: null,
    });
  });

  it('forwards the query to whichever destination a rule picks', () => {
    const forwarding = aRouting({ rules, forwardQuery: true });
    expect(routeVisit(link, forwarding, visitor({ country: () => 'AT' }), 'lang=en&ref=ad')).toEqual({
      url: 'https://at.example/?lang=de&ref=ad',
      rule: '0',
      variant: null,
    });
    expect(routeVisit(link, forwarding, visitor(), 'ref=ad')).toEqual({
      url: 'https://default.example/?ref=ad',
      rule: 'default',
      variant: null,
    });
  });
});

describe('acceptedLanguages', () => {
  it('orders by q, keeping the sent order among equals', () => {
    expect(acceptedLanguages('en;q=0.5, fr;q=0.9, de, it;q=0.9')).toEqual(['de', 'fr', 'it', 'en']);
  });

  it('reads q among other parameters, with spaces around them', () => {
    expect(acceptedLanguages('en; level=1 ; q=0.2, de ;q=0.3')).toEqual(['de', 'en']);
    expect(acceptedLanguages('en;quality=0, de;q=0.1')).toEqual(['en', 'de']);
  });

  it('drops entries of q = 0, a wildcard and unreadable tags, and lists each language once', () => {
    expect(acceptedLanguages('de-AT, de-AT;q=0.8, de;q=0.5, *;q=0.9, en;q=0')).toEqual(['de-AT', 'de']);
    expect(acceptedLanguages('x, fr')).toEqual(['fr']);
    expect(acceptedLanguages(', ;q=1, fr')).toEqual(['fr']);
  });

  it('keeps a region, the language lower-case and the region upper-case (decisions §25)', () => {
    const accepted = acceptedLanguages('PT-br, ZH-Hant-TW;q=0.5, es-419;q=0.4, EN;q=0.3');
    expect(accepted).toEqual(['pt-BR', 'zh-TW', 'es-419', 'en']);
  });

  it('is empty for a missing or empty header', () => {
    expect(acceptedLanguages('')).toEqual([]);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});
