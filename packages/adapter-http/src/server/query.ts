import { domainError, errorMessage } from '@shortener/core';
import type { Language } from '@shortener/core';
import type Koa from 'koa';
import { sendError } from '../koa-helpers.js';

/** A query string with more parameters than this is refused (400); none of ours needs more than ten. */
export const MAX_QUERY_PARAMS = 100;

/** A parsed query: a string per key, or the values in order when the key repeats (as Koa's). */
export type ParsedQuery = Record<string, string | string[]>;

/**
 * The end of the first `max` `&`-separated parameters of `query` (its length when it has no more), and
 * whether it has more: one scan, which stops at the limit.
 */
function boundOf(query: string, max: number): { end: number; over: boolean } {
  let from = 0;
  for (let count = 1; ; count++) {
    const amp = query.indexOf('&', from);
    if (amp === -1) return { end: query.length, over: false };
    if (count === max) return { end: amp, over: true };
    from = amp + 1;
  }
}

/** Whether `query` (without `?`) has more than {@link MAX_QUERY_PARAMS} parameters. */
export const hasTooManyParams = (query: string): boolean => boundOf(query, MAX_QUERY_PARAMS).over;

/**
 * Parses at most the first {@link MAX_QUERY_PARAMS} parameters of `query`, in linear time: decoding is
 * URLSearchParams' (`+` is a space, bad `%` escapes stay as they are), and a repeated key collects its
 * values into an array. Koa 3's own parser calls `getAll` once per key occurrence, which is quadratic in
 * the number of repeats: 7,000 `a&` took 0.6 s of the event loop.
 */
export function parseQuery(query: string): ParsedQuery {
  const result: ParsedQuery = {};
  if (query === '') return result;
  const params = new URLSearchParams(query.slice(0, boundOf(query, MAX_QUERY_PARAMS).end));
  for (const [key, value] of params) {
    const known = Object.hasOwn(result, key) ? result[key] : undefined;
    if (known === undefined) {
      // defineProperty: a key such as `__proto__` becomes a plain property, not the prototype
      Object.defineProperty(result, key, { value, writable: true, enumerable: true, configurable: true });
    } else if (typeof known === 'string') {
      result[key] = [known, value];
    } else {
      known.push(value);
    }
  }
  return result;
}

/**
 * The first value of `name` in `query` (without `?`), or undefined: looks at the first
 * {@link MAX_QUERY_PARAMS} parameters only and decodes only the match. For the redirect path, which
 * needs `lang` and nothing else.
 */
export function queryParam(query: string, name: string): string | undefined {
  if (query === '') return undefined;
  const { end } = boundOf(query, MAX_QUERY_PARAMS);
  const prefix = `${name}=`;
  for (let from = 0; from <= end;) {
    const amp = query.indexOf('&', from);
    const stop = amp === -1 || amp > end ? end : amp;
    if (query.startsWith(prefix, from) || (stop - from === name.length && query.startsWith(name, from))) {
      return new URLSearchParams(query.slice(from, stop)).get(name) ?? undefined;
    }
    from = stop + 1;
  }
  return undefined;
}

interface QueryCache {
  source: string;
  parsed: ParsedQuery;
}

const CACHE = Symbol('parsedQuery');

/**
 * Replaces `ctx.query` of `app` by {@link parseQuery} (linear, bounded), cached per request like Koa's.
 * Setting `ctx.query` keeps Koa's behaviour.
 */
export function useBoundedQuery(app: Koa): void {
  const base = Object.getPrototypeOf(app.request) as object;
  const original = Object.getOwnPropertyDescriptor(base, 'query');
  Object.defineProperty(app.request, 'query', {
    configurable: true,
    enumerable: true,
    get(this: Koa.Request & { [CACHE]?: QueryCache }): ParsedQuery {
      const source = this.querystring;
      const cached = this[CACHE];
      if (cached?.source === source) return cached.parsed;
      const parsed = parseQuery(source);
      this[CACHE] = { source, parsed };
      return parsed;
    },
    set(this: Koa.Request, value: unknown) {
      original?.set?.call(this, value);
    },
  });
}

/** Middleware: a query string of more than {@link MAX_QUERY_PARAMS} parameters is 400 `invalid_request`. */
export const refuseLongQueries: Koa.Middleware = async (ctx, next) => {
  if (!hasTooManyParams(ctx.querystring)) return next();
  sendError(ctx, domainError('invalid_request', `At most ${MAX_QUERY_PARAMS} query parameters.`), 400);
};

/** The longest search (`q`) or cursor a list page takes: the JSON API's limit, which /openapi.json gives. */
export const MAX_PAGE_TEXT = 200;

/** What a list page (`/account`, `/admin`) searches for: `q` and `cursor`, and whether one is over the limit. */
export interface PageSearch {
  readonly q: string;
  readonly cursor: string;
  /** One was longer than {@link MAX_PAGE_TEXT}: the page answers 400 and lists the first page, unsearched. */
  readonly tooLong: boolean;
}

/** The `q` and `cursor` of a list page's query (trimmed; '' when absent), refused whole when one is too long. */
export function pageSearchOf(query: Record<string, unknown>): PageSearch {
  const text = (name: string) => {
    const value = query[name];
    return typeof value === 'string' ? value : '';
  };
  const [q, cursor] = [text('q'), text('cursor')];
  if (q.length > MAX_PAGE_TEXT || cursor.length > MAX_PAGE_TEXT) return { q: '', cursor: '', tooLong: true };
  return { q: q.trim(), cursor: cursor.trim(), tooLong: false };
}

/** The error a page shows for a too-long search: specific in English, the code's translation otherwise. */
export function searchTooLongMessage(language: Language): string {
  return language === 'en'
    ? `A search may be at most ${MAX_PAGE_TEXT} characters.`
    : errorMessage('invalid_request', language);
}
