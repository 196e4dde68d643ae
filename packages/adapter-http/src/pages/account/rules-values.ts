import type { RuleLike, RuleView } from '@shortener/core';
import type { RulesText } from './rules-text.js';
import { MAX_RULES, RULE_DEVICES, RULE_OSES } from '@shortener/core';
import { utcOfLocal } from '../form-input.js';

// The rules editor's form fields (decisions §15), one set per row N: `rule_N_url`; a checkbox per
// device and OS (`rule_N_device_mobile`, `rule_N_os_ios`: `on`); `rule_N_country` and
// `rule_N_language` (codes separated by commas, or a picked `Austria (AT)`); query pairs
// `rule_N_query_K_key` / `rule_N_query_K_value`; `rule_N_after` / `rule_N_before` (`YYYY-MM-DDTHH:MM`,
// UTC). The older `rule_N_device`, `rule_N_os` (lists) and `rule_N_query` (`a=1&b=2`) are read too.

type Values = Readonly<Record<string, string>>;

const ROW = /^rule_(\d+)_(.+)$/;

/** The form values of a link's rules. */
export function rulesValues(rules: readonly RuleView[]): Record<string, string> {
  const values: Record<string, string> = {};
  rules.forEach((rule, n) => {
    const { when } = rule;
    const set = (name: string, value: string) => (values[`rule_${n}_${name}`] = value);
    set('url', rule.url);
    for (const device of when.device ?? []) set(`device_${device}`, 'on');
    for (const os of when.os ?? []) set(`os_${os}`, 'on');
    if (when.country !== undefined) set('country', when.country.join(', '));
    if (when.language !== undefined) set('language', when.language.join(', '));
    Object.entries(when.query ?? {}).forEach(([key, value], k) => {
      set(`query_${k}_key`, key);
      set(`query_${k}_value`, value);
    });
    if (when.after !== undefined) set('after', when.after.slice(0, 16));
    if (when.before !== undefined) set('before', when.before.slice(0, 16));
  });
  return values;
}

/** The row numbers the values hold, in order. */
export function rowsIn(values: Values): number[] {
  const rows = new Set<number>();
  for (const name of Object.keys(values)) {
    const match = ROW.exec(name);
    if (match !== null && Number(match[1]) < MAX_RULES * 2) rows.add(Number(match[1]));
  }
  return [...rows].sort((a, b) => a - b);
}

