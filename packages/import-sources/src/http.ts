/** The `fetch` a remote source is given: the app passes one that refuses private addresses (decisions §9). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Waits `ms` milliseconds: injected so that tests of rate limits do not wait for real. */
export type Sleep = (ms: number) => Promise<void>;

/** How a remote source tries a failed request again (decisions §25). */
export interface RetryOptions {
  /**
   * The first wait before a request that failed on the network or with a 5xx is tried again, doubled each
   * time ({@link RETRIES} tries): 500 ms unless a test gives less.
   */
  readonly retryBaseMs?: number | undefined;
}

/** Where a remote source's API is and how to reach it, as its options give them. */
export interface HttpOptions extends RetryOptions {
  /** The API's base URL as the operator gave it. */
  readonly url: string;
  readonly fetch: FetchLike;
  readonly sleep?: Sleep | undefined;
}

/** How many times a request that failed on the network or with a 5xx is tried again (decisions §25). */
export const RETRIES = 5;
const RETRY_BASE_MS = 500;

/** Reads JSON from one API: `getJson('/path?query')` resolves against the base URL. */
export interface HttpClient {
  getJson(pathAndQuery: string): Promise<unknown>;
}

const realSleep: Sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** How many 429 answers in a row a request waits out before giving up. */
const MAX_WAITS = 8;
const MAX_WAIT_MS = 60_000;

/** The wait a 429 asks for: `Retry-After` in seconds or as a date, else a doubling backoff from 1 s. */
export function retryDelay(retryAfter: string | null, attempt: number, now = Date.now()): number {
  const backoff = Math.min(1000 * 2 ** attempt, MAX_WAIT_MS);
  if (retryAfter === null || retryAfter.trim() === '') return backoff;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_WAIT_MS);
  const at = Date.parse(retryAfter);
  return Number.isNaN(at) ? backoff : Math.min(Math.max(at - now, 0), MAX_WAIT_MS);
}

const HINTS: Readonly<Record<number, string>> = {
  401: 'the key or token was refused',
  403: 'the key or token was refused',
  404: 'not found: is the URL the right one?',
};

/** An error that names the source, the path and the status: never a header, so never a token. */
function statusError(source: string, path: string, response: Response): Error {
  const location = response.headers.get('location');
  // a redirect is not followed: it would carry the key's header to wherever it points
  const hint =
    response.status >= 300 && response.status < 400
      ? `a redirect${location === null ? '' : ` to ${location}`}: give the address it leads to`
      : (HINTS[response.status] ?? 'the request failed');
  const status = `${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
  return new Error(`${source} answered ${status} to GET ${path}: ${hint}`);
}

/** Network errors by code (the error's or its cause's), in a person's words. */
const NETWORK_WORDS: Readonly<Record<string, string>> = {
  UND_ERR_SOCKET: 'connection closed by the server',
  ECONNRESET: 'connection closed by the server',
  EPIPE: 'connection closed by the server',
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'its name could not be looked up',
  ETIMEDOUT: 'no answer in time',
  UND_ERR_CONNECT_TIMEOUT: 'no answer in time',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_BODY_TIMEOUT: 'no answer in time',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/**
 * What failed on the network, in words, when `error` is a network failure (it, or its cause, carries a
 * system or fetch code: `fetch failed` says nothing of itself); null for another error (an address
 * refused by policy, a body too large), which no retry mends.
 */
export function networkFailure(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return NETWORK_WORDS[code] ?? `${e.message} (${code})`;
  }
  return null;
}

/** The request path without the base, for messages (the query may hold a page number, never a token). */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/**
 * A client for one API, waiting out 429 answers (`Retry-After`, else a backoff) and resuming the request.
 * `source` names the source in errors (`Shlink`); `auth` holds the authentication headers, sent with every
 * request and never shown in an error.
 */
export function createHttpClient(
  source: string,
  options: HttpOptions,
  auth: Readonly<Record<string, string>>,
): HttpClient {
  const base = options.url.replace(/\/+$/, '');
  const sleep = options.sleep ?? realSleep;
  const retryBase = options.retryBaseMs ?? RETRY_BASE_MS;
  const headers = { accept: 'application/json', ...auth };
  return {
    async getJson(pathAndQuery) {
      const url = `${base}${pathAndQuery}`;
      const path = pathOf(url);
      const host = new URL(url).host;
      let waits = 0;
      for (let retries = 0; ;) {
        const answer = await attempt(url, path);
        if (answer.kind === 'json') return answer.value;
        if (answer.kind === 'busy' && waits < MAX_WAITS) {
          await sleep(retryDelay(answer.retryAfter, waits++));
          continue;
        }
        if (answer.kind !== 'failed') throw new Error(answer.reason);
        if (retries >= RETRIES) {
          const after = retries === 1 ? '1 retry' : `${retries} retries`;
          throw new Error(`${host}: ${answer.reason} (after ${after})`);
        }
        await sleep(retryBase * 2 ** retries++);
      }
    },
  };

  /** One request: its JSON, a 429's wait, a failure worth another try (network, 5xx), or one that is not. */
  async function attempt(url: string, path: string): Promise<Attempt> {
    let response: Response;
    try {
      response = await options.fetch(url, { headers, redirect: 'manual' });
    } catch (error) {
      return failed(error, `${source} could not be reached at ${new URL(url).origin}`);
    }
    if (response.status === 429) {
      await response.body?.cancel();
      const reason = statusError(source, path, response).message;
      return { kind: 'busy', retryAfter: response.headers.get('retry-after'), reason };
    }
    if (!response.ok) {
      await response.body?.cancel();
      const reason = statusError(source, path, response).message;
      return { kind: response.status >= 500 ? 'failed' : 'refused', reason };
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      return failed(error, `${source} stopped answering GET ${path}`);
    }
    try {
      return { kind: 'json', value: JSON.parse(text) as unknown };
    } catch {
      return { kind: 'refused', reason: `${source} did not answer JSON to GET ${path}` };
    }
  }
}

/** What one request came to. */
type Attempt =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'busy'; readonly retryAfter: string | null; readonly reason: string }
  | { readonly kind: 'failed' | 'refused'; readonly reason: string };

/** A thrown fetch: a network failure (tried again) named by what failed, else refused as it says. */
function failed(error: unknown, context: string): Attempt {
  const network = networkFailure(error);
  if (network !== null) return { kind: 'failed', reason: network };
  const message = error instanceof Error ? error.message : String(error);
  // fetch's own `fetch failed` says why in its cause (`bad port`)
  const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return { kind: 'refused', reason: `${context}: ${message}${cause}` };
}
