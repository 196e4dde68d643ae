import type { Language } from '@shortener/core';

/**
 * The words of statistics and sessions that are keys in the data: device classes, `other`, `unknown`,
 * the `direct` referrer, and the countries view's labels. Browser names (Chrome, Firefox) are names and
 * stay as they are (issue 26: the rest is translated like the rest of the pages).
 */
const EN = {
  desktop: 'Desktop',
  mobile: 'Mobile',
  tablet: 'Tablet',
  other: 'Other',
  unknown: 'Unknown',
  direct: 'Direct (no referrer)',
  otherCountries: 'Other countries',
  unknownCountry: 'Unknown country',
  countriesTable: 'Every country, as a table',
  countryHeader: 'Country',
  shareHeader: 'Share',
};

/** The shape of one language's words. */
export type StatsWords = { readonly [K in keyof typeof EN]: string };

const WORDS: Record<Language, StatsWords> = {
  en: EN,
  de: {
    desktop: 'Computer',
    mobile: 'Handy',
    tablet: 'Tablet',
    other: 'Andere',
    unknown: 'Unbekannt',
    direct: 'Direkt (ohne Referrer)',
    otherCountries: 'Andere Länder',
    unknownCountry: 'Unbekanntes Land',
    countriesTable: 'Alle Länder als Tabelle',
    countryHeader: 'Land',
    shareHeader: 'Anteil',
  },
  fr: {
    desktop: 'Ordinateur',
    mobile: 'Mobile',
    tablet: 'Tablette',
    other: 'Autre',
    unknown: 'Inconnu',
    direct: 'Accès direct (sans référent)',
    otherCountries: 'Autres pays',
    unknownCountry: 'Pays inconnu',
    countriesTable: 'Tous les pays, sous forme de tableau',
    countryHeader: 'Pays',
    shareHeader: 'Part',
  },
  es: {
    desktop: 'Ordenador',
    mobile: 'Móvil',
    tablet: 'Tableta',
    other: 'Otro',
    unknown: 'Desconocido',
    direct: 'Directo (sin referente)',
    otherCountries: 'Otros países',
    unknownCountry: 'País desconocido',
    countriesTable: 'Todos los países, como tabla',
    countryHeader: 'País',
    shareHeader: 'Proporción',
  },
};

/** The statistics words of a language. */
export function statsWordsOf(language: Language): StatsWords {
  return WORDS[language];
}

const KEYS = ['desktop', 'mobile', 'tablet', 'other', 'unknown', 'direct'] as const;

/**
 * A key of a statistics dimension or a session's client as the page's language says it: device
 * classes, `other`, `unknown` and `direct` translated, anything else (a browser, a host) as it is.
 */
export function keyWord(language: Language): (key: string) => string {
  const words = WORDS[language];
  return (key) => ((KEYS as readonly string[]).includes(key) ? words[key as (typeof KEYS)[number]] : key);
}
