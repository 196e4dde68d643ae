import type { Language } from '../i18n.js';
import type { RuleView } from './rules.js';

// A redirect rule in a person's words (decisions §15, issue 52): the link page's collapsed rows, the
// `rule` statistics, the public preview page, the CLI and the MCP tools all say a rule the same way,
// `iOS in Austria → apps.apple.com/app/id1`.

/** The conditions of a rule as the summaries read them: lists, a query, ISO times. */
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
} as const;

/** A name from `Intl.DisplayNames` of `type` in `locale`, else the code itself. */
function namer(locale: string, type: 'region' | 'language'): (code: string) => string {
  const names = new Intl.DisplayNames([locale], { type });
  return (code) => {
    try {
      return names.of(code) ?? code;
    } catch {
      return code;
    }
  };
}

/** A country's name in `language` from its ISO code (`AT` → `Austria`), else the code. */
export const regionNamer = (language: Language) => namer(language, 'region');

/**
 * A language's name in `locale` (a page's language, or any other: `de` names `de` `Deutsch`) from its
 * subtag (`de` → `German`, `en-US`), else the subtag.
 */
export const languageNamer = (locale: Language | string) => namer(locale, 'language');

/** The longest a shortened destination gets (host and path), in characters. */
export const SHORT_DESTINATION_MAX = 48;

/**
 * A destination as the summaries show it: host and path (and query), no scheme, e.g.
 * `example.com/de/pricing`; the host alone when the path is `/`. A longer one keeps the host, the
 * first path segment and the last (`example.com/docs/…/install`), or else the path's start and end
 * around an ellipsis: never the host alone with an ellipsis.
 */
export function shortDestination(url: string, max = SHORT_DESTINATION_MAX): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.length > max ? `${url.slice(0, max - 1)}…` : url;
  }
  const host = parsed.host;
  const rest = parsed.pathname + parsed.search;
  if (rest === '/' || rest === '') return host;
  if (host.length + rest.length <= max) return host + rest;
  const segments = parsed.pathname.split('/').filter((segment) => segment !== '');
  const ends = `/${segments[0] ?? ''}/…/${segments.at(-1) ?? ''}${parsed.search}`;
  if (segments.length > 2 && host.length + ends.length <= max) return host + ends;
  // the path's start and its end, at least 16 characters of it whatever the host's length
  const room = Math.max(16, max - host.length) - 1;
  const tail = Math.ceil(room / 2);
  return `${host}${rest.slice(0, room - tail)}…${rest.slice(-tail)}`;
}

const fill = (pattern: string, key: string, value: string) => pattern.replace(`{${key}}`, value);
const timeOf = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/** What a rule asks for in a few words, e.g. `iOS or Android in Austria` (no condition: every visitor). */
export function ruleConditionsText(language: Language, when: RuleLike['when']): string {
  const w = WORDS[language];
  const or = (items: readonly string[]) => items.join(` ${w.or} `);
  const who = [...(when.device ?? []).map((d) => w.devices[d]), ...(when.os ?? []).map((o) => OS_NAMES[o])];
  const country = regionNamer(language);
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

/** A rule in one line: its conditions, then where it sends (`iOS in Austria → apps.apple.com/app/id1`). */
export const ruleSummary = (language: Language, rule: RuleLike): string =>
  `${ruleConditionsText(language, rule.when)} → ${shortDestination(rule.url)}`;

/** `Otherwise → example.com/pricing`: where a visitor no rule matches goes. */
export const otherwiseSummary = (language: Language, url: string): string =>
  `${WORDS[language].otherwise} → ${shortDestination(url)}`;

/**
 * A key of the `rule` statistics dimension as a person reads it, numbered as the preview's list of
 * destinations numbers the rules: `0` → `1. iOS → apps.apple.com/app/id1`, `default` →
 * `Otherwise → example.com/pricing`. A key of a rule since removed, or of a link not at hand (the public
 * statistics), is its number alone.
 */
export function ruleKeyLabeller(
  language: Language,
  link: { readonly rules: readonly RuleLike[]; readonly url: string } | null,
): (key: string) => string {
  const rules = link?.rules ?? [];
  return (key) => {
    if (key === 'default')
      return link === null ? WORDS[language].otherwise : otherwiseSummary(language, link.url);
    const rule = /^\d+$/.test(key) ? rules[Number(key)] : undefined;
    const number = /^\d+$/.test(key) ? `${Number(key) + 1}.` : key;
    return rule === undefined ? number : `${number} ${ruleSummary(language, rule)}`;
  };
}
