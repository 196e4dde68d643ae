import type { KeyCount, Language, LinkView, StatsView } from '@shortener/core';
import { countText } from '@shortener/core';
import { chartTable } from './chart-table.js';
import { countryChart } from './country-chart.js';
import type { SafeHtml } from './layout.js';
import { destinationsList } from './preview-destinations.js';
import { cardViewOf, socialCard } from './social-card.js';
import { html, renderPage } from './layout.js';
import type { PageText } from './text.js';
import { keyWord } from './stats-words.js';
import { fill, textOf } from './text.js';
import { linkPageTextOf } from './account/link-page-text.js';

/** What the preview shows: the link (its `url` only when it may be shown) and its stats when public. */
export interface PreviewView {
  readonly language: Language;
  readonly link: LinkView;
  readonly stats: StatsView | null;
  /** Got without `tz`: the page's script asks again in the browser's zone. */
  readonly zoneReload?: boolean;
}

/** The `/{slug}+` page: where a link leads, without following it. */
export function previewPage({ language, link, stats, zoneReload = false }: PreviewView): string {
  const t = textOf(language);
  const date = (iso: string) =>
    html`<time datetime="${iso}"
      >${new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))}
      UTC</time
    >`;
  const row = (label: string, value: SafeHtml | string) =>
    html`<div>
      <dt>${label}</dt>
      <dd>${value}</dd>
    </div>`;
  return renderPage({
    language,
    title: t.previewTitle,
    noindex: true,
    scripts: ['zone.js'],
    main: html`<section class="card preview" aria-labelledby="preview-title">
        <h1 id="preview-title">${link.title ?? t.previewTitle}</h1>
        <p class="short-url">${link.short_url}</p>
        <dl class="facts">
          ${row(t.destination, destination(t, link, language))} ${row(t.domain, link.domain)}
          ${row(t.created, date(link.created_at))}
          ${row(t.status, html`<span class="status status-${link.status}">${t[link.status]}</span>`)}
          ${link.expires_at ? row(t.expires, date(link.expires_at)) : ''}
          ${link.max_clicks === null ? '' : row(t.clickLimit, String(link.max_clicks))}
          ${stats ? row(t.clicks, String(link.clicks)) : ''}
        </dl>
        ${link.status === 'active' ? html`<p><a class="button primary" href="${link.short_url}" rel="nofollow">${t.continue}</a></p>` : ''}
        ${link.preview === null ? '' : socialCard(language, cardViewOf(link), 'social-card')}
      </section>
      ${stats ? statsSection(t, language, stats, zoneReload) : html`<section class="card"><p>${t.statsPrivate}</p></section>`}`,
  });
}

function destination(t: PageText, link: LinkView, language: Language): SafeHtml | string {
  if (link.has_password) return t.destinationHidden;
  if (link.status === 'disabled') return t.destinationDisabled;
  if (link.rules.length > 0 || link.split !== null) return destinationsList(language, link);
  return html`<span class="destination">${link.url}</span>`;
}

function statsSection(t: PageText, language: Language, stats: StatsView, zoneReload: boolean): SafeHtml {
  const countries = { title: t.countries, empty: t.noClicks, clicks: t.clicks };
  return html`<section class="card" aria-labelledby="chart-title">
    <h2 id="chart-title">${t.chartTitle}</h2>
    <p class="hint" id="stats-zone" ${zoneReload ? html`data-reload="yes"` : ''}>
      ${fill(linkPageTextOf(language).daysIn, { tz: stats.tz })}
    </p>
    ${dayChart(t, language, stats.by_day)} ${countryChart(language, countries, stats.countries)}
    <div class="tops">${topList(t.referrers, stats.referrers, keyWord(language), t.noClicks)}</div>
  </section>`;
}

/**
 * The top `limit` keys of a dimension with their counts, as a list under a heading: ranked (`ol`), or
 * not (`ordered` false) where the keys carry numbers of their own (the rules').
 */
