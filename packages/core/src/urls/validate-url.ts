import { domainError } from '../errors.js';
import type { ErrorCode } from '../errors.js';
import { err, ok } from '../result.js';
import type { Result } from '../result.js';
import { normalizeDomain } from './blocklist.js';
import { isPrivateAddress, parseIPv4 } from './ip.js';

/** What a destination URL is checked against besides its own shape. */
export interface UrlPolicy {
  /** Hosts (with port when not the default), lower-case, of the short domains and of {base_url}. */
  readonly shortHosts: readonly string[];
  /** Blocked domains, lower-case; a domain also blocks its subdomains. Treated as immutable. */
  readonly blocklist: readonly string[];
  /** `ALLOW_PRIVATE_HOSTS`: intranet installs may shorten private addresses and names. */
  readonly allowPrivateHosts: boolean;
}

/** The longest destination URL accepted, in characters, before and after normalisation. */
export const MAX_URL_LENGTH = 4096;

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
/** What follows `host:` when the text is `host:port[/...]` rather than `scheme:...`. */
const PORT_AFTER_COLON = /^\d+(?:[/?#]|$)/;
const LABEL = /^[a-z0-9_-]{1,63}$/;
/** Names that resolve to the local machine or network (RFC 6761, RFC 6762, RFC 8375, ICANN `.internal`). */
const PRIVATE_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa'];
/** Loopback aliases from common `/etc/hosts` files. */
const PRIVATE_NAMES = ['ip6-localhost', 'ip6-loopback'];

/**
 * Validates and normalises a link destination (decisions §5). The checks run in this order, the first
 * failure wins, and every error carries the field `url`:
 *
 * 1. parse: trimmed; no scheme means `https://` (`example.com:8080/x` is a host and port, not a scheme);
 *    a `%` that starts no escape is encoded (`%25`), so the result is a valid URI;
 *    over {@link MAX_URL_LENGTH} characters or unparsable: `invalid_url`;
 * 2. scheme other than http/https: `unsupported_scheme`;
 * 3. no host or a malformed one (empty label, character outside `a-z0-9-_`): `invalid_url`; this sits after
 *    the scheme check because `mailto:`, `data:` or `file:///` URLs have no host to judge;
 * 4. user name or password in the URL: `invalid_url`;
 * 5. private IP literal in any notation, or a local name (`localhost`, `*.localhost`, `*.local`,
 *    `*.internal`, `*.home.arpa`): `private_host`, unless `policy.allowPrivateHosts`;
 * 6. one of `policy.shortHosts`: `self_reference`;
 * 7. the host or a parent domain on `policy.blocklist`: `unsafe_url`.
 *
 * Single-label names (`intranet`) stay valid: whether intranet names may be shortened is a policy
 * question for the operator's DNS, not a syntax error.
 *
 * @returns the normalised URL (`URL.href`).
 */
export function validateTargetUrl(input: string, policy: UrlPolicy): Result<string> {
  const url = parseTarget(input);
  if (url === null) return fail('invalid_url');
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail('unsupported_scheme');
  if (!isWellFormedHost(url.hostname)) return fail('invalid_url');
  if (url.username !== '' || url.password !== '') return fail('invalid_url');
  const hostname = stripTrailingDot(url.hostname);
  if (!policy.allowPrivateHosts && (isPrivateName(hostname) || isPrivateAddress(hostname))) {
    return fail('private_host');
  }
  if (isShortHost(url, hostname, policy.shortHosts)) return fail('self_reference');
  if (isBlocked(hostname, policy.blocklist)) return fail('unsafe_url');
  return ok(url.href);
}

function fail(code: ErrorCode): Result<never> {
  return err(domainError(code, undefined, 'url'));
}

const BARE_PERCENT = /%(?![0-9A-Fa-f]{2})/g;

function parseTarget(input: string): URL | null {
  const text = input.trim();
  if (text.length > MAX_URL_LENGTH) return null;
  try {
    // a `%` that starts no escape (`/x%zz`) is kept by the URL parser but makes no valid URI: encode it
    const url = new URL(new URL(withScheme(text)).href.replace(BARE_PERCENT, '%25'));
    return url.href.length > MAX_URL_LENGTH ? null : url;
  } catch {
    return null;
  }
}

function withScheme(text: string): string {
  const scheme = SCHEME.exec(text);
  if (scheme !== null && !PORT_AFTER_COLON.test(text.slice(scheme[0].length))) return text;
  return text.startsWith('//') ? `https:${text}` : `https://${text}`;
}

/** The URL parser has vetted IP literals already; names must be dot-separated DNS-like labels. */
function isWellFormedHost(hostname: string): boolean {
  if (hostname.startsWith('[') || parseIPv4(hostname) !== null) return true;
  const name = stripTrailingDot(hostname);
  return name !== '' && name.length <= 253 && name.split('.').every((label) => LABEL.test(label));
}

function stripTrailingDot(hostname: string): string {
  return hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
}

function isPrivateName(hostname: string): boolean {
  return (
    PRIVATE_NAMES.includes(hostname) ||
    PRIVATE_SUFFIXES.some((suffix) => hostname === suffix || hostname.endsWith(`.${suffix}`))
  );
}

/**
 * A short host with a port matches the URL's host and effective port; one without a port matches the
 * host on any port (it stands for the default ports, and a different port on the same name is too close).
 */
function isShortHost(url: URL, hostname: string, shortHosts: readonly string[]): boolean {
  const port = url.port !== '' ? url.port : url.protocol === 'https:' ? '443' : '80';
  return shortHosts.some((entry) => {
    const short = splitShortHost(entry);
    return short !== null && short.hostname === hostname && (short.port === '' || short.port === port);
  });
}

/** The settings' few short hosts, split once each rather than parsed again for every destination. */
const shortHostParts = new Map<string, { hostname: string; port: string } | null>();

function splitShortHost(entry: string): { hostname: string; port: string } | null {
  if (!shortHostParts.has(entry)) {
    if (shortHostParts.size >= 64) shortHostParts.clear();
    shortHostParts.set(entry, splitHostPort(entry));
  }
  return shortHostParts.get(entry) ?? null;
}

function splitHostPort(entry: string): { hostname: string; port: string } | null {
  const text = entry.trim().toLowerCase();
  const port = /^(?:\[[^\]]*\]|[^:]*):(\d+)$/.exec(text)?.[1];
  try {
    const { hostname } = new URL(`http://${text}/`);
    return { hostname: stripTrailingDot(hostname), port: port === undefined ? '' : String(Number(port)) };
  } catch {
    return null;
  }
}

const blocklistSets = new WeakMap<readonly string[], ReadonlySet<string>>();

function isBlocked(hostname: string, blocklist: readonly string[]): boolean {
  if (blocklist.length === 0) return false;
  let blocked = blocklistSets.get(blocklist);
  if (blocked === undefined) {
    blocked = new Set(blocklist.map(normalizeDomain));
    blocklistSets.set(blocklist, blocked);
  }
  // IP literals match exactly; `4.3.2.1` is not a subdomain of `3.2.1`.
  if (hostname.startsWith('[') || parseIPv4(hostname) !== null) return blocked.has(hostname);
  const labels = hostname.split('.');
  return labels.some((_, index) => blocked.has(labels.slice(index).join('.')));
}
