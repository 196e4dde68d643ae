import type { LinkRecord, RedirectStatus } from './link.js';
import type { RedirectRule, RuleConditions, RuleOs } from './rules.js';
import type { SplitEntry } from './split.js';
import { pickVariant } from './split.js';
import { paramName } from '../urls/utm.js';

/**
 * What the rules may ask about a visit. Each answer is worked out only when a rule asks (a link whose
 * rules name no country never looks one up), so the adapter passes functions.
 */
export interface RouteVisit {
  readonly now: number;
  /** `mobile`, `tablet`, `desktop` or `other`. */
  device(): string;
  /** `ios`, `android`, `windows`, `macos`, `linux` or `other`. */
  os(): RuleOs | 'other';
  /** ISO 3166-1 alpha-2, upper-case, or null when unknown. */
  country(): string | null;
  /** The Accept-Language entries with q > 0 as `language` or `language-REGION` ({@link acceptedLanguages}). */
  languages(): readonly string[];
  /** The value of a query parameter of the request, or null. */
  query(name: string): string | null;
  /** The visitor's daily hash for this link (§4's unique-visitor hash, hex), asked only for a split. */
  visitorHash(): string;
}

/** How a link with routing redirects, worked out once per cached link (decisions §15). */
export interface LinkRouting {
  readonly rules: readonly RedirectRule[];
  readonly forwardQuery: boolean;
  readonly status: RedirectStatus;
  readonly crawlable: boolean;
  /** The split test (decisions §19), or null. */
  readonly split: readonly SplitEntry[] | null;
}

/** Whether a status makes browsers remember the redirect. */
export const isPermanent = (status: RedirectStatus | null): boolean => status === 301 || status === 308;

/**
 * Whether a permanent status would defeat counting or changing the link: rules, a split, a cap, an
 * expiry or a password need every visit to come back (decisions §15, §19).
 */
export const needsEveryVisit = (
  link: Pick<LinkRecord, 'rules' | 'split' | 'maxClicks' | 'expiresAt' | 'passwordHash'>,
): boolean =>
  link.rules.length > 0 ||
  link.split !== null ||
  link.maxClicks !== null ||
  link.expiresAt !== null ||
  link.passwordHash !== null;

/** The status a link's redirect answers with: its own, else the server's (a permanent one only where allowed). */
export function statusOf(link: LinkRecord, serverDefault: RedirectStatus): RedirectStatus {
  if (link.redirectStatus !== null) return link.redirectStatus;
  return isPermanent(serverDefault) && needsEveryVisit(link) ? 302 : serverDefault;
}

/**
 * The routing of a link, or null for a plain one: no rules, no split, no forwarding, not crawlable, and
 * the server's plain status. A plain link's redirect costs what it always did.
 */
export function routingOf(link: LinkRecord, serverDefault: RedirectStatus): LinkRouting | null {
  const status = statusOf(link, serverDefault);
  const { rules, split, forwardQuery, crawlable } = link;
  if (rules.length === 0 && split === null && !forwardQuery && !crawlable && status === serverDefault)
    return null;
  return { rules, forwardQuery, status, crawlable, split };
}

const anyOf = <T>(wanted: readonly T[] | undefined, actual: () => T): boolean =>
  wanted === undefined || wanted.includes(actual());

function holds(when: RuleConditions, visit: RouteVisit): boolean {
  if (when.after !== undefined && visit.now < when.after) return false;
  if (when.before !== undefined && visit.now >= when.before) return false;
  if (!anyOf<string>(when.device, visit.device) || !anyOf<string>(when.os, visit.os)) return false;
  if (when.country !== undefined) {
    const country = visit.country();
    if (country === null || !when.country.includes(country)) return false;
  }
  if (when.language !== undefined && !readsAny(visit.languages(), when.language)) return false;
  if (when.query !== undefined) {
    for (const [name, value] of Object.entries(when.query)) if (visit.query(name) !== value) return false;
  }
  return true;
}

