/** An old short link taken apart: the row's key, its host and its code. */
export interface ShortLinkParts {
  readonly originalShortUrl: string;
  readonly domain: string | null;
  readonly code: string | null;
}

/**
 * Takes a short link as a source shows it apart: `https://old.example/abc`, `bit.ly/abc` (no scheme: https is
 * assumed to read it) or a bare code. The code is the path without its slashes, decoded; null when the link
 * has no path. A value that is no link at all is a bare code.
 */
export function splitShortUrl(value: string): ShortLinkParts {
  const trimmed = value.trim();
  const looksLikeLink = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) || /^[^/\s]+\.[^/\s]+\//.test(trimmed);
  if (!looksLikeLink) return { originalShortUrl: trimmed, domain: null, code: bareCode(trimmed) };
  try {
    const url = new URL(/:\/\//.test(trimmed) ? trimmed : `https://${trimmed}`);
    const path = url.pathname.replace(/^\/+|\/+$/g, '');
    return {
      originalShortUrl: trimmed,
      domain: url.hostname.toLowerCase(),
      code: path === '' ? null : decode(path),
    };
  } catch {
    return { originalShortUrl: trimmed, domain: null, code: bareCode(trimmed) };
  }
}

/** A code as written, without the slashes around it (YOURLS's export writes `/abc/`); null when empty. */
export function bareCode(value: string): string | null {
  const code = value.trim().replace(/^\/+|\/+$/g, '');
  return code === '' ? null : code;
}

/** The short link a source knows only as a code and a host: `https://host/code`, or the bare code. */
export function joinShortUrl(domain: string | null, code: string): string {
  return domain === null ? code : `https://${domain}/${code}`;
}

function decode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
