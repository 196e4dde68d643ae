import type { Language, LinkView, RuleView } from '@shortener/core';
import { MAX_RULES } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { html } from '../layout.js';
import { utcOfLocal } from '../form-input.js';

/** The words of the link page's tags and rules (decisions §15), in the four languages. */
const TEXT = {
  en: {
    legend: 'Tags and routing',
    tags: 'Tags (separated by commas)',
    rules:
      'Redirect rules: the first row whose conditions all hold picks its URL. Lists are separated by commas; an empty URL removes the row.',
    url: 'URL',
    device: 'Device (mobile, tablet, desktop)',
    os: 'OS (ios, android, windows, macos, linux)',
    country: 'Country codes (AT, DE)',
    language: 'Languages (de, fr)',
    query: 'Query (ref=mail)',
    after: 'From (UTC)',
    before: 'Until (UTC)',
    forward: "Add the visitor's query parameters to the destination",
    status: 'Redirect status',
    crawlable: 'Let search engines index the short URL',
    ruleStats: 'Redirect rules',
  },
  de: {
    legend: 'Schlagwörter und Weiterleitung',
    tags: 'Schlagwörter (durch Kommas getrennt)',
    rules:
      'Weiterleitungsregeln: Die erste Zeile, deren Bedingungen alle zutreffen, wählt ihre URL. Listen durch Kommas trennen; eine leere URL entfernt die Zeile.',
    url: 'URL',
    device: 'Gerät (mobile, tablet, desktop)',
    os: 'Betriebssystem (ios, android, windows, macos, linux)',
    country: 'Ländercodes (AT, DE)',
    language: 'Sprachen (de, fr)',
    query: 'Abfrage (ref=mail)',
    after: 'Ab (UTC)',
    before: 'Bis (UTC)',
    forward: 'Die Abfrageparameter des Besuchers an das Ziel anhängen',
    status: 'Weiterleitungsstatus',
    crawlable: 'Suchmaschinen dürfen die Kurz-URL aufnehmen',
    ruleStats: 'Weiterleitungsregeln',
  },
  fr: {
    legend: 'Étiquettes et routage',
    tags: 'Étiquettes (séparées par des virgules)',
    rules:
      'Règles de redirection : la première ligne dont toutes les conditions sont remplies choisit son URL. Listes séparées par des virgules ; une URL vide retire la ligne.',
    url: 'URL',
    device: 'Appareil (mobile, tablet, desktop)',
    os: 'Système (ios, android, windows, macos, linux)',
    country: 'Codes pays (AT, DE)',
    language: 'Langues (de, fr)',
    query: 'Requête (ref=mail)',
    after: 'À partir de (UTC)',
    before: "Jusqu'à (UTC)",
    forward: 'Ajouter les paramètres de requête du visiteur à la destination',
    status: 'Statut de redirection',
    crawlable: "Laisser les moteurs de recherche indexer l'URL courte",
    ruleStats: 'Règles de redirection',
  },
  es: {
    legend: 'Etiquetas y enrutamiento',
    tags: 'Etiquetas (separadas por comas)',
    rules:
      'Reglas de redirección: la primera fila cuyas condiciones se cumplen todas elige su URL. Listas separadas por comas; una URL vacía quita la fila.',
    url: 'URL',
    device: 'Dispositivo (mobile, tablet, desktop)',
    os: 'Sistema (ios, android, windows, macos, linux)',
    country: 'Códigos de país (AT, DE)',
    language: 'Idiomas (de, fr)',
    query: 'Consulta (ref=mail)',
    after: 'Desde (UTC)',
    before: 'Hasta (UTC)',
    forward: 'Añadir los parámetros de consulta del visitante al destino',
    status: 'Estado de redirección',
    crawlable: 'Permitir que los buscadores indexen la URL corta',
    ruleStats: 'Reglas de redirección',
  },
} as const satisfies Record<Language, Record<string, string>>;

/** The heading of the statistics' `rule` list: which rule answered (`#0`, … or `default`). */
export const ruleStatsTitle = (language: Language): string => TEXT[language].ruleStats;

/** A key of the `rule` dimension as the page shows it. */
export const ruleKeyLabel = (key: string): string => (key === 'default' ? key : `#${key}`);

const LISTS = ['device', 'os', 'country', 'language'] as const;
const STATUSES = ['302', '307', '301', '308'] as const;

/** The form values of a link's §15 settings: one row per rule, and one empty row to add a rule. */
export function organiseValues(link: LinkView): Record<string, string> {
  const values: Record<string, string> = {
    tags: link.tags.join(', '),
    redirect_status: String(link.redirect_status),
    ...(link.forward_query ? { forward_query: 'on' } : {}),
    ...(link.crawlable ? { crawlable: 'on' } : {}),
  };
  link.rules.forEach((rule, n) => Object.assign(values, ruleValues(rule, n)));
  return values;
}

