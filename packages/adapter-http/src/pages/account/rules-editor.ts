import type { Language } from '@shortener/core';
import {
  COUNTRY_CODES,
  MAX_RULES,
  OS_NAMES,
  RULE_DEVICES,
  RULE_OSES,
  languageNamer,
  regionNamer,
  ruleSummary,
  ruleWordsOf,
} from '@shortener/core';
import { LANGUAGE_CODES } from '../language-codes.js';
import { assets } from '../assets.js';
import type { SafeHtml } from '../layout.js';
import { html } from '../layout.js';
import { ruleFieldOf, ruleOfRow, rowsIn } from './rules-values.js';
import type { RulesText } from './rules-text.js';
import { rulesTextOf } from './rules-text.js';

/** How the editor is shown: the row to open, the element to focus, the field of an error. */
export interface RulesEditorState {
  readonly open?: number | null;
  readonly focus?: string | null;
  readonly field?: string;
}

type Values = Readonly<Record<string, string>>;
/** A row's number, or the template's placeholder the script replaces. */
type RowId = number | '__n__';

const fill = (pattern: string, n: RowId) => pattern.replace('{n}', typeof n === 'number' ? String(n + 1) : n);

/**
 * The redirect rules of the link page's form (decisions §15, issue 42): one row per rule, collapsed to
 * a line that says it (`iOS in Austria → apps.apple.com/…`); checkboxes for device and OS, searchable
 * lists of countries and languages, query pairs and date-time inputs. Rows are added, moved and
 * removed by buttons that post the form without saving (one change at a time without script); the
 * script (`rules.js`) does the same in place, from the row template.
 */
export function rulesEditor(language: Language, values: Values, state: RulesEditorState = {}): SafeHtml {
  const t = rulesTextOf(language);
  const rows = rowsIn(values);
  const words = {
    newRule: t.newRule,
    up: t.up,
    down: t.down,
    remove: t.removeRule,
    removeItem: t.removeItem,
    max: MAX_RULES,
  };
  return html`<fieldset
    class="rules-editor"
    id="rules-editor"
    data-words="${JSON.stringify(words)}"
    data-summary="${assets().pathOf('rule-summary.js')}"
  >
    <legend>${t.title}</legend>
    <p class="hint" id="rules-hint">${t.intro}</p>
    <ol class="rules" id="rules">
      ${rows.map((n) => ruleRow(language, t, values, n, state))}
    </ol>
    <template id="rule-template">${ruleRow(language, t, {}, '__n__', { open: null })}</template>
    <button
      type="submit"
      class="button"
      id="rules-add"
      name="rule_action"
      value="add"
      ${rows.length >= MAX_RULES ? html` disabled` : ''}${state.focus === 'rules-add' ? html` autofocus` : ''}
    >
      ${t.add}
    </button>
    ${pickerLists(language)}
  </fieldset>`;
}

function ruleRow(
  language: Language,
  t: RulesText,
  values: Values,
  n: RowId,
  state: RulesEditorState,
): SafeHtml {
  const rule = typeof n === 'number' ? ruleOfRow(values, n) : null;
  const id = `rule_${n}`;
  const fault = ruleFieldOf(values, state.field);
  const open = rule === null || fault?.startsWith(`${id}_`) === true || state.open === n;
  const focus = (id: string) => (state.focus === id ? html` autofocus` : '');
  const field = (name: string, label: string, attributes: SafeHtml, hint?: string) =>
    textField(`${id}_${name}`, label, values, attributes, {
      invalid: fault === `${id}_${name}`,
      ...(hint === undefined ? {} : { hint }),
    });
  const button = (verb: string, label: string, sign: string) =>
    html`<button
      type="submit"
      class="icon"
      name="rule_action"
      value="${verb}:${n}"
      aria-label="${fill(label, n)}"
    >
      ${sign}
    </button>`;
  return html`<li class="rule" id="rule-${n}">
    <details ${open ? html`open` : ''}>
      <summary id="rule-${n}-summary" ${focus(`rule-${n}-summary`)}>
        <span class="rule-number">${typeof n === 'number' ? `${n + 1}.` : ''}</span>
        <span class="rule-line">${rule === null ? t.newRule : ruleSummary(language, rule)}</span>
      </summary>
      <div class="rule-body">
        ${field('url', t.url, html` inputmode="url" ${focus(`edit-${id}_url`)}`)}
        ${choices(`${id}_device`, t.device, RULE_DEVICES, ruleWordsOf(language).devices, values)}
        ${choices(`${id}_os`, t.os, RULE_OSES, OS_NAMES, values)}
        ${field('country', t.country, html` list="rule-countries" data-picker="country"`, t.countryHint)}
        ${field('language', t.language, html` list="rule-languages" data-picker="language"`, t.languageHint)}
        ${queryPairs(t, values, n, focus)}
        <div class="row">
          ${field('after', t.after, html` type="datetime-local"`)}
          ${field('before', t.before, html` type="datetime-local"`)}
        </div>
      </div>
    </details>
    <div class="rule-actions">
      ${button('up', t.up, '↑')} ${button('down', t.down, '↓')} ${button('remove', t.removeRule, '✕')}
    </div>
  </li>`;
}

