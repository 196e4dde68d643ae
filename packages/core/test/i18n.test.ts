import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../src/errors.js';
import { LANGUAGES, errorMessage, pickLanguage } from '../src/i18n.js';

describe('language choice', () => {
  it.each([
    [undefined, undefined, 'en'],
    ['de', 'fr', 'de'],
    ['DE-at', undefined, 'de'],
    ['xx', 'es', 'es'],
    [undefined, 'fr-CH, fr;q=0.9, en;q=0.8', 'fr'],
    [undefined, 'en;q=0.5, de;q=0.9', 'de'],
    [undefined, 'it, es;q=0.3', 'es'],
    [undefined, 'de;q=0, fr;q=0.1', 'fr'],
    [undefined, 'ja', 'en'],
    [undefined, 'garbage;;q=zz', 'en'],
  ])('lang=%s and Accept-Language=%s give %s', (lang, accept, expected) => {
    expect(pickLanguage(lang, accept)).toBe(expected);
  });
});

describe('error messages', () => {
  it('exist for every code in every language and differ from English outside English', () => {
    for (const code of ERROR_CODES) {
      for (const language of LANGUAGES) expect(errorMessage(code, language)).toMatch(/\S/);
      expect(errorMessage(code, 'de')).not.toBe(errorMessage(code, 'en'));
    }
  });
});