export function topList(
  title: string,
  rows: readonly KeyCount[],
  name: (key: string) => string,
  empty: string,
  limit = 5,
  ordered = true,
): SafeHtml {
  const shown = rows.slice(0, limit);
  const items = shown.map(
    (r) => html`<li><span>${name(r.key)}</span> <span class="count">${r.count}</span></li>`,
  );
  return html`<div class="top">
    <h3>${title}</h3>
    ${
      shown.length === 0
        ? html`<p class="muted">${empty}</p>`
        : ordered
          ? html`<ol>
              ${items}
            </ol>`
          : html`<ul class="numbered">
              ${items}
            </ul>`
    }
  </div>`;
}

const WIDTH = 600;
const HEIGHT = 190;
/** Room under the plot for the first and last day, at the phone's larger labels (app.css). */
const AXIS = 30;
/** Room left of the plot for the scale's numbers (four digits at the phone's labels). */
const GUTTER = 64;

/** The scale of a chart: 0, the middle (when whole) and the top, the top at least the busiest day. */
function scaleOf(max: number): number[] {
  const top = max <= 4 ? Math.max(1, max) : Math.ceil(max / 2) * 2;
  return top % 2 === 0 ? [0, top / 2, top] : [0, top];
}

/**
 * Clicks per day as bars in inline SVG, readable without script: a scale with gridlines, each bar
 * titled with its day and count, the first and last day under it; a table of the days with clicks
 * for screen readers and copying; "No visits yet" instead of an empty box (issue 26). `summaryOf`
 * words the total and the busiest day (default: the preview's "last 30 days").
 */
export function dayChart(
  t: PageText,
  language: Language,
  days: readonly KeyCount[],
  summaryOf: (count: string, max: number) => string = (count, max) => fill(t.chartSummary, { count, max }),
): SafeHtml {
  const busiest = Math.max(0, ...days.map((d) => d.count));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const summary = summaryOf(countText(language, total, ...t.click), busiest);
  if (total === 0) {
    return html`<p class="chart-empty muted">${t.noVisitsYet}</p>
      <p class="chart-summary">${summary}</p>`;
  }
  const scale = scaleOf(busiest);
  const top = scale.at(-1) ?? 1;
  const plot = HEIGHT - AXIS;
  const y = (count: number) => Math.round((plot - (count / top) * (plot - 14)) * 100) / 100;
  const step = (WIDTH - GUTTER) / Math.max(1, days.length);
  const bars = days.map((d, i) => {
    const x = Math.round((GUTTER + i * step + 1) * 100) / 100;
    const w = Math.max(1, Math.round((step - 2) * 100) / 100);
    const [top, h] = [y(d.count), Math.round((plot - y(d.count)) * 100) / 100];
    return html`<rect class="bar" x="${x}" y="${top}" width="${w}" height="${h}"
      ><title>${d.key}: ${d.count}</title></rect
    >`;
  });
  const grid = scale.map(
    (value) =>
      html`<line
          class="${value === 0 ? 'axis' : 'grid'}"
          x1="${GUTTER}"
          y1="${y(value)}"
          x2="${WIDTH}"
          y2="${y(value)}"
        />
        <text class="label" x="${GUTTER - 6}" y="${y(value) + 7}" text-anchor="end">${value}</text>`,
  );
  const busy = days.filter((d) => d.count > 0);
  return html`<svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-labelledby="chart-desc">
      <desc id="chart-desc">${summary}</desc>
      ${grid} ${bars}
      <text class="label" x="${GUTTER}" y="${HEIGHT - 2}">${days[0]?.key ?? ''}</text>
      <text class="label" x="${WIDTH}" y="${HEIGHT - 2}" text-anchor="end">${days.at(-1)?.key ?? ''}</text>
    </svg>
    <p class="chart-summary">${summary}</p>
    ${chartTable(
      t.chartTable,
      [t.dayHeader, t.clicks],
      busy.map((d) => [d.key, String(d.count)]),
    )}`;
}
