import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseInput } from '../src/parse.js';
import type { RedirectRule, RuleInput as RuleInputType } from '../src/links/rules.js';
import {
  MAX_RULES,
  RULE_DEVICES,
  RULE_OSES,
  RuleInput,
  RuleViewSchema,
  RuleWhenInput,
  RulesField,
  checkRules,
  toRuleView,
  utmOf,
} from '../src/links/rules.js';
import { COUNTRY_CODES } from '../src/links/countries.js';
import { MAX_URL_LENGTH } from '../src/urls/validate-url.js';
import type { UrlPolicy } from '../src/urls/validate-url.js';

const policy: UrlPolicy = { shortHosts: ['sho.rt'], blocklist: [], allowPrivateHosts: false };

const whenCode = (when: unknown) => {
  const result = parseInput(RuleWhenInput, when);
  return result.ok ? 'ok' : `${result.error.code} ${result.error.field ?? ''}`;
};
const rulesCode = (rules: unknown) => {
  const result = parseInput(RulesField, rules);
  return result.ok ? 'ok' : `${result.error.code} ${result.error.field ?? ''}`;
};

/** The stored form of one rule given `when`, with a plain URL and no UTM parameters. */
const stored = (when: RuleInputType['when']) => {
  const checked = checkRules([{ when, url: 'https://e.example/' }], policy, {});
  if (!checked.ok) throw new Error(checked.error.code);
  return checked.value[0]?.when;
};

