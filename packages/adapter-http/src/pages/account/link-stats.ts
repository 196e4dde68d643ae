import type { Language, LinkView, StatsView } from '@shortener/core';
import { MAX_RULES } from '@shortener/core';
import { countryChart } from '../country-chart.js';
import type { SafeHtml } from '../layout.js';
import { html } from '../layout.js';
import { dayChart, topList } from '../preview-page.js';
import { keyWord } from '../stats-words.js';
import { fill, textOf } from '../text.js';
import type { LinkPageView } from './link-page.js';
import type { LinkPageText } from './link-page-text.js';
import { ruleStatsTitle } from './link-organise.js';
import { ruleKeyLabeller } from '../rule-words.js';
import { linkPageTextOf } from './link-page-text.js';

/** The statistics windows the page offers, in days (decisions §10). */
export const STATS_WINDOWS = [7, 30, 90, 365] as const;

/** The edit token as a hidden field of a form (the token never travels in a URL). */
export const hiddenToken = (token: string | null) =>
  token === null ? '' : html`<input type="hidden" name="edit_token" value="${token}" />`;

/**
 * The statistics of a window: totals, clicks by day, and the top keys of each dimension; the rules
 * labelled by what they say when the link is at hand (`1. iOS → apps.apple.com/…`), else numbered.
 */
export function statsBlock(language: Language, stats: StatsView, link: LinkView | null = null): SafeHtml {
  const t = linkPageTextOf(language);
  const pt = textOf(language);
  const word = keyWord(language);
  const countries = { title: pt.countries, empty: pt.noClicks, clicks: pt.clicks };
  const summary = (count: string, max: number) => fill(t.chartSummary, { count, days: stats.days, max });
  const total = (label: string, value: number) =>
    html`<div>
      <dt>${label}</dt>
      <dd class="total">${value}</dd>
    </div>`;
  return html`<dl class="totals">
      ${total(pt.clicks, stats.total)} ${total(t.uniqueLabel, stats.unique)} ${total(t.botsLabel, stats.bots)}
      ${stats.imported === 0 ? '' : total(t.importedLabel, stats.imported)}
    </dl>
    ${stats.imported === 0 ? '' : html`<p class="hint" id="imported-hint">${t.importedHint}</p>`}
    <h3>${t.chartTitle}</h3>
    ${dayChart(pt, language, stats.by_day, summary)} ${countryChart(language, countries, stats.countries)}
    <div class="tops">
      ${topList(pt.referrers, stats.referrers, word, pt.noClicks, 10)}
      ${topList(t.devices, stats.devices, word, pt.noClicks, 10)}
      ${topList(t.browsers, stats.browsers, word, pt.noClicks, 10)}
      ${stats.rules.length === 0 ? '' : topList(ruleStatsTitle(language), stats.rules, ruleKeyLabeller(language, link), pt.noClicks, MAX_RULES + 1, false)}
    </div>`;
}

export function statsSection(view: LinkPageView, t: LinkPageText): SafeHtml {
  const { stats, link } = view;
  const windows = STATS_WINDOWS.map((days) => {
    const label = fill(t.lastDays, { days });
    if (days === stats.days) return html`<li><span aria-current="true">${label}</span></li>`;
    return html`<li><a href="/account/links/${link.id}?days=${days}&tz=${stats.tz}">${label}</a></li>`;
  });
  // a token holder changes the window by a post (the token stays out of the URL)
  const picker =
    view.token === null
      ? html`<nav aria-label="${t.windowLabel}">
          <ul class="windows">
            ${windows}
          </ul>
        </nav>`
      : html`<form method="post" action="/account/links/${link.id}" class="row windows-form">
          ${hiddenToken(view.token)}
          <input type="hidden" name="tz" value="${stats.tz}" />
          <div class="field">
            <label for="days">${t.windowLabel}</label>
            <select id="days" name="days">
              ${STATS_WINDOWS.map(
                (days) =>
                  html`<option value="${days}" ${days === stats.days ? html` selected` : ''}>
                    ${fill(t.lastDays, { days })}
                  </option>`,
              )}
            </select>
          </div>
          <button type="submit" class="button">${t.showWindow}</button>
        </form>`;
  return html`<section class="card" aria-labelledby="stats-title">
    <h2 id="stats-title">${t.statsTitle}</h2>
    ${picker}
    <p class="hint" id="stats-zone" ${view.zoneReload === true ? html`data-reload="yes"` : ''}>
      ${fill(t.daysIn, { tz: stats.tz })}
    </p>
    ${statsBlock(view.language, stats, link)}
    ${
      view.token === null
        ? html`<p>
            <a
              class="button"
              id="stats-csv"
              href="/api/v1/links/${link.id}/stats?format=csv&days=${stats.days}&tz=${stats.tz}"
              download
              >${t.downloadCsv}</a
            >
          </p>`
        : ''
    }
  </section>`;
}
