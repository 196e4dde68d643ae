import { ERROR_CODES, domainError, err, isLinkId, locateSlug, ok } from '@shortener/core';
import type { AliasCheckView, DomainError, ErrorCode, LinkView, Result, TagCount } from '@shortener/core';
import { CliError, usageError } from '../cli-io.js';
import { andThen } from './client.js';
import type { LinkListView, ShortenerClient } from './client.js';

/** Where the server is and the credentials to send. */
export interface RemoteSettings {
  /** The server's base URL, e.g. `https://sho.example`. */
  readonly server: string;
  /** `Authorization: Bearer <key>`. */
  readonly key: string | null;
  /** `X-Edit-Token` of an anonymous link. */
  readonly token: string | null;
}

type Query = Record<string, string | number | readonly string[] | undefined>;

/**
 * The client on a server's HTTP API. Links named by short URL or slug are looked up among the key's
 * links; without a key only ids work (with `--token` for an anonymous link). Bare slugs use the first
 * short domain, which the server names in `/openapi.json`.
 */
export function createRemoteClient(settings: RemoteSettings): ShortenerClient {
  const http = createHttp(settings);
  const { located, find } = createLookup(http, settings);
  const idOf = async (reference: string): Promise<Result<string>> => {
    if (isLinkId(reference.trim())) return ok(reference.trim());
    const link = await find(reference);
    return link.ok ? ok(link.value.id) : link;
  };
  const withId = <T>(reference: string, then: (id: string) => Promise<Result<T>>) =>
    andThen(idOf(reference), then);

  return {
    create: (input) => http.call('POST', '/api/v1/links', undefined, input),
    list: (query) => http.call('GET', '/api/v1/links', { ...query }),
    get: find,
    update: (reference, input) =>
      withId(reference, (id) => http.call('PATCH', `/api/v1/links/${id}`, undefined, input)),
    remove: async (reference) => {
      const link = await find(reference);
      if (!link.ok) return link;
      const deleted = await http.call('DELETE', `/api/v1/links/${link.value.id}`);
      return deleted.ok ? link : deleted;
    },
    setDisabled: () => Promise.reject(usageError(OPERATOR_ONLY)),
    stats: (reference, query) =>
      withId(reference, (id) =>
        http.call('GET', `/api/v1/links/${id}/stats`, {
          days: query.days,
          from: query.from,
          to: query.to,
          tz: query.tz,
        }),
      ),
    check: (input) => http.call('GET', '/api/v1/check', { slug: input.slug, domain: input.domain }),
    checkHealth: (reference, onWait) =>
      withId(reference, async (id) => {
        for (let waits = 0; ; waits += 1) {
          const answer = await http.send<LinkView>('POST', `/api/v1/links/${id}/check`);
          const limited = !answer.result.ok && answer.result.error.code === 'rate_limited';
          if (!limited || waits >= CHECK_WAITS) return answer.result;
          const seconds = answer.retryAfter ?? MINUTE_S;
          onWait?.(seconds);
          await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        }
      }),
    tags: async () => {
      const listed = await http.call<{ tags: TagCount[] }>('GET', '/api/v1/tags');
      return listed.ok ? ok(listed.value.tags) : listed;
    },
    claim: async (tokens) => {
      const claimed = await http.call<{ claimed: number }>('POST', '/api/v1/links/claim', undefined, {
        edit_tokens: tokens,
      });
      return claimed.ok ? ok(claimed.value.claimed) : claimed;
    },
    shortUrl: async (reference) => {
      if (isLinkId(reference.trim())) {
        const link = await find(reference);
        return link.ok ? ok(link.value.short_url) : link;
      }
      const where = await located(reference);
      if (where === null) return err(domainError('not_found'));
      const check = await http.call<AliasCheckView>('GET', '/api/v1/check', {
        slug: where.slug,
        domain: where.host,
      });
      if (!check.ok) return check;
      return check.value.status === 'taken'
        ? ok(`${where.origin}/${where.slug}`)
        : err(domainError('not_found'));
    },
    exportPage: (cursor) =>
      http.call('GET', '/api/v1/links', { limit: EXPORT_PAGE, cursor: cursor ?? undefined }),
    backup: () => Promise.reject(usageError(OPERATOR_ONLY)),
    close: async () => undefined,
  };
}

const EXPORT_PAGE = 200;
/** Times `checkHealth` waits for the server's limit on one link before it gives up. */
const CHECK_WAITS = 5;
/** The wait at the limit when the server names none (its window is a minute). */
const MINUTE_S = 60;
const NEEDS_KEY = 'Without --key, name the link by its id (and give --token for an anonymous link).';
const OPERATOR_ONLY =
  'this command works on the database only: run it on the server machine without --server and --key';