/** A list field: items separated by commas (or spaces); a picked `Austria (AT)` is its code. */
export function codesOf(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .flatMap((item) => {
      const picked = /\(([A-Za-z]{2,8})\)\s*$/.exec(item);
      return picked === null ? item.split(/\s+/) : [picked[1]!];
    })
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** The query pairs of row `n` (both spellings), the empty ones left out. */
function queryOf(values: Values, n: number): Record<string, string> {
  const query: Record<string, string> = Object.fromEntries(
    new URLSearchParams(values[`rule_${n}_query`] ?? ''),
  );
  for (let k = 0; values[`rule_${n}_query_${k}_key`] !== undefined; k++) {
    const key = values[`rule_${n}_query_${k}_key`]!.trim();
    if (key !== '') query[key] = values[`rule_${n}_query_${k}_value`] ?? '';
  }
  return query;
}

/** The rule of row `n` as the API takes it (times as UTC), or null for a row without URL. */
export function ruleOfRow(values: Values, n: number): RuleLike | null {
  const field = (name: string) => values[`rule_${n}_${name}`]?.trim() ?? '';
  if (field('url') === '') return null;
  const ticked = <T extends string>(name: string, words: readonly T[]): T[] => [
    ...new Set([
      ...(codesOf(field(name)) as T[]),
      ...words.filter((word) => values[`rule_${n}_${name}_${word}`] === 'on'),
    ]),
  ];
  const when: Record<string, unknown> = {};
  const device = ticked('device', RULE_DEVICES);
  const os = ticked('os', RULE_OSES);
  if (device.length > 0) when.device = device;
  if (os.length > 0) when.os = os;
  for (const list of ['country', 'language'])
    if (codesOf(field(list)).length > 0) when[list] = codesOf(field(list));
  const query = queryOf(values, n);
  if (Object.keys(query).length > 0) when.query = query;
  if (field('after') !== '') when.after = utcOfLocal(field('after'));
  if (field('before') !== '') when.before = utcOfLocal(field('before'));
  return { when, url: field('url') };
}

/** The `rules` of the form, in row order, rows without URL left out. */
export const rulesInput = (values: Values): RuleLike[] =>
  rowsIn(values).flatMap((n) => ruleOfRow(values, n) ?? []);

/** The values with the rule rows in `order` (old row numbers), numbered 0, 1, … again. */
function reorder(values: Values, order: readonly number[]): Record<string, string> {
  const kept: Record<string, string> = {};
  const place = new Map(order.map((row, i) => [row, i]));
  for (const [name, value] of Object.entries(values)) {
    const match = ROW.exec(name);
    if (match === null) kept[name] = value;
    else if (place.has(Number(match[1]))) kept[`rule_${place.get(Number(match[1]))}_${match[2]}`] = value;
  }
  return kept;
}

/** The values with the rows numbered 0, 1, … in their order. */
export const compactRows = (values: Values): Record<string, string> => reorder(values, rowsIn(values));

/** What a row button asks (`add`, `up:N`, `down:N`, `remove:N`, `more:N`) and the row it is about. */
export interface RowChange {
  readonly values: Record<string, string>;
  /** The id of the element to focus on the page shown again. */
  readonly focus: string;
  /** The row to show open. */
  readonly open: number | null;
}

/**
 * A row button's change without script (nothing is saved): a new empty row, a row moved or removed, or
 * another query pair. The rows are numbered 0, 1, … after it.
 */
export function changeRows(values: Values, action: string): RowChange {
  const rows = rowsIn(values);
  const [verb = '', at = ''] = action.split(':');
  const i = rows.indexOf(Number(at));
  const order = [...rows];
  if (verb === 'add' && rows.length < MAX_RULES) {
    const added = { ...compactRows(values), [`rule_${rows.length}_url`]: '' };
    return { values: added, focus: `edit-rule_${rows.length}_url`, open: rows.length };
  }
  if (i < 0) return { values: compactRows(values), focus: 'rules-add', open: null };
  if (verb === 'remove') {
    order.splice(i, 1);
    return { values: reorder(values, order), focus: 'rules-add', open: null };
  }
  if (verb === 'more') {
    const pairs = Object.keys(values).filter(
      (name) => /^rule_\d+_query_\d+_key$/.test(name) && name.startsWith(`rule_${at}_`),
    ).length;
    const more = {
      ...values,
      [`rule_${at}_query_${pairs}_key`]: '',
      [`rule_${at}_query_${pairs}_value`]: '',
    };
    return { values: reorder(more, order), focus: `edit-rule_${i}_query_${pairs}_key`, open: i };
  }
  const to = verb === 'up' ? Math.max(0, i - 1) : Math.min(rows.length - 1, i + 1);
  order.splice(i, 1);
  order.splice(to, 0, rows[i]!);
  return { values: reorder(values, order), focus: `rule-${to}-summary`, open: null };
}

/**
 * The input an error's path is about: `rules.K.url` or `rules.K.when.country.0` name the K-th rule
 * sent, which is the K-th row with a URL (`rule_N_url`, `rule_N_country`); null for another field.
 */
export function ruleFieldOf(values: Values, field: string | undefined): string | null {
  const match = /^rules\.(\d+)(?:\.when\.(\w+))?/.exec(field ?? '');
  if (match === null) return null;
  const row = rowsIn(values).filter((n) => ruleOfRow(values, n) !== null)[Number(match[1])];
  return row === undefined ? null : `rule_${row}_${match[2] ?? 'url'}`;
}

/**
 * An error's message as the page says it: one about a rule (`rules.1.when.country.0: …`, core counting
 * the rules sent from 0) names the row as the editor numbers it (`Rule 3: …`); a rule without a
 * condition (`rules.1.when`) is said with its row's number: it would match everyone.
 */
export function ruleMessage(
  values: Values,
  field: string | undefined,
  message: string,
  t: Pick<RulesText, 'rule' | 'noCondition'>,
): string {
  const input = ruleFieldOf(values, field);
  const row = input === null ? null : /^rule_(\d+)_/.exec(input)?.[1];
  if (row === undefined || row === null || field === undefined) return message;
  const n = String(Number(row) + 1);
  if (/^rules\.\d+\.when$/.test(field)) return t.noCondition.replace('{n}', n);
  if (!message.startsWith(`${field}: `)) return message;
  return `${t.rule.replace('{n}', n)}: ${message.slice(field.length + 2)}`;
}
