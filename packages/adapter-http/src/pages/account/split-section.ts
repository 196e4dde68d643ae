import type { Language, LinkView, StatsView } from '@shortener/core';
import { SPLIT_MAX_ENTRIES, SPLIT_MIN_ENTRIES, SPLIT_TOTAL_WEIGHT, shortDestination } from '@shortener/core';
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
    add: 'Add a destination',
    remove: 'Remove destination {n}',
    row: 'Destination {n}',
    total: 'Total {total} %, must be {want}',
    totalOk: 'Total {total} %',
  },
  de: {
    legend: 'Split-Test',
    hint: 'Besucher, auf die keine Regel zutrifft, werden nach Gewicht auf {min}-{max} URLs verteilt (ganze Zahlen, Summe {total}); jeder Besucher erhält den ganzen Tag dieselbe, ohne Cookie. Leere Zeilen entfallen; ohne Zeile entfällt der Test.',
    url: 'URL',
    weight: 'Gewicht (%)',
    statsTitle: 'Split-Test: Klicks je URL',
    add: 'Ziel hinzufügen',
    remove: 'Ziel {n} entfernen',
    row: 'Ziel {n}',
    total: 'Summe {total} %, muss {want} sein',
    totalOk: 'Summe {total} %',
  },
  fr: {
    legend: 'Test A/B',
    hint: "Les visiteurs qu'aucune règle ne retient sont répartis entre {min} et {max} URL selon leur poids (entiers dont la somme fait {total}) ; chacun reçoit la même toute la journée, sans cookie. Les lignes vides sont ignorées ; sans ligne, le test est retiré.",
    url: 'URL',
    weight: 'Poids (%)',
    statsTitle: 'Test A/B : clics par URL',
    add: 'Ajouter une destination',
    remove: 'Retirer la destination {n}',
    row: 'Destination {n}',
    total: 'Total {total} %, doit faire {want}',
    totalOk: 'Total {total} %',
  },
  es: {
    legend: 'Prueba A/B',
    hint: 'Los visitantes que ninguna regla elige se reparten entre {min} y {max} URL según su peso (enteros que suman {total}); cada uno recibe la misma todo el día, sin cookie. Las filas vacías se omiten; sin filas se quita la prueba.',
    url: 'URL',
    weight: 'Peso (%)',
    statsTitle: 'Prueba A/B: clics por URL',
    add: 'Añadir un destino',
    remove: 'Quitar el destino {n}',
    row: 'Destino {n}',
    total: 'Total {total} %, debe ser {want}',
    totalOk: 'Total {total} %',
  },
} as const satisfies Record<Language, Record<string, string>>;

type Values = Readonly<Record<string, string>>;

/** The form values of a link's split: one row per entry (`split_N_url`, `split_N_weight`). */
export function splitValues(link: LinkView): Record<string, string> {
  const values: Record<string, string> = {};
  (link.split ?? []).forEach((entry, n) => {
    values[`split_${n}_url`] = entry.url;
    values[`split_${n}_weight`] = String(entry.weight);
  });
  return values;
}

/** The row numbers of the form's split rows that hold something (a URL or a weight), in order. */
function filledRows(values: Values): number[] {
  return Array.from({ length: SPLIT_MAX_ENTRIES }, (_, n) => n).filter(
    (n) =>
      (values[`split_${n}_url`] ?? '').trim() !== '' || (values[`split_${n}_weight`] ?? '').trim() !== '',
  );
}

/**
 * The split part of the link page's settings form (issue 52): the rows given and two empty ones (at
 * least two, at most five), so it works without script; the script (`split.js`) keeps only the rows in
 * use, adds and removes rows and shows the running total, which must reach 100 before the form is sent.
 * The row an error is about (`split_N_url`, `split_N_weight`; every weight for a wrong total) is marked.
 */