/** An answer of the server: its result, and the seconds of its `Retry-After` (null without one). */
interface Answer<T> {
  readonly result: Result<T>;
  readonly retryAfter: number | null;
}

/** JSON requests to the server. */
interface Http {
  call<T>(method: string, path: string, query?: Query, body?: unknown): Promise<Result<T>>;
  send<T>(method: string, path: string, query?: Query, body?: unknown): Promise<Answer<T>>;
}

interface OpenApi {
  readonly paths?: Record<string, { readonly servers?: readonly { readonly url: string }[] }>;
}

/** Finds links by reference through the API: ids directly, short URLs and slugs among the key's links. */
function createLookup(http: Http, settings: RemoteSettings) {
  let defaultOrigin: Promise<string> | null = null;
  const originOf = async (reference: string): Promise<string> => {
    if (reference.includes('/'))
      return new URL(/^https?:\/\//i.test(reference) ? reference : `https://${reference}`).origin;
    defaultOrigin ??= http.call<OpenApi>('GET', '/openapi.json').then((doc) => {
      const origin = doc.ok ? doc.value.paths?.['/{slug}']?.servers?.[0]?.url : undefined;
      if (origin === undefined)
        throw new CliError(`${settings.server} does not look like a shortener server`, 1);
      return origin;
    });
    return defaultOrigin;
  };
  const located = async (reference: string) => {
    const origin = await originOf(reference.trim());
    const where = locateSlug(reference, new URL(origin).host);
    return where === null ? null : { ...where, origin };
  };
  const find = async (reference: string): Promise<Result<LinkView>> => {
    if (isLinkId(reference.trim())) return http.call('GET', `/api/v1/links/${reference.trim()}`);
    const where = await located(reference);
    if (where === null) return err(domainError('not_found'));
    if (settings.key === null) return err(domainError('invalid_request', NEEDS_KEY));
    for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
      const page = await http.call<LinkListView>('GET', '/api/v1/links', {
        q: where.slug,
        limit: 200,
        cursor,
      });
      if (!page.ok) return page;
      const link = page.value.links.find((l) => l.domain === where.host && l.slug === where.slug);
      if (link) return ok(link);
      cursor = page.value.next_cursor ?? undefined;
    }
    return err(domainError('not_found'));
  };
  return { located, find };
}

/** JSON requests to the server: the value of a 2xx answer, or the error object of any other. */
function createHttp(settings: RemoteSettings): Http {
  const base = settings.server.replace(/\/+$/, '');
  const headers = (body: unknown): Record<string, string> => ({
    accept: 'application/json',
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(settings.key === null ? {} : { authorization: `Bearer ${settings.key}` }),
    ...(settings.token === null ? {} : { 'x-edit-token': settings.token }),
  });
  const send = async <T>(
    method: string,
    path: string,
    query: Query = {},
    body?: unknown,
  ): Promise<Answer<T>> => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (Array.isArray(value)) for (const item of value as readonly string[]) search.append(name, item);
      else if (value !== undefined) search.set(name, String(value));
    }
    const url = `${base}${path}${search.size === 0 ? '' : `?${search}`}`;
    let response: Response;
    try {
      const init = {
        method,
        headers: headers(body),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      };
      response = await fetch(url, init);
    } catch (error) {
      throw new CliError(`cannot reach ${base}: ${reasonOf(error)} (unreachable)`, 1);
    }
    const text = await response.text();
    const json = parseJson(text);
    const retryAfter = secondsOf(response.headers.get('retry-after'));
    if (response.ok) return { result: ok((json ?? null) as T), retryAfter };
    return { result: err(errorOf(json, response.status)), retryAfter };
  };
  const call = async <T>(method: string, path: string, query?: Query, body?: unknown) =>
    (await send<T>(method, path, query, body)).result;
  return { call, send };
}

/** `Retry-After` in whole seconds, at least 1: its delta-seconds or HTTP date; null without one. */
function secondsOf(header: string | null): number | null {
  if (header === null || header.trim() === '') return null;
  const value = /^\d+$/.test(header.trim())
    ? Number(header.trim())
    : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(value) ? Math.max(1, Math.ceil(value)) : null;
}

function parseJson(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

function errorOf(body: unknown, status: number): DomainError {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const code = ERROR_CODES.find((c) => c === error?.code) ?? ('internal_error' satisfies ErrorCode);
  const message = typeof error?.message === 'string' ? error.message : `The server answered ${status}.`;
  return { code, message };
}

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}