/** The index of the first rule whose conditions all hold, or -1 (the link's own URL). Pure. */
export function pickRule(rules: readonly RedirectRule[], visit: RouteVisit): number {
  for (let i = 0; i < rules.length; i++) if (holds(rules[i]!.when, visit)) return i;
  return -1;
}

/** The statistics key of a picked rule: `0`, `1`, … or `default`. */
export const ruleKey = (index: number): string => (index < 0 ? 'default' : String(index));

/**
 * The destination with the visitor's query parameters added (`forward_query`): a parameter the
 * destination already has keeps the destination's value; the others are appended as sent, in order,
 * before the destination's fragment.
 */
export function forwardQuery(destination: string, visitorQuery: string): string {
  if (visitorQuery === '') return destination;
  const hashAt = destination.indexOf('#');
  const base = hashAt === -1 ? destination : destination.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : destination.slice(hashAt);
  const queryAt = base.indexOf('?');
  const own = queryAt === -1 ? [] : base.slice(queryAt + 1).split('&');
  const taken = new Set(own.filter((pair) => pair !== '').map(paramName));
  const added = visitorQuery.split('&').filter((pair) => pair !== '' && !taken.has(paramName(pair)));
  if (added.length === 0) return destination;
  const joiner = queryAt === -1 ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${joiner}${added.join('&')}${fragment}`;
}

/** Where a routed visit goes, the rule that sent it (null without rules) and the split's entry (null without). */
export interface RoutedVisit {
  readonly url: string;
  readonly rule: string | null;
  readonly variant: string | null;
}

/**
 * Where a visit of a routed link goes: the first rule that holds, else the split's entry chosen by the
 * visitor's daily hash, else the link's URL; with which rule (statistics' `rule`) and which entry
 * (`variant`: `0`, `1`, …) sent it there.
 */
export function routeVisit(
  link: Pick<LinkRecord, 'url'>,
  routing: LinkRouting,
  visit: RouteVisit,
  rawQuery: string,
): RoutedVisit {
  const index = routing.rules.length === 0 ? -1 : pickRule(routing.rules, visit);
  const rule = routing.rules.length === 0 ? null : ruleKey(index);
  let url = index < 0 ? link.url : routing.rules[index]!.url;
  let variant: string | null = null;
  if (index < 0 && routing.split !== null) {
    const picked = pickVariant(routing.split, visit.visitorHash());
    url = routing.split[picked]!.url;
    variant = String(picked);
  }
  return { url: routing.forwardQuery ? forwardQuery(url, rawQuery) : url, rule, variant };
}

/**
 * Whether a visitor's languages hold one a rule asks for (decisions §25): `en` holds for any English
 * (`en`, `en-GB`), `en-US` only for `en-US`.
 */
function readsAny(languages: readonly string[], wanted: readonly string[]): boolean {
  return languages.some(
    (language) => wanted.includes(language) || wanted.includes(language.split('-', 1)[0] ?? ''),
  );
}

/**
 * The Accept-Language entries with q > 0, best first, each as `language-REGION` when it names a region
 * (`en-US`, `es-419`) and `language` when not, the language lower-case and the region upper-case.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (header === undefined || header === '') return [];
  const entries: { language: string; q: number }[] = [];
  for (const part of header.split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    const language = languageOf(tag.trim());
    if (language !== null && q > 0) entries.push({ language, q });
  }
  return [...new Set(entries.sort((a, b) => b.q - a.q).map((e) => e.language))];
}

/** The language and region of a BCP 47 tag through `Intl.Locale`; null for `*` or a bad tag. */
function languageOf(tag: string): string | null {
  if (tag === '' || tag === '*') return null;
  try {
    const locale = new Intl.Locale(tag);
    const language = locale.language.toLowerCase();
    return locale.region === undefined ? language : `${language}-${locale.region.toUpperCase()}`;
  } catch {
    return null;
  }
}