describe('rule input', () => {
  it.each(RULE_DEVICES)('takes the device %s, alone or in a list', (device) => {
    expect(whenCode({ device })).toBe('ok');
    expect(whenCode({ device: [device] })).toBe('ok');
    expect(stored({ device })).toEqual({ device: [device] });
  });

  it.each(RULE_OSES)('takes the operating system %s, alone or in a list', (os) => {
    expect(whenCode({ os })).toBe('ok');
    expect(whenCode({ os: [os] })).toBe('ok');
    expect(stored({ os })).toEqual({ os: [os] });
  });

  it('knows exactly the three device classes and five operating systems of the spec', () => {
    expect([...RULE_DEVICES]).toEqual(['mobile', 'tablet', 'desktop']);
    expect([...RULE_OSES]).toEqual(['ios', 'android', 'windows', 'macos', 'linux']);
    expect(whenCode({ device: 'phone' })).toBe('invalid_request device');
    expect(whenCode({ os: 'other' })).toBe('invalid_request os');
    expect(whenCode({ os: 'iOS' })).toBe('invalid_request os');
  });

  it.each(['AT', 'at', 'De', 'uS'])('takes the country code %s', (country) => {
    expect(whenCode({ country })).toBe('ok');
  });

  it.each(['USA', 'A', '', 'A1', '1A', 'T1', 'XAT', 'ATX', ' AT', 'AT ', 'Ä T', 'A-'])(
    'refuses the country %j',
    (country) => {
      expect(whenCode({ country })).toBe('invalid_request country');
      expect(whenCode({ country: ['DE', country] })).toBe('invalid_request country.1');
    },
  );

  it.each(['de', 'DE', 'pt', 'gsw', 'abcdefgh', 'Zh', 'de-AT', 'pt_BR', 'es-419'])(
    'takes the language %s',
    (language) => {
      expect(whenCode({ language })).toBe('ok');
    },
  );

  it.each(['d', '', 'abcdefghi', 'de-AUT', 'pt_B', 'de-', 'x1', '1de', 'de1', ' de', 'de ', '*'])(
    'refuses the language %j',
    (language) => {
      expect(whenCode({ language })).toBe('invalid_request language');
    },
  );

  it('takes one to fifty values in a list and no empty list', () => {
    // assigned codes only: a rule refuses pairs no visitor comes from (ZZ, AA)
    const countries = [...COUNTRY_CODES].slice(0, 51);
    expect(whenCode({ country: countries.slice(0, 1) })).toBe('ok');
    expect(whenCode({ country: countries.slice(0, 50) })).toBe('ok');
    expect(whenCode({ country: countries })).toBe('invalid_request country');
    expect(whenCode({ country: [] })).toBe('invalid_request country');
    expect(whenCode({ device: [] })).toBe('invalid_request device');
    expect(whenCode({ language: [] })).toBe('invalid_request language');
  });

  it('takes query names of 1 to 100 characters and values of up to 500', () => {
    expect(whenCode({ query: { ref: 'mail' } })).toBe('ok');
    expect(whenCode({ query: { ['n'.repeat(100)]: '' } })).toBe('ok');
    expect(whenCode({ query: { ref: 'v'.repeat(500) } })).toBe('ok');
    expect(whenCode({ query: { '': 'x' } })).toBe('invalid_request query.');
    expect(whenCode({ query: { ['n'.repeat(101)]: 'x' } })).toMatch(/^invalid_request query/);
    expect(whenCode({ query: { ref: 'v'.repeat(501) } })).toBe('invalid_request query.ref');
    expect(whenCode({ query: { ref: 1 } })).toBe('invalid_request query.ref');
  });

  it('takes times with an offset or in UTC, and nothing else', () => {
    expect(whenCode({ after: '2026-01-01T00:00:00Z' })).toBe('ok');
    expect(whenCode({ after: '2026-01-01T02:00:00+02:00', before: '2026-01-02T00:00:00.5Z' })).toBe('ok');
    expect(whenCode({ after: '2026-01-01' })).toBe('invalid_request after');
    expect(whenCode({ before: 'tomorrow' })).toBe('invalid_request before');
    expect(whenCode({ before: 1767225600000 })).toBe('invalid_request before');
  });

  it('refuses a condition it does not know', () => {
    expect(whenCode({ browser: 'firefox' })).toBe('invalid_request browser');
    expect(parseInput(RuleInput, { when: {}, url: 'https://e.example/', weight: 1 }).ok).toBe(false);
  });

  it('needs a URL in every rule', () => {
    expect(parseInput(RuleInput, { when: {}, url: 'https://e.example/' }).ok).toBe(true);
    const empty = parseInput(RuleInput, { when: {}, url: '' });
    expect(empty.ok ? null : empty.error.field).toBe('url');
    const missing = parseInput(RuleInput, { when: {} });
    expect(missing.ok ? null : missing.error.field).toBe('url');
  });

  it('takes at most twenty rules', () => {
    const rule = { when: {}, url: 'https://e.example/' };
    expect(MAX_RULES).toBe(20);
    expect(rulesCode([])).toBe('ok');
    expect(rulesCode(Array.from({ length: 20 }, () => rule))).toBe('ok');
    expect(rulesCode(Array.from({ length: 21 }, () => rule))).toBe('invalid_request ');
  });

  it('documents every condition and names its schemas in the API description', () => {
    for (const [name, field] of Object.entries(RuleWhenInput.shape)) {
      if (name === 'device' || name === 'os') continue; // their values say it all
      expect(field.description, name).toMatch(/\w{4}/);
    }
    expect(RuleWhenInput.description).toMatch(/\w{4}/);
    expect(RuleInput.shape.url.description).toMatch(/\w{4}/);
    expect(RulesField.description).toMatch(/\w{4}/);
    expect(z.globalRegistry.get(RuleInput)?.id).toBe('RedirectRuleInput');
    expect(z.globalRegistry.get(RuleViewSchema)?.id).toBe('RedirectRule');
    expect(z.globalRegistry.get(RuleInput.shape.url)?.maxLength).toBe(MAX_URL_LENGTH);
  });
});

