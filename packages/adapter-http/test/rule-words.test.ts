import { describe, expect, it } from 'vitest';
import { ruleKeyLabeller, ruleSummary, shortDestination } from '../src/pages/rule-words.js';

// A rule in a person's words (issue 42): the link page's collapsed rows and the `rule` statistics.

const IOS_IN_AUSTRIA = {
  when: { os: ['ios' as const], country: ['AT'] },
  url: 'https://apps.apple.com/app/id1',
};
const GERMAN = { when: { language: ['de'] }, url: 'https://example.de/' };

describe('rule words', () => {
  it('says a rule in one line, devices and OSes first, then where, in the page’s language', () => {
    expect(ruleSummary('en', IOS_IN_AUSTRIA)).toBe('iOS in Austria → apps.apple.com/…');
    expect(ruleSummary('de', IOS_IN_AUSTRIA)).toBe('iOS in Österreich → apps.apple.com/…');
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
      'Phone or Tablet, with ref=mail, from 2026-12-01 10:00 UTC, until 2026-12-24 00:00 UTC → example.com/…',
    );
    expect(ruleSummary('es', { when: {}, url: 'https://example.es' })).toBe(
      'Todos los visitantes → example.es',
    );
  });

  it('shortens a destination to its host, with /… when it has more', () => {
    expect(shortDestination('https://apps.apple.com/')).toBe('apps.apple.com');
    expect(shortDestination('https://apps.apple.com/?a=1')).toBe('apps.apple.com/…');
    expect(shortDestination('not a url')).toBe('not a url');
  });

  it('labels the rule statistics by number and words, as the preview numbers the rules', () => {
    const label = ruleKeyLabeller('en', { rules: [IOS_IN_AUSTRIA, GERMAN], url: 'https://example.com/' });
    expect(label('0')).toBe('1. iOS in Austria → apps.apple.com/…');
    expect(label('1')).toBe('2. Reading German → example.de');
    expect(label('default')).toBe('Otherwise → example.com');
    expect(label('7')).toBe('8.'); // a rule since removed
    expect(ruleKeyLabeller('de', null)('default')).toBe('Sonst');
  });
});
