/** The instance's API as the extension uses it (docs/api.md): create a link, and check a key. */

/** Where the instance is and the key that speaks for you (the options page sets them). */
export interface Settings {
  /** The instance's address without a trailing slash, e.g. `https://s.example.com`. */
  readonly instance: string;
  readonly key: string;
}

/** The fields of the Link object the extension reads. */
export interface Link {
  readonly id: string;
  readonly short_url: string;
  readonly url: string;
  readonly qr_svg_url: string;
  readonly qr_png_url?: string;
}

/** What the popup sends: `url` and, optionally, an alias, an expiry in days and tags. */
export interface ShortenInput {
  readonly url: string;
  readonly alias?: string;
  readonly expires_in_days?: number;
  readonly tags?: string[];
}

/** A refusal or failure, its message in the instance's words when it answered with one. */
export class InstanceError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null = null,
  ) {
    super(message);
    this.name = 'InstanceError';
  }
}

/**
 * The instance's address as typed, cleaned: `https://` added when no scheme is given, no trailing slash,
 * no query or fragment. Throws on anything that is not an http(s) address.
 */
export function normalizeInstance(text: string): string {
  const trimmed = text.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new Error('The instance address is not a URL, e.g. https://s.example.com');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new Error('The instance address must start with https:// (or http://).');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * The host permission the extension asks for to reach `instance`: its scheme and host, any port (a
 * match pattern carries no port).
 */
export function originPattern(instance: string): string {
  const url = new URL(instance);
  return `${url.protocol}//${url.hostname}/*`;
}

/** The instance's error message, or a plain description of what went wrong. */
async function errorOf(response: Response): Promise<InstanceError> {
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.message === 'string')
      return new InstanceError(
        body.error.message,
        response.status,
        typeof body.error.code === 'string' ? body.error.code : null,
      );
  } catch {
    // not JSON: a proxy's page, say
  }
  const status = `${response.status} ${response.statusText}`.trim();
  return new InstanceError(`The instance answered ${status}.`, response.status);
}

/** A request to the instance with the key; never with cookies. */
async function call(settings: Settings, path: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(`${settings.instance}${path}`, {
      ...init,
      credentials: 'omit',
      headers: { ...init.headers, authorization: `Bearer ${settings.key}`, accept: 'application/json' },
    });
  } catch (error) {
    throw new InstanceError(
      `Could not reach ${settings.instance} (${(error as Error).message}). Check the address, and that ` +
        'this extension may reach it (save the options again).',
      0,
    );
  }
}

/** `POST /api/v1/links`: the new Link, or an {@link InstanceError} in the instance's words. */
export async function shorten(settings: Settings, input: ShortenInput): Promise<Link> {
  const response = await call(settings, '/api/v1/links', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  if (response.status !== 201) throw await errorOf(response);
  return (await response.json()) as Link;
}

/**
 * Checks a key without changing anything (`GET /api/v1/links?limit=1`): `creator` when the instance
 * refuses the read with 403 (a creator key may only create links), `more` when it may read your links
 * too; an {@link InstanceError} when the key is refused (401) or the instance fails.
 */
export async function checkKey(settings: Settings): Promise<'creator' | 'more'> {
  const response = await call(settings, '/api/v1/links?limit=1');
  if (response.ok) {
    await response.body?.cancel();
    return 'more';
  }
  const error = await errorOf(response);
  if (response.status === 403 && error.code === 'forbidden') return 'creator';
  throw error;
}

/** Splits the tags field (`a, b`) into a list; empty entries dropped. */
export const tagsOf = (text: string): string[] =>
  text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