function ruleValues(rule: RuleView, n: number): Record<string, string> {
  const { when } = rule;
  const values: Record<string, string> = { [`rule_${n}_url`]: rule.url };
  for (const list of LISTS) if (when[list] !== undefined) values[`rule_${n}_${list}`] = when[list].join(', ');
  if (when.query !== undefined) values[`rule_${n}_query`] = new URLSearchParams(when.query).toString();
  if (when.after !== undefined) values[`rule_${n}_after`] = when.after.slice(0, 16);
  if (when.before !== undefined) values[`rule_${n}_before`] = when.before.slice(0, 16);
  return values;
}

/** How many rule rows the form shows: the rules given, and one more while there is room. */
const rowsOf = (values: Readonly<Record<string, string>>): number => {
  let rows = 0;
  while (rows < MAX_RULES && values[`rule_${rows}_url`] !== undefined) rows++;
  return Math.min(MAX_RULES, rows + 1);
};

/** The §15 fields of the link page's settings form: works without script, one row per rule. */
export function organiseFields(language: Language, values: Readonly<Record<string, string>>): SafeHtml {
  const t = TEXT[language];
  const text = (name: string, label: string, type = 'text') =>
    html`<div class="field">
      <label for="edit-${name}">${label}</label>
      <input
        id="edit-${name}"
        name="${name}"
        type="${type}"
        value="${values[name] ?? ''}"
        autocomplete="off"
      />
    </div>`;
  const check = (name: string, label: string) =>
    html`<div class="field check">
      <input
        id="edit-${name}"
        name="${name}"
        type="checkbox"
        value="on"
        ${values[name] === 'on' ? html` checked` : ''}
      />
      <label for="edit-${name}">${label}</label>
    </div>`;
  const row = (n: number) =>
    html`<fieldset class="rule-row" id="rule-${n}">
      <legend>#${n}</legend>
      ${text(`rule_${n}_url`, t.url)}
      <div class="row">${LISTS.map((list) => text(`rule_${n}_${list}`, t[list]))}</div>
      <div class="row">
        ${text(`rule_${n}_query`, t.query)} ${text(`rule_${n}_after`, t.after, 'datetime-local')}
        ${text(`rule_${n}_before`, t.before, 'datetime-local')}
      </div>
    </fieldset>`;
  const status = values.redirect_status ?? '302';
  return html`<fieldset class="organise" id="organise">
    <legend>${t.legend}</legend>
    ${text('tags', t.tags)}
    <p class="hint" id="rules-hint">${t.rules}</p>
    ${Array.from({ length: rowsOf(values) }, (_, n) => row(n))} ${check('forward_query', t.forward)}
    <div class="field">
      <label for="edit-redirect_status">${t.status}</label>
      <select id="edit-redirect_status" name="redirect_status">
        ${STATUSES.map((s) => html`<option value="${s}" ${s === status ? html` selected` : ''}>${s}</option>`)}
      </select>
    </div>
    ${check('crawlable', t.crawlable)}
  </fieldset>`;
}

const listOf = (text: string | undefined): string[] =>
  (text ?? '')
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** The rule of row `n` as the API takes it, or null for a row without URL (removed). */
function ruleOf(values: Readonly<Record<string, string>>, n: number): Record<string, unknown> | null {
  const field = (name: string) => values[`rule_${n}_${name}`]?.trim() ?? '';
  if (field('url') === '') return null;
  const when: Record<string, unknown> = {};
  for (const list of LISTS) if (field(list) !== '') when[list] = listOf(field(list));
  if (field('query') !== '') when.query = Object.fromEntries(new URLSearchParams(field('query')));
  if (field('after') !== '') when.after = utcOfLocal(field('after'));
  if (field('before') !== '') when.before = utcOfLocal(field('before'));
  return { when, url: field('url') };
}

/**
 * The PATCH fields of the form's §15 part: every one is sent, so each is set. A post without the part
 * (no `redirect_status`: not this page's form) changes none of them.
 */
export function organiseInput(values: Readonly<Record<string, string>>): Record<string, unknown> {
  if (values.redirect_status === undefined) return {};
  const rules: Record<string, unknown>[] = [];
  for (let n = 0; n < MAX_RULES + 1; n++) {
    const rule = ruleOf(values, n);
    if (rule !== null) rules.push(rule);
  }
  return {
    tags: listOf(values.tags),
    rules,
    forward_query: values.forward_query === 'on',
    redirect_status: Number(values.redirect_status ?? '302'),
    crawlable: values.crawlable === 'on',
  };
}