describe('stored rule conditions', () => {
  it('stores no condition that was not given', () => {
    expect(stored({ os: 'ios' })).toEqual({ os: ['ios'] });
  });

  it('refuses a rule without a condition, naming it: it would match everyone (issue 52)', () => {
    for (const when of [{}, { query: {} }]) {
      const result = checkRules(
        [
          { when: { os: 'ios' }, url: 'https://a.example/' },
          { when, url: 'https://b.example/' },
        ],
        policy,
        {},
      );
      expect(result.ok ? null : [result.error.code, result.error.field, result.error.message]).toEqual([
        'invalid_request',
        'rules.1.when',
        'Rule 2 has no condition: it would match everyone and hide the rules after it.',
      ]);
    }
  });

  it('stores each list once per value, in the order given', () => {
    expect(stored({ device: ['tablet', 'mobile', 'tablet'], os: ['linux', 'linux', 'ios'] })).toEqual({
      device: ['tablet', 'mobile'],
      os: ['linux', 'ios'],
    });
  });

  it('stores a language with its region as `en-US`, and refuses a region that is not one', () => {
    expect(stored({ language: ['EN-us', 'pt_br', 'es-419', 'de'] })).toEqual({
      language: ['en-US', 'pt-BR', 'es-419', 'de'],
    });
    expect(whenCode({ language: 'en-USA' })).toBe('invalid_request language');
  });

  it('stores countries upper-case and languages lower-case, single values as lists', () => {
    expect(stored({ country: ['at', 'De'], language: 'PT' })).toEqual({
      country: ['AT', 'DE'],
      language: ['pt'],
    });
    expect(stored({ country: 'ch', language: ['De', 'fr'] })).toEqual({
      country: ['CH'],
      language: ['de', 'fr'],
    });
  });

  it('stores the query as given and times as epoch milliseconds, offsets applied', () => {
    expect(
      stored({
        query: { ref: 'mail', 'utm source': '' },
        after: '2026-01-01T02:00:00+02:00',
        before: '2026-01-02T00:00:00.250Z',
      }),
    ).toEqual({
      query: { ref: 'mail', 'utm source': '' },
      after: Date.UTC(2026, 0, 1),
      before: Date.UTC(2026, 0, 2, 0, 0, 0, 250),
    });
  });

  it('keeps its own copy of the query object', () => {
    const query = { ref: 'mail' };
    const when = stored({ query });
    query.ref = 'changed';
    expect(when?.query).toEqual({ ref: 'mail' });
  });
});

describe('checkRules', () => {
  const rule = (url: string, when: RuleInputType['when'] = { device: 'mobile' }) => ({ when, url });

  it('names the rule at fault by its index', () => {
    const result = checkRules(
      [rule('https://a.example/'), rule('https://b.example/'), rule('ftp://c.example/')],
      policy,
      {},
    );
    expect(result.ok ? null : [result.error.code, result.error.field]).toEqual([
      'unsupported_scheme',
      'rules.2.url',
    ]);
  });

  it('stores every rule, in order, with its URL normalised', () => {
    const result = checkRules(
      [rule('A.example/x', { os: 'ios' }), rule('HTTP://B.EXAMPLE', { device: 'tablet' })],
      policy,
      {},
    );
    expect(result).toEqual({
      ok: true,
      value: [
        { when: { os: ['ios'] }, url: 'https://a.example/x' },
        { when: { device: ['tablet'] }, url: 'http://b.example/' },
      ],
    });
  });

  it('leaves a rule URL as normalised when the link has no UTM parameters', () => {
    const result = checkRules([rule('https://e.example/?b=1&a=%7e')], policy, {});
    expect(result.ok && result.value[0]?.url).toBe('https://e.example/?b=1&a=%7e');
  });

  it("merges the link's UTM parameters into every rule URL", () => {
    const result = checkRules(
      [rule('https://e.example/?utm_source=old&x=1'), rule('https://f.example/#top')],
      policy,
      { utm_source: 'news', utm_medium: 'mail' },
    );
    expect(result.ok && result.value.map((r) => r.url)).toEqual([
      'https://e.example/?utm_source=news&x=1&utm_medium=mail',
      'https://f.example/?utm_source=news&utm_medium=mail#top',
    ]);
  });

  it('refuses a rule URL that grows over 4,096 characters once UTM is merged, and takes one of exactly 4,096', () => {
    const utm = { utm_source: 'newsletter' }; // adds `?utm_source=newsletter`: 22 characters
    const prefix = 'https://e.example/';
    const fits = prefix + 'a'.repeat(MAX_URL_LENGTH - prefix.length - 22);
    const ok = checkRules([rule(fits)], policy, utm);
    expect(ok.ok && ok.value[0]?.url.length).toBe(MAX_URL_LENGTH);

    const result = checkRules([rule('https://e.example/'), rule(`${fits}a`)], policy, utm);
    expect(result.ok ? null : [result.error.code, result.error.field]).toEqual([
      'invalid_url',
      'rules.1.url',
    ]);
    // the same URL without UTM parameters fits
    expect(checkRules([rule(`${fits}a`)], policy, {}).ok).toBe(true);
  });
});

