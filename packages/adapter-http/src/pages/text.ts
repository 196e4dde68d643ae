import type { Language } from '@shortener/core';
import { DE, ES, FR } from './text-translations.js';

/** Every text of the pages, in English; the other languages have the same shape (text-translations.ts). */
export const EN = {
  skip: 'Skip to content',
  home: 'Shorten a link',
  apiDocs: 'API',
  account: 'Your account',
  languages: 'Language',
  intro: 'Paste a long address and get a short link, a QR code and a preview page. No account, no cookies.',
  introSignedIn:
    'Paste a long address and get a short link, a QR code and a preview page. Signed in as {name}: the links you make here go to your account.',
  urlLabel: 'Long URL',
  urlHint: 'http or https; https:// is added when you leave out the scheme.',
  aliasLabel: 'Custom alias (optional)',
  aliasHint: '2-40 characters: a-z, 0-9, - and _. Left empty, a random one is made.',
  aliasChecking: 'Checking…',
  aliasFree: 'Available on {domain}.',
  aliasTaken: 'Already taken on {domain}.',
  aliasReserved: 'Reserved: pick another alias.',
  aliasInvalid: 'Use 2-40 characters: a-z, 0-9, - and _.',
  aliasAlternative: 'Free on {domain}.',
  useDomain: 'Use {domain}',
  domainLabel: 'Short domain',
  options: 'Options',
  titleLabel: 'Title',
  expiresInLabel: 'Expires in (days)',
  expiresAtLabel: 'Expires on',
  startsAtLabel: 'Starts on',
  startsHint: 'Until then the short link answers as if it did not exist.',
  expiryHint: 'Give days or a date, not both.',
  maxClicksLabel: 'Click limit',
  passwordLabel: 'Password',
  passwordHint: '4-64 characters; visitors must enter it before they are sent on.',
  privateStatsLabel: 'Keep statistics private',
  privateStatsHint: 'Only you, with the edit token, can see the clicks.',
  privateStatsHintSignedIn: 'Only you and the administrators can see the clicks.',
  utm: 'UTM parameters',
  submit: 'Shorten',
  failed: 'The link could not be created.',
  networkError: 'The server could not be reached. Try again.',
  resultTitle: 'Your short link',
  copy: 'Copy',
  copied: 'Copied',
  qrTitle: 'QR code',
  qrAlt: 'QR code of {url}',
  downloadPng: 'Download PNG',
  downloadSvg: 'Download SVG',
  previewLink: 'Preview page',
  statsLink: 'Statistics and settings',
  statsJsonLink: 'Statistics (JSON)',
  editTokenTitle: 'Edit token',
  editTokenWarning:
    'Keep this token now: it is shown only once. With it you can edit or delete this link, read its private statistics, and attach it to an account later.',
  editTokenKept:
    '“Statistics and settings” opens with this token: it travels after the # of the address, which is never sent to the server, and this browser tab keeps it (session storage, no cookie) until the tab is closed.',
  tagsLabel: 'Tags (optional)',
  tagsHint: 'Separated by commas; your tags are suggested as you type.',
  another: 'Shorten another link',
  previewTitle: 'Link preview',
  destination: 'Destination',
  destinationHidden: 'Hidden: this link is password protected.',
  destinationDisabled: 'Hidden: this link has been disabled.',
  domain: 'Domain',
  created: 'Created',
  expires: 'Expires',
  starts: 'Starts',
  clickLimit: 'Click limit',
  status: 'Status',
  active: 'Active',
  expired: 'Expired',
  disabled: 'Disabled',
  clicks: 'Clicks',
  chartTitle: 'Clicks in the last 30 days',
  chartSummary: '{count} in the last 30 days, at most {max} on one day.',
  click: ['click', 'clicks'],
  countries: 'Top countries',
  referrers: 'Top referrers',
  noClicks: 'No clicks yet.',
  noVisitsYet: 'No visits yet: the chart appears with the first click.',
  chartTable: 'The days with clicks, as a table',
  dayHeader: 'Day',
  statsPrivate: 'The statistics of this link are private.',
  continue: 'Continue to the link',
  notFound: ['Link not found', 'There is no link at this address. Check it for typos.'],
  expiredPage: ['Link expired', 'This link has expired and no longer leads anywhere.'],
  clickLimitPage: ['Link used up', 'This link has reached its click limit and no longer leads anywhere.'],
  disabledPage: ['Link disabled', 'This link has been disabled by the operator of this service.'],
  passwordPage: ['Password required', 'This link is protected. Enter its password to continue.'],
  passwordSubmit: 'Continue',
  wrongPassword: 'Wrong password. Try again.',
  makeYourOwn: 'Make your own short link',
} as const;

/** The shape of one language's texts. */
export type PageText = {
  readonly [K in keyof typeof EN]: (typeof EN)[K] extends string ? string : readonly [string, string];
};

const TEXTS: Record<Language, PageText> = { en: EN, de: DE, fr: FR, es: ES };

/** The page texts of a language. */
export function textOf(language: Language): PageText {
  return TEXTS[language];
}

/** Fills `{name}` placeholders. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => String(values[name] ?? whole));
}

/** One language's texts of a page, shaped as its English ones. */
export type TextsLike<English> = { readonly [K in keyof English]: string };

/** Picks a page's texts by language. */
export const byLanguage =
  <T>(texts: Readonly<Record<Language, T>>) =>
  (language: Language): T =>
    texts[language];