/**
 * A labelled text input of the settings form, `edit-` before its name as its id; a hint under it, and
 * marked invalid (described by the form's error) when the error is about it.
 */
export function textField(
  name: string,
  label: string,
  values: Values,
  attributes: SafeHtml | '',
  { hint, invalid = false }: { readonly hint?: string; readonly invalid?: boolean } = {},
): SafeHtml {
  const hintId = `edit-${name}-hint`;
  const described = [hint === undefined ? '' : hintId, invalid ? 'edit-notice' : ''].join(' ').trim();
  return html`<div class="field">
    <label for="edit-${name}">${label}</label>
    <input
      id="edit-${name}"
      name="${name}"
      value="${values[name] ?? ''}"
      autocomplete="off"
      ${attributes}
      ${described === '' ? '' : html` aria-describedby="${described}"`}${invalid ? html` aria-invalid="true"` : ''}
    />
    ${hint === undefined ? '' : html`<p class="hint" id="${hintId}">${hint}</p>`}
  </div>`;
}

function choices(
  name: string,
  legend: string,
  words: readonly string[],
  labels: Readonly<Record<string, string>>,
  values: Values,
): SafeHtml {
  return html`<fieldset class="choices">
    <legend>${legend}</legend>
    ${words.map(
      (word) =>
        html`<label class="choice"
          ><input
            type="checkbox"
            name="${name}_${word}"
            value="on"
            data-word="${word}"
            ${values[`${name}_${word}`] === 'on' ? html` checked` : ''}
          />
          ${labels[word] ?? word}</label
        >`,
    )}
  </fieldset>`;
}

/** The query conditions as name/value pairs: those given, and one empty pair to add another. */
function queryPairs(t: RulesText, values: Values, n: RowId, focus: (id: string) => SafeHtml | ''): SafeHtml {
  let given = 0;
  while (values[`rule_${n}_query_${given}_key`] !== undefined) given++;
  const pair = (k: number) => {
    const name = `rule_${n}_query_${k}`;
    return html`<div class="row pair">
      ${textField(`${name}_key`, t.key, values, focus(`edit-${name}_key`))}
      ${textField(`${name}_value`, t.value, values, html``)}
    </div>`;
  };
  const empty = given > 0 && (values[`rule_${n}_query_${given - 1}_key`] ?? '') === '';
  return html`<fieldset class="query-pairs">
    <legend>${t.query}</legend>
    ${Array.from({ length: empty ? given : given + 1 }, (_, k) => pair(k))}
    <button type="submit" class="button small" name="rule_action" value="more:${n}">${t.morePairs}</button>
  </fieldset>`;
}

/** Each language's name in itself (`de` → `Deutsch`), kept once worked out. */
const OWN_NAMES = new Map<string, string>();

/**
 * The searchable lists of the country and language inputs: `Austria (AT)`, in the page's language; a
 * language also carries its own name (`data-own="Deutsch"`), which the script's search finds too.
 */
function pickerLists(language: Language): SafeHtml {
  const country = regionNamer(language);
  const speaks = languageNamer(language);
  const ownName = (code: string) => {
    const own = OWN_NAMES.get(code) ?? languageNamer(code)(code);
    OWN_NAMES.set(code, own);
    return own === speaks(code) || own === code ? '' : own;
  };
  const options = (
    codes: readonly string[],
    name: (code: string) => string,
    own?: (code: string) => string,
  ) =>
    codes
      .map((code) => ({ value: `${name(code)} (${code})`, own: own?.(code) ?? '' }))
      .sort((a, b) => a.value.localeCompare(b.value, language))
      .map(({ value, own }) =>
        own === ''
          ? html`<option value="${value}"></option>`
          : html`<option value="${value}" data-own="${own}"></option>`,
      );
  return html`<datalist id="rule-countries">${options([...COUNTRY_CODES], country)}</datalist>
    <datalist id="rule-languages">${options(LANGUAGE_CODES, speaks, ownName)}</datalist>`;
}
