/** The `fetch` a remote source is given: the app passes one that refuses private addresses (decisions §9). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Waits `ms` milliseconds: injected so that tests of rate limits do not wait for real. */
export type Sleep = (ms: number) => Promise<void>;

/** Where a remote source's API is and how to reach it, as its options give them. */
export interface HttpOptions {
  /** The API's base URL as the operator gave it. */
  readonly url: string;
  readonly fetch: FetchLike;
  readonly sleep?: Sleep | undefined;
}

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
  const headers = { accept: 'application/json', ...auth };
  return {
    async getJson(pathAndQuery) {
      const url = `${base}${pathAndQuery}`;
      const path = pathOf(url);
      for (let attempt = 0; ; attempt += 1) {
        let response: Response;
        try {
          response = await options.fetch(url, { headers, redirect: 'manual' });
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          throw new Error(`${source} could not be reached at ${new URL(url).origin}: ${reason}`);
        }
        if (response.status === 429 && attempt < MAX_WAITS) {
          await response.body?.cancel();
          await sleep(retryDelay(response.headers.get('retry-after'), attempt));
          continue;
        }
        if (!response.ok) {
          await response.body?.cancel();
          throw statusError(source, path, response);
        }
        try {
          return (await response.json()) as unknown;
        } catch {
          throw new Error(`${source} did not answer JSON to GET ${path}`);
        }
      }
    },
  };
}
