import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, RuleWhenInput, isCountryCode, parseInput } from '../src/index.js';

describe('country conditions of a rule', () => {
  it('take every assigned ISO 3166-1 alpha-2 code in any case, and XK', () => {
    expect(COUNTRY_CODES.size).toBe(250);
    for (const code of ['AT', 'at', 'Us', 'GB', 'XK', 'SS', 'BQ', 'CW', 'SX', 'AX'])
      expect([code, isCountryCode(code)]).toStrictEqual([code, true]);
    expect(parseInput(RuleWhenInput, { country: ['at', 'DE'] }).ok).toBe(true);
  });

  it('refuse unassigned, user-assigned and reserved pairs, which no visitor can come from', () => {
    for (const code of ['ZZ', 'AA', 'QM', 'XA', 'XX', 'EU', 'UK', 'T1', 'A1', 'O1', 'YU', 'CS', 'AN'])
      expect([code, isCountryCode(code)]).toStrictEqual([code, false]);
    const refused = parseInput(RuleWhenInput, { country: ['AT', 'ZZ'] });
    expect(refused.ok ? null : [refused.error.code, refused.error.field]).toStrictEqual([
      'invalid_request',
      'country.1',
    ]);
    expect(parseInput(RuleWhenInput, { country: 'USA' }).ok).toBe(false);
  });

  it('have a name in every language the pages speak, so a picker can list them', () => {
    for (const language of ['en', 'de', 'fr', 'es']) {
      const names = new Intl.DisplayNames(language, { type: 'region' });
      const unnamed = [...COUNTRY_CODES].filter((code) => names.of(code) === code);
      expect([language, unnamed]).toStrictEqual([language, []]);
    }
  });
});
