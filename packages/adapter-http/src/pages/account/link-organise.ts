import type { Language, LinkView } from '@shortener/core';
import type { SafeHtml } from '../layout.js';
import { html } from '../layout.js';
import type { RulesEditorState } from './rules-editor.js';
import { rulesEditor, textField } from './rules-editor.js';
import { compactRows, rulesInput, rulesValues } from './rules-values.js';
import { tagsOf } from '../form-input.js';

/** The words of the link page's tags and rules (decisions §15), in the four languages. */
const TEXT = {
  en: {
    legend: 'Tags and routing',
    tags: 'Tags (separated by commas)',
    forward: "Add the visitor's query parameters to the destination",
    status: 'Redirect status',
    crawlable: 'Let search engines index the short URL',
    ruleStats: 'Redirect rules',
  },
  de: {
    legend: 'Schlagwörter und Weiterleitung',
    tags: 'Schlagwörter (durch Kommas getrennt)',
    forward: 'Die Abfrageparameter des Besuchers an das Ziel anhängen',
    status: 'Weiterleitungsstatus',
    crawlable: 'Suchmaschinen dürfen die Kurz-URL aufnehmen',
    ruleStats: 'Weiterleitungsregeln',
  },
  fr: {
    legend: 'Étiquettes et routage',
    tags: 'Étiquettes (séparées par des virgules)',
    forward: 'Ajouter les paramètres de requête du visiteur à la destination',
    status: 'Statut de redirection',
    crawlable: "Laisser les moteurs de recherche indexer l'URL courte",
    ruleStats: 'Règles de redirection',
  },
  es: {
    legend: 'Etiquetas y enrutamiento',
    tags: 'Etiquetas (separadas por comas)',
    forward: 'Añadir los parámetros de consulta del visitante al destino',
    status: 'Estado de redirección',
    crawlable: 'Permitir que los buscadores indexen la URL corta',
    ruleStats: 'Reglas de redirección',
  },
} as const satisfies Record<Language, Record<string, string>>;

/** The heading of the statistics' `rule` list: which rule answered (`#0`, … or `default`). */
export const ruleStatsTitle = (language: Language): string => TEXT[language].ruleStats;

const STATUSES = ['302', '307', '301', '308'] as const;

/** The form values of a link's §15 settings, its rules among them. */
export function organiseValues(link: LinkView): Record<string, string> {
  return {
    tags: link.tags.join(', '),
    redirect_status: String(link.redirect_status),
    ...(link.forward_query ? { forward_query: 'on' } : {}),
    ...(link.crawlable ? { crawlable: 'on' } : {}),
    ...rulesValues(link.rules),
  };
}

/** The §15 fields of the link page's settings form: works without script, one row per rule. */
export function organiseFields(
  language: Language,
  values: Readonly<Record<string, string>>,
  rules: RulesEditorState = {},
): SafeHtml {
  const t = TEXT[language];
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
  const status = values.redirect_status ?? '302';
  return html`<fieldset class="organise" id="organise">
    <legend>${t.legend}</legend>
    ${textField('tags', t.tags, values, html``)} ${rulesEditor(language, compactRows(values), rules)}
    ${check('forward_query', t.forward)}
    <div class="field">
      <label for="edit-redirect_status">${t.status}</label>
      <select id="edit-redirect_status" name="redirect_status">
        ${STATUSES.map((s) => html`<option value="${s}" ${s === status ? html` selected` : ''}>${s}</option>`)}
      </select>
    </div>
    ${check('crawlable', t.crawlable)}
  </fieldset>`;
}

/**
 * The PATCH fields of the form's §15 part: every one is sent, so each is set. A post without the part
 * (no `redirect_status`: not this page's form) changes none of them.
 */
export function organiseInput(values: Readonly<Record<string, string>>): Record<string, unknown> {
  if (values.redirect_status === undefined) return {};
  return {
    tags: tagsOf(values.tags),
    rules: rulesInput(values),
    forward_query: values.forward_query === 'on',
    redirect_status: Number(values.redirect_status ?? '302'),
    crawlable: values.crawlable === 'on',
  };
}
