import type { Language, LinkView, StatsView } from '@shortener/core';
import { SPLIT_MAX_ENTRIES, SPLIT_MIN_ENTRIES, SPLIT_TOTAL_WEIGHT } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { html } from '../layout.js';
import { inputField } from '../page-parts.js';
import { fill } from '../text.js';

/** The words of the link page's split test (decisions §19), in the four languages. */
const TEXT = {
  en: {
    legend: 'Split test',
    hint: 'Visitors no redirect rule matches are shared among {min}-{max} URLs by weight (whole numbers summing to {total}); each visitor gets the same one all day, without a cookie. Empty rows are left out; no row removes the split.',
    url: 'URL',
    weight: 'Weight (%)',
    statsTitle: 'Split test: clicks per URL',
  },
  de: {
    legend: 'Split-Test',
    hint: 'Besucher, auf die keine Regel zutrifft, werden nach Gewicht auf {min}-{max} URLs verteilt (ganze Zahlen, Summe {total}); jeder Besucher erhält den ganzen Tag dieselbe, ohne Cookie. Leere Zeilen entfallen; ohne Zeile entfällt der Test.',
    url: 'URL',
    weight: 'Gewicht (%)',
    statsTitle: 'Split-Test: Klicks je URL',
  },
  fr: {
    legend: 'Test A/B',
    hint: "Les visiteurs qu'aucune règle ne retient sont répartis entre {min} et {max} URL selon leur poids (entiers dont la somme fait {total}) ; chacun reçoit la même toute la journée, sans cookie. Les lignes vides sont ignorées ; sans ligne, le test est retiré.",
    url: 'URL',
    weight: 'Poids (%)',
    statsTitle: 'Test A/B : clics par URL',
  },
  es: {
    legend: 'Prueba A/B',
    hint: 'Los visitantes que ninguna regla elige se reparten entre {min} y {max} URL según su peso (enteros que suman {total}); cada uno recibe la misma todo el día, sin cookie. Las filas vacías se omiten; sin filas se quita la prueba.',
    url: 'URL',
    weight: 'Peso (%)',
    statsTitle: 'Prueba A/B: clics por URL',
  },
} as const satisfies Record<Language, Record<string, string>>;

/** The form values of a link's split: one row per entry (`split_N_url`, `split_N_weight`). */
export function splitValues(link: LinkView): Record<string, string> {
  const values: Record<string, string> = {};
  (link.split ?? []).forEach((entry, n) => {
    values[`split_${n}_url`] = entry.url;
    values[`split_${n}_weight`] = String(entry.weight);
  });
  return values;
}

/** The split part of the link page's settings form: works without script, a row per possible entry. */
export function splitFields(language: Language, values: Readonly<Record<string, string>>): SafeHtml {
  const t = TEXT[language];
  const hint = fill(t.hint, { min: SPLIT_MIN_ENTRIES, max: SPLIT_MAX_ENTRIES, total: SPLIT_TOTAL_WEIGHT });
  const field = (name: string, label: string, attributes: SafeHtml) =>
    inputField(
      `edit-${name}`,
      label,
      html`name="${name}" value="${values[name] ?? ''}" autocomplete="off" ${attributes}`,
    );
  const row = (n: number) =>
    html`<div class="row split-row" id="split-${n}">
      ${field(`split_${n}_url`, `${n + 1}. ${t.url}`, html`type="text" inputmode="url"`)}
      ${field(`split_${n}_weight`, t.weight, html`type="number" min="1" max="100" step="1" inputmode="numeric"`)}
    </div>`;
  return html`<fieldset class="organise" id="split">
    <legend>${t.legend}</legend>
    <p class="hint" id="split-hint">${hint}</p>
    ${Array.from({ length: SPLIT_MAX_ENTRIES }, (_, n) => row(n))}
  </fieldset>`;
}

/**
 * The PATCH field of the form's split part: the rows with a URL, in order (none: null, no split). A
 * post without the part (not this page's form) changes nothing. A weight that is not a whole number is
 * sent as it is, for the API to refuse it by name.
 */
export function splitInput(values: Readonly<Record<string, string>>): Record<string, unknown> {
  if (values.split_0_url === undefined) return {};
  const entries: { url: string; weight: unknown }[] = [];
  for (let n = 0; n < SPLIT_MAX_ENTRIES; n++) {
    const url = values[`split_${n}_url`]?.trim() ?? '';
    const weight = values[`split_${n}_weight`]?.trim() ?? '';
    if (url === '') continue;
    entries.push({ url, weight: /^\d+$/.test(weight) ? Number(weight) : weight });
  }
  return { split: entries.length === 0 ? null : entries };
}

/** `1. example.com/a (50%)`: an entry as the statistics name it. */
const entryLabel = (entry: { url: string; weight: number }, n: number): string =>
  `${n + 1}. ${entry.url.replace(/^https?:\/\//, '')} (${entry.weight}%)`;

/** The clicks of each entry of a link's split side by side (statistics' `variants`); nothing without one. */
export function splitStatsSection(language: Language, link: LinkView, stats: StatsView): SafeHtml | string {
  if (link.split === null) return '';
  const counts = new Map(stats.variants.map(({ key, count }) => [key, count]));
  return html`<section class="card" aria-labelledby="split-stats-title">
    <h2 id="split-stats-title">${TEXT[language].statsTitle}</h2>
    <dl class="totals variants" id="variants">
      ${link.split.map(
        (entry, n) =>
          html`<div>
            <dt>${entryLabel(entry, n)}</dt>
            <dd class="total">${counts.get(String(n)) ?? 0}</dd>
          </div>`,
      )}
    </dl>
  </section>`;
}