describe('utmOf', () => {
  it('reads the UTM parameters a stored destination carries, and no others', () => {
    expect(
      utmOf(
        'https://e.example/?utm_source=news&utm_medium=mail&utm_campaign=spring&utm_term=t&utm_content=c&x=1',
      ),
    ).toEqual({
      utm_source: 'news',
      utm_medium: 'mail',
      utm_campaign: 'spring',
      utm_term: 't',
      utm_content: 'c',
    });
    expect(utmOf('https://e.example/?utm_source=a%20b')).toEqual({ utm_source: 'a b' });
  });

  it('skips a UTM parameter that is empty', () => {
    expect(utmOf('https://e.example/?utm_source=&utm_medium=mail')).toEqual({ utm_medium: 'mail' });
    expect(utmOf('https://e.example/')).toEqual({});
  });
});

describe('toRuleView', () => {
  it('shows lists as stored and times as ISO instants', () => {
    const rule: RedirectRule = {
      when: {
        country: ['AT'],
        query: { ref: 'x' },
        after: Date.UTC(2026, 0, 1),
        before: Date.UTC(2026, 0, 2),
      },
      url: 'https://e.example/',
    };
    const view = toRuleView(rule);
    expect(view).toEqual({
      when: {
        country: ['AT'],
        query: { ref: 'x' },
        after: '2026-01-01T00:00:00.000Z',
        before: '2026-01-02T00:00:00.000Z',
      },
      url: 'https://e.example/',
    });
    expect(RuleViewSchema.safeParse(view).success).toBe(true);
  });

  it('shows no time that was not set', () => {
    const view = toRuleView({ when: { device: ['mobile'] }, url: 'https://e.example/' });
    expect(view).toEqual({ when: { device: ['mobile'] }, url: 'https://e.example/' });
    expect(Object.keys(view.when)).toEqual(['device']);
    expect(toRuleView({ when: { after: 0 }, url: 'https://e.example/' }).when).toEqual({
      after: '1970-01-01T00:00:00.000Z',
    });
  });

  it('describes the view a client reads: lists, ISO times and an absolute URL', () => {
    const parse = (view: unknown) => RuleViewSchema.safeParse(view).success;
    expect(
      parse({ when: { device: ['mobile'], os: ['ios'], language: ['de'] }, url: 'https://e.example/' }),
    ).toBe(true);
    expect(parse({ when: { device: 'mobile' }, url: 'https://e.example/' })).toBe(false);
    expect(parse({ when: { os: ['beos'] }, url: 'https://e.example/' })).toBe(false);
    expect(parse({ when: { after: '2026-01-01' }, url: 'https://e.example/' })).toBe(false);
    expect(parse({ when: { before: 'soon' }, url: 'https://e.example/' })).toBe(false);
    expect(parse({ when: { country: 'AT' }, url: 'https://e.example/' })).toBe(false);
    expect(parse({ when: { language: 'de' }, url: 'https://e.example/' })).toBe(false);
    expect(parse({ when: { query: { a: 1 } }, url: 'https://e.example/' })).toBe(false);
    expect(parse({ when: {}, url: 'not a url' })).toBe(false);
  });
});
