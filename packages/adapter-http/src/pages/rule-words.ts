import type { Language, RuleView } from '@shortener/core';
import { countryNamer } from './country-chart.js';

// A redirect rule in a person's words (decisions §15): the link page's collapsed rows, the numbered
// labels of the `rule` statistics, and (later) the split variants' labels all say a rule the same way.

/** The conditions of a rule as the pages read them: lists, a query, ISO times. */
export type RuleLike = Pick<RuleView, 'url'> & { readonly when: Partial<RuleView['when']> };

/** The words of a rule's one-line summary: `{list}` and `{time}` are filled in. */
const WORDS = {
  en: {
    or: 'or',
    place: 'in {list}',
    language: 'reading {list}',
    query: 'with {list}',
    after: 'from {time}',
    before: 'until {time}',
    anyone: 'Every visitor',
    otherwise: 'Otherwise',
    devices: { mobile: 'Phone', tablet: 'Tablet', desktop: 'Computer' },
  },
  de: {
    or: 'oder',
    place: 'in {list}',
    language: 'Sprache {list}',
    query: 'mit {list}',
    after: 'ab {time}',
    before: 'bis {time}',
    anyone: 'Alle Besucher',
    otherwise: 'Sonst',
    devices: { mobile: 'Smartphone', tablet: 'Tablet', desktop: 'Computer' },
  },
  fr: {
    or: 'ou',
    place: 'pays : {list}',
    language: 'langue : {list}',
    query: 'avec {list}',
    after: 'à partir du {time}',
    before: 'jusqu’au {time}',
    anyone: 'Tous les visiteurs',
    otherwise: 'Sinon',
    devices: { mobile: 'Téléphone', tablet: 'Tablette', desktop: 'Ordinateur' },
  },
  es: {
    or: 'o',
    place: 'en {list}',
    language: 'idioma: {list}',
    query: 'con {list}',
    after: 'desde {time}',
    before: 'hasta {time}',
    anyone: 'Todos los visitantes',
    otherwise: 'Si no',
    devices: { mobile: 'Teléfono', tablet: 'Tableta', desktop: 'Ordenador' },
  },
} as const satisfies Record<Language, Record<string, unknown>>;

/** The summary's words in `language` (the editor's script builds the same line as it is edited). */
export const ruleWordsOf = (language: Language) => WORDS[language];

/** Operating systems by their own names, the same in every language. */
export const OS_NAMES = {
  ios: 'iOS',
  android: 'Android',
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
};

/** A language's name in `language` from its primary subtag, else the subtag. */
export function languageNamer(language: Language): (code: string) => string {
  const names = new Intl.DisplayNames([language], { type: 'language' });
  return (code) => {
    try {
      return names.of(code) ?? code;
    } catch {
      return code;
    }
  };
}

/** A destination, short: its host, and `/…` when it has a path or query beyond `/`. */
export function shortDestination(url: string): string {
  try {
    const parsed = new URL(url);
    const rest = parsed.pathname + parsed.search;
    return rest === '/' || rest === '' ? parsed.host : `${parsed.host}/…`;
  } catch {
    return url.length > 40 ? `${url.slice(0, 39)}…` : url;
  }
}

const fill = (pattern: string, key: string, value: string) => pattern.replace(`{${key}}`, value);
const timeOf = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** What a rule asks for in a few words, e.g. `iOS or Android in Austria` (no condition: every visitor). */
export function ruleConditionsText(language: Language, when: RuleLike['when']): string {
  const w = WORDS[language];
  const or = (items: readonly string[]) => items.join(` ${w.or} `);
  const who = [...(when.device ?? []).map((d) => w.devices[d]), ...(when.os ?? []).map((o) => OS_NAMES[o])];
  const country = countryNamer(language);
  const speaks = languageNamer(language);
  const head = [
    who.length === 0 ? '' : or(who),
    when.country?.length ? fill(w.place, 'list', or(when.country.map(country))) : '',
  ].filter((part) => part !== '');
  const query = Object.entries(when.query ?? {}).map(([key, value]) => `${key}=${value}`);
  const tail = [
    when.language?.length ? fill(w.language, 'list', or(when.language.map(speaks))) : '',
    query.length === 0 ? '' : fill(w.query, 'list', query.join(', ')),
    when.after === undefined ? '' : fill(w.after, 'time', timeOf(when.after)),
    when.before === undefined ? '' : fill(w.before, 'time', timeOf(when.before)),
  ].filter((part) => part !== '');
  const line = [head.join(' '), ...tail].filter((part) => part !== '').join(', ');
  if (line === '') return w.anyone;
  // a line that starts with a phrase (`in Austria`) is capitalised; a device or OS keeps its own case
  return who.length > 0 ? line : line.charAt(0).toUpperCase() + line.slice(1);
}

/** A rule in one line: its conditions, then where it sends (`iOS in Austria → apps.apple.com/…`). */
export const ruleSummary = (language: Language, rule: RuleLike): string =>
  `${ruleConditionsText(language, rule.when)} → ${shortDestination(rule.url)}`;

/**
 * A key of the `rule` statistics dimension as the page labels it, numbered as the preview's list of
 * destinations numbers the rules: `0` → `1. iOS → apps.apple.com/…`, `default` → `Otherwise → …`.
 * A key of a rule since removed, or of a link not at hand (the public statistics), is its number alone.
 */
export function ruleKeyLabeller(
  language: Language,
  link: { readonly rules: readonly RuleLike[]; readonly url: string } | null,
): (key: string) => string {
  const rules = link?.rules ?? [];
  return (key) => {
    if (key === 'default')
      return link === null
        ? WORDS[language].otherwise
        : `${WORDS[language].otherwise} → ${shortDestination(link.url)}`;
    const rule = /^\d+$/.test(key) ? rules[Number(key)] : undefined;
    const number = /^\d+$/.test(key) ? `${Number(key) + 1}.` : key;
    return rule === undefined ? number : `${number} ${ruleSummary(language, rule)}`;
  };
}
