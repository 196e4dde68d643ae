import { statsCsvFileName } from '@shortener/core';
import type { Language, StatsAcrossView, TagCount } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { html } from '../layout.js';
import { dayChart, topList } from '../preview-page.js';
import { byLanguage, fill, textOf } from '../text.js';
import type { TextsLike } from '../text.js';
import { linkPageTextOf } from './link-page-text.js';
import { rangePicker } from './link-stats.js';

const EN = {
  overview: 'Your clicks, last {days} days',
  rangeOverview: 'Your clicks, {from} to {to}',
  tagRangeOverview: 'Clicks of #{tag}, {from} to {to}',
  tagOverview: 'Clicks of #{tag}, last {days} days',
  topLinks: 'Top links',
  topTags: 'Top tags',
  zone: 'Days in {tz}.',
  downloadCsv: 'Download CSV',
};
type OverviewText = TextsLike<typeof EN>;

const textOfOverview = byLanguage<OverviewText>({
  en: EN,
  de: {
    overview: 'Ihre Klicks, letzte {days} Tage',
    rangeOverview: 'Ihre Klicks, {from} bis {to}',
    tagRangeOverview: 'Klicks von #{tag}, {from} bis {to}',
    tagOverview: 'Klicks von #{tag}, letzte {days} Tage',
    topLinks: 'Meistbesuchte Links',
    topTags: 'Häufigste Tags',
    zone: 'Tage in {tz}.',
    downloadCsv: 'CSV herunterladen',
  },
  fr: {
    overview: 'Vos clics, {days} derniers jours',
    rangeOverview: 'Vos clics, du {from} au {to}',
    tagRangeOverview: 'Clics de #{tag}, du {from} au {to}',
    tagOverview: 'Clics de #{tag}, {days} derniers jours',
    topLinks: 'Liens les plus visités',
    topTags: 'Étiquettes principales',
    zone: 'Jours en {tz}.',
    downloadCsv: 'Télécharger le CSV',
  },
  es: {
    overview: 'Sus clics, últimos {days} días',
    rangeOverview: 'Sus clics, del {from} al {to}',
    tagRangeOverview: 'Clics de #{tag}, del {from} al {to}',
    tagOverview: 'Clics de #{tag}, últimos {days} días',
    topLinks: 'Enlaces más visitados',
    topTags: 'Etiquetas principales',
    zone: 'Días en {tz}.',
    downloadCsv: 'Descargar CSV',
  },
});

/**
 * The statistics over the account's links (decisions §18) at the top of `/account`, or over one tag's
 * links when the list is filtered by it (the tag's view, reached from its chips): clicks by day in the
 * browser's zone, the top links, and (for the whole account) the top tags by clicks.
 */
export function overviewSection(
  language: Language,
  overview: {
    readonly stats: StatsAcrossView;
    readonly tags: readonly TagCount[];
    readonly ranged: boolean;
    readonly rangeError?: string;
  },
  tag: string,
): SafeHtml {
  const { stats, tags, ranged } = overview;
  const t = textOfOverview(language);
  const pt = textOf(language);
  const lt = linkPageTextOf(language);
  const words = { tag, days: stats.days, from: stats.from, to: stats.to };
  const title = ranged
    ? fill(tag === '' ? t.rangeOverview : t.tagRangeOverview, words)
    : fill(tag === '' ? t.overview : t.tagOverview, words);
  const summary = (count: string, max: number) => fill(lt.chartSummary, { count, days: stats.days, max });
  const links = stats.links.map((link) => ({ key: link.short_url, count: link.clicks }));
  const topTags = [...tags].sort((a, b) => b.clicks - a.clicks || (a.name < b.name ? -1 : 1)).slice(0, 5);
  const path = tag === '' ? 'stats' : `tags/${encodeURIComponent(tag)}/stats`;
  const csv = `/api/v1/${path}?format=csv&from=${stats.from}&to=${stats.to}&tz=${stats.tz}`;
  const file = statsCsvFileName(tag === '' ? 'stats' : `stats-${tag}`, stats);
  const picker = rangePicker(
    { ...lt, action: '/account', ranged, stats, ...(tag === '' ? {} : { keep: { tag } }) },
    null,
  );
  return html`<section class="card" aria-labelledby="overview-title" id="overview">
    <h2 id="overview-title">${title}</h2>
    ${
      overview.rangeError === undefined
        ? ''
        : html`<p class="error" role="alert">${fill(lt.rangeError, { message: overview.rangeError })}</p>`
    }
    ${picker}
    <p class="hint" id="stats-zone" data-reload="yes">${fill(t.zone, { tz: stats.tz })}</p>
    <dl class="totals">
      <div>
        <dt>${pt.clicks}</dt>
        <dd class="total">${stats.total}</dd>
      </div>
      ${
        stats.imported === 0
          ? ''
          : html`<div>
              <dt>${lt.importedLabel}</dt>
              <dd class="total">${stats.imported}</dd>
            </div>`
      }
    </dl>
    ${stats.imported === 0 ? '' : html`<p class="hint">${lt.importedHint}</p>`}
    ${dayChart(pt, language, stats.by_day, summary)}
    <div class="tops">
      ${topList(t.topLinks, links, (key) => key, pt.noClicks, 5)}
      ${
        tag === ''
          ? topList(
              t.topTags,
              topTags.map((c) => ({ key: `#${c.name}`, count: c.clicks })),
              (key) => key,
              pt.noClicks,
              5,
            )
          : ''
      }
    </div>
    <p><a class="button" id="overview-csv" href="${csv}" download="${file}">${t.downloadCsv}</a></p>
  </section>`;
}
