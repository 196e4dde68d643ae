import type { Language, LinkView, StatsView } from '@shortener/core';
import { MAX_RULES, ruleKeyLabeller, statsCsvFileName } from '@shortener/core';
import { countryChart } from '../country-chart.js';
import type { SafeHtml } from '../layout.js';
import { html } from '../layout.js';
import { dayChart, topList } from '../preview-page.js';
import { keyWord } from '../stats-words.js';
import { fill, textOf } from '../text.js';
import type { LinkPageView } from './link-page.js';
import type { LinkPageText } from './link-page-text.js';
import { ruleStatsTitle } from './link-organise.js';
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
  const picker = rangePicker(
    { ...t, action: `/account/links/${link.id}`, ranged: view.ranged === true, stats },
    view.token,
  );
  return html`<section class="card" aria-labelledby="stats-title">
    <h2 id="stats-title">${t.statsTitle}</h2>
    ${view.rangeError === undefined ? '' : html`<p class="error" role="alert">${fill(t.rangeError, { message: view.rangeError })}</p>`}
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
              href="/api/v1/links/${link.id}/stats?format=csv&from=${stats.from}&to=${stats.to}&tz=${stats.tz}"
              download="${statsCsvFileName(`${link.slug}-stats`, stats)}"
              >${t.downloadCsv}</a
            >
          </p>`
        : ''
    }
  </section>`;
}

/** What a range picker shows: its texts, where it goes, the statistics it picked. */
interface RangePicking {
  readonly action: string;
  readonly windowLabel: string;
  readonly lastDays: string;
  readonly fromLabel: string;
  readonly toLabel: string;
  readonly showWindow: string;
  /** The statistics are of dates asked for, not of a preset. */
  readonly ranged: boolean;
  readonly stats: Pick<StatsView, 'days' | 'from' | 'to' | 'tz'>;
  /** Hidden fields the picker carries on (a tag of `/account`). */
  readonly keep?: Readonly<Record<string, string>>;
}

/**
 * The statistics window (decisions §18): presets of the last days, and two dates in the browser's zone
 * (`tz`, which zone.js puts in the URL). Signed in, plain links and a GET form, so the range stays in the
 * URL and can be shared; with an edit token (`token`, carried as a hidden field), a POST form that keeps the
 * token out of the URL. Works without script.
 */
export function rangePicker(p: RangePicking, token: string | null): SafeHtml {
  const { stats } = p;
  const keep = Object.entries(p.keep ?? {}).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
  );
  const dates = html`<div class="field">
      <label for="range-from">${p.fromLabel}</label>
      <input type="date" id="range-from" name="from" value="${stats.from}" required />
    </div>
    <div class="field">
      <label for="range-to">${p.toLabel}</label>
      <input type="date" id="range-to" name="to" value="${stats.to}" required />
    </div>`;
  /** The two dates as a form: posted with the token's field, else got with the fields to keep. */
  const rangeForm = (method: 'get' | 'post', carried: SafeHtml | SafeHtml[] | '') =>
    html`<form method="${method}" action="${p.action}" class="row range-form">
      ${carried}
      <input type="hidden" name="tz" value="${stats.tz}" />
      ${dates}
      <button type="submit" class="button">${p.showWindow}</button>
    </form>`;
  if (token !== null) {
    const field = hiddenToken(token);
    return html`<form method="post" action="${p.action}" class="row windows-form">
        ${field}
        <input type="hidden" name="tz" value="${stats.tz}" />
        <div class="field">
          <label for="days">${p.windowLabel}</label>
          <select id="days" name="days">
            ${STATS_WINDOWS.map(
              (days) =>
                html`<option value="${days}" ${!p.ranged && days === stats.days ? html` selected` : ''}>
                  ${fill(p.lastDays, { days })}
                </option>`,
            )}
          </select>
        </div>
        <button type="submit" class="button">${p.showWindow}</button>
      </form>
      ${rangeForm('post', field)}`;
  }
  const query = (extra: string) => {
    const params = new URLSearchParams({ ...p.keep, tz: stats.tz });
    return `${p.action}?${extra}&${params.toString()}`;
  };
  const windows = STATS_WINDOWS.map((days) => {
    const label = fill(p.lastDays, { days });
    if (!p.ranged && days === stats.days) return html`<li><span aria-current="true">${label}</span></li>`;
    return html`<li><a href="${query(`days=${days}`)}">${label}</a></li>`;
  });
  return html`<nav aria-label="${p.windowLabel}">
      <ul class="windows">
        ${windows}
      </ul>
    </nav>
    ${rangeForm('get', keep)}`;
}
