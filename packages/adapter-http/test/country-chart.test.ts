import { describe, expect, it } from 'vitest';
import { countryChart, countryNamer, flagOf } from '../src/pages/country-chart.js';
import { keyWord } from '../src/pages/stats-words.js';

const TEXT = { title: 'Top countries', empty: 'No clicks yet.', clicks: 'Clicks' };

describe('the countries view (issue 26)', () => {
  it('makes a flag of an ISO code from regional indicators, and none of anything else', () => {
    expect(flagOf('DE')).toBe('\u{1f1e9}\u{1f1ea}');
    expect(flagOf('US')).toBe('\u{1f1fa}\u{1f1f8}');
    for (const key of ['unknown', 'other', 'de', 'DEU', '']) expect(flagOf(key)).toBe('');
  });

  it('names countries in the page’s language, and unknown and other in words', () => {
    expect(['en', 'de', 'fr', 'es'].map((l) => countryNamer(l as 'en')('DE'))).toEqual([
      'Germany',
      'Deutschland',
      'Allemagne',
      'Alemania',
    ]);
    expect(countryNamer('de')('unknown')).toBe('Unbekanntes Land');
    expect(countryNamer('fr')('other')).toBe('Autres pays');
  });

  it('ranks the countries as bars scaled to the busiest, with clicks, shares and a table of all', () => {
    const rows = [
      { key: 'DE', count: 6 },
      { key: 'FR', count: 3 },
      { key: 'unknown', count: 1 },
    ];
    const chart = countryChart('en', TEXT, rows, 2).value;
    expect([...chart.matchAll(/<rect class="share"[^>]*width="([\d.]+)"/g)].map((m) => m[1])).toEqual([
      '100',
      '50',
    ]);
    expect(chart).toMatch(/Germany<\/span>[\s\S]*6 · 60%/);
    // the table has every country, the drawing the first `limit`
    expect(chart.match(/<th scope="row">/g)).toHaveLength(3);
    expect(chart).toContain('<th scope="row">Unknown country</th>');
    expect(countryChart('en', TEXT, []).value).toContain('No clicks yet.');
  });

  it('translates device classes, other, unknown and direct, and leaves browser names alone', () => {
    const de = keyWord('de');
    expect(['desktop', 'mobile', 'tablet', 'other', 'direct', 'Firefox'].map(de)).toEqual([
      'Computer',
      'Handy',
      'Tablet',
      'Andere',
      'Direkt (ohne Referrer)',
      'Firefox',
    ]);
    expect(keyWord('es')('mobile')).toBe('Móvil');
  });
});
