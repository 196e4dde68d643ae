import type { KeyCount, Language } from '@shortener/core';
import { regionNamer } from '@shortener/core';
import { chartTable } from './chart-table.js';
import type { SafeHtml } from './layout.js';
import { html } from './layout.js';
import { statsWordsOf } from './stats-words.js';

const REGIONAL_A = 0x1f1e6;
/** What stands for a flag beside `unknown` and `other`. */
const GLOBE = '\u{1f310}';

/** The flag of an ISO 3166 code as regional-indicator letters (an emoji where fonts have it), else ''. */
export function flagOf(code: string): string {
  if (!/^[A-Z]{2}$/.test(code)) return '';
  return String.fromCodePoint(...[...code].map((c) => REGIONAL_A + c.charCodeAt(0) - 65));
}

/** A country's name in `language` from its ISO code; `unknown` and `other` in words; else the key. */
export function countryNamer(language: Language): (code: string) => string {
  const region = regionNamer(language);
  const words = statsWordsOf(language);
  return (code) => {
    if (code === 'unknown') return words.unknownCountry;
    if (code === 'other') return words.otherCountries;
    return /^[A-Z]{2}$/.test(code) ? region(code) : code;
  };
}

/** What the countries view says: its heading and its empty state. */
export interface CountryChartText {
  readonly title: string;
  readonly empty: string;
  /** The clicks column's header. */
  readonly clicks: string;
}

/**
 * The countries of a window as a view to look at (issue 26): a ranked list, each row a flag, the
 * country's name in the page's language, a bar as long as its share of the busiest country, and its
 * clicks and share; inline SVG bars (no script, no inline style under the CSP). Under it every country
 * as a table, for screen readers and copying. `limit` rows are drawn; the table has them all.
 */
export function countryChart(
  language: Language,
  text: CountryChartText,
  rows: readonly KeyCount[],
  limit = 10,
): SafeHtml {
  const words = statsWordsOf(language);
  const name = countryNamer(language);
  const total = rows.reduce((sum, r) => sum + r.count, 0);
  if (total === 0) {
    return html`<div class="countries">
      <h3 id="countries-title">${text.title}</h3>
      <p class="muted">${text.empty}</p>
    </div>`;
  }
  const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 });
  const number = new Intl.NumberFormat(language);
  const busiest = Math.max(...rows.map((r) => r.count));
  const share = (count: number) => percent.format(count / total);
  const bar = (count: number) => Math.max(1, Math.round((count / busiest) * 1000) / 10);
  const drawn = rows.slice(0, limit).map(
    (r) =>
      html`<li>
        <span class="flag" aria-hidden="true">${flagOf(r.key) || GLOBE}</span>
        <span class="country-name">${name(r.key)}</span>
        <svg class="country-bar" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
          <rect class="share" x="0" y="0" width="${bar(r.count)}" height="10" />
        </svg>
        <span class="count">${number.format(r.count)} · ${share(r.count)}</span>
      </li>`,
  );
  return html`<div class="countries">
    <h3 id="countries-title">${text.title}</h3>
    <ol class="country-bars" aria-labelledby="countries-title">
      ${drawn}
    </ol>
    ${chartTable(
      words.countriesTable,
      [words.countryHeader, text.clicks, words.shareHeader],
      rows.map((r) => [name(r.key), number.format(r.count), share(r.count)]),
    )}
  </div>`;
}