export function splitFields(language: Language, values: Values, field?: string): SafeHtml {
  const t = TEXT[language];
  const hint = fill(t.hint, { min: SPLIT_MIN_ENTRIES, max: SPLIT_MAX_ENTRIES, total: SPLIT_TOTAL_WEIGHT });
  const fault = splitFieldOf(values, field);
  const invalid = (name: string) =>
    fault === name || (fault === 'split_total' && name.endsWith('_weight'))
      ? html` aria-invalid="true" aria-describedby="edit-notice"`
      : '';
  const input = (name: string, label: string, attributes: SafeHtml) =>
    inputField(
      `edit-${name}`,
      label,
      html`name="${name}" value="${values[name] ?? ''}" autocomplete="off" ${attributes}${invalid(name)}`,
    );
  const row = (n: number) =>
    html`<div class="row split-row" id="split-${n}">
      ${input(`split_${n}_url`, `${n + 1}. ${t.url}`, html`type="text" inputmode="url"`)}
      ${input(`split_${n}_weight`, t.weight, html`type="number" min="1" max="100" step="1" inputmode="numeric"`)}
      <button type="button" class="icon split-remove" aria-label="${fill(t.remove, { n: n + 1 })}" hidden>
        ✕
      </button>
    </div>`;
  const rows = Math.min(
    SPLIT_MAX_ENTRIES,
    Math.max(SPLIT_MIN_ENTRIES, (filledRows(values).at(-1) ?? -1) + 3),
  );
  const words = {
    url: t.url,
    remove: t.remove,
    total: t.total,
    totalOk: t.totalOk,
    want: SPLIT_TOTAL_WEIGHT,
  };
  return html`<fieldset class="organise split-editor" id="split-editor" data-words="${JSON.stringify(words)}">
    <legend>${t.legend}</legend>
    <p class="hint" id="split-hint">${hint}</p>
    <div class="split-rows" id="split-rows">${Array.from({ length: rows }, (_, n) => row(n))}</div>
    <p class="split-total" id="split-total" aria-live="polite" hidden></p>
    <button type="button" class="button" id="split-add" data-max="${SPLIT_MAX_ENTRIES}" hidden>
      ${t.add}
    </button>
  </fieldset>`;
}

/**
 * The input an error's path is about: `split.K.url` or `split.K.weight` name the K-th entry sent, which
 * is the K-th row with a URL; `split` itself (the weights' total) is `split_total`; null for another.
 */
export function splitFieldOf(values: Values, field: string | undefined): string | null {
  if (field === 'split') return 'split_total';
  const match = /^split\.(\d+)(?:\.(url|weight))?/.exec(field ?? '');
  if (match === null) return null;
  const sent = filledRows(values).filter((n) => (values[`split_${n}_url`] ?? '').trim() !== '');
  const row = sent[Number(match[1])];
  return row === undefined ? null : `split_${row}_${match[2] ?? 'url'}`;
}

/**
 * An error's message as the page says it: one about an entry names its row (`Destination 2: …`), a wrong
 * total says it (`Total 90 %, must be 100`); another is left as it is.
 */
export function splitMessage(
  language: Language,
  values: Values,
  field: string | undefined,
  message: string,
): string {
  const t = TEXT[language];
  const input = splitFieldOf(values, field);
  if (input === null || field === undefined) return message;
  if (input === 'split_total') {
    const total = filledRows(values).reduce((sum, n) => sum + (Number(values[`split_${n}_weight`]) || 0), 0);
    // `split` is about the total only when the weights given miss it (else: too few entries)
    return total === SPLIT_TOTAL_WEIGHT ? message : fill(t.total, { total, want: SPLIT_TOTAL_WEIGHT });
  }
  const row = Number(/^split_(\d+)_/.exec(input)?.[1]) + 1;
  const rest = message.startsWith(`${field}: `) ? message.slice(field.length + 2) : message;
  return `${fill(t.row, { n: row })}: ${rest}`;
}

/**
 * The PATCH field of the form's split part: the rows with a URL, in order (none: null, no split). A
 * post without the part (not this page's form) changes nothing. A weight that is not a whole number is
 * sent as it is, for the API to refuse it by name.
 */
export function splitInput(values: Values): Record<string, unknown> {
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
  `${n + 1}. ${shortDestination(entry.url)} (${entry.weight}%)`;

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
