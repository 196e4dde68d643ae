import { describe, expect, it } from 'vitest';
import { ruleKeyLabeller, ruleSummary, shortDestination } from '../src/links/rule-summary.js';

// A rule in a person's words (issues 42, 52): the link page's rows, the `rule` statistics, the preview
// page, the CLI and MCP all say it with these.

const IOS_IN_AUSTRIA = {
  when: { os: ['ios' as const], country: ['AT'] },
  url: 'https://apps.apple.com/app/id1',
};
const GERMAN = { when: { language: ['de'] }, url: 'https://example.de/' };

describe('rule summaries', () => {
  it('says a rule in one line, devices and OSes first, then where, in the page’s language', () => {
    expect(ruleSummary('en', IOS_IN_AUSTRIA)).toBe('iOS in Austria → apps.apple.com/app/id1');
    expect(ruleSummary('de', IOS_IN_AUSTRIA)).toBe('iOS in Österreich → apps.apple.com/app/id1');
    expect(ruleSummary('en', GERMAN)).toBe('Reading German → example.de');
    expect(ruleSummary('fr', GERMAN)).toBe('Langue : allemand → example.de');
    const every = {
      when: {
        device: ['mobile' as const, 'tablet' as const],
        query: { ref: 'mail' },
        after: '2026-12-01T10:00:00.000Z',
        before: '2026-12-24T00:00:00.000Z',
      },
      url: 'https://example.com/x?y=1',
    };
    expect(ruleSummary('en', every)).toBe(
      'Phone or Tablet, with ref=mail, from 2026-12-01 10:00 UTC, until 2026-12-24 00:00 UTC → example.com/x?y=1',
    );
    expect(ruleSummary('es', { when: {}, url: 'https://example.es' })).toBe(
      'Todos los visitantes → example.es',
    );
  });

  it('shortens a destination to its host and path, eliding the middle of a long path (issue 52)', () => {
    expect(shortDestination('https://apps.apple.com/')).toBe('apps.apple.com');
    expect(shortDestination('https://example.com/de/pricing')).toBe('example.com/de/pricing');
    expect(shortDestination('https://apps.apple.com/?a=1')).toBe('apps.apple.com/?a=1');
    expect(shortDestination('http://example.com:8080/a')).toBe('example.com:8080/a');
    const long = 'https://example.com/docs/guides/getting-started/installation/on-linux/install';
    expect(shortDestination(long)).toBe('example.com/docs/…/install');
    const oneLong = `https://example.com/${'a'.repeat(30)}-${'b'.repeat(30)}`;
    const short = shortDestination(oneLong);
    expect(short.length).toBeLessThanOrEqual(48);
    expect(short).toMatch(/^example\.com\/a+…b+$/);
    // a very long host still shows some of the path
    const host = `${'h'.repeat(60)}.example`;
    expect(shortDestination(`https://${host}/pricing/plans/enterprise`)).toBe(`${host}/pricin…terprise`);
    expect(shortDestination('not a url')).toBe('not a url');
  });

  it('labels the rule statistics by number and words, as the preview numbers the rules', () => {
    const label = ruleKeyLabeller('en', { rules: [IOS_IN_AUSTRIA, GERMAN], url: 'https://example.com/' });
    expect(label('0')).toBe('1. iOS in Austria → apps.apple.com/app/id1');
    expect(label('1')).toBe('2. Reading German → example.de');
    expect(label('default')).toBe('Otherwise → example.com');
    expect(label('7')).toBe('8.'); // a rule since removed
    expect(ruleKeyLabeller('de', null)('default')).toBe('Sonst');
  });
});
