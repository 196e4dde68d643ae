import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/**
 * Which proxies in front of the service are believed (decisions §9, `TRUST_PROXY`): none, the nearest
 * `hops` of them, or those whose addresses lie in `ranges` (IP addresses and CIDR ranges).
 */
export type TrustProxy =
  | { readonly kind: 'none' }
  | { readonly kind: 'hops'; readonly hops: number }
  | { readonly kind: 'ranges'; readonly ranges: readonly string[] };

/** Where a request came from, by the proxy rule: never stored, never logged. */
export interface ClientAddress {
  /** The client's IP address (IPv4-mapped IPv6 written as IPv4), or `unknown`. */
  readonly ip: string;
  /** The scheme the client used: the socket's, or `X-Forwarded-Proto` from the trusted hop. */
  readonly protocol: 'http' | 'https';
}

/** Finds the client of a request; built once from the `TRUST_PROXY` setting. */
export type ClientAddressResolver = (req: IncomingMessage) => ClientAddress;

const NO_PROXY: TrustProxy = { kind: 'none' };

/**
 * Parses a `TRUST_PROXY` value: `false`/`0`/`no`, `true`/`yes` (one hop), a number of hops (0-10), or a
 * comma-separated list of IP addresses and CIDR ranges. Returns an error sentence when it is none of
 * these.
 */
export function parseTrustProxy(raw: string): TrustProxy | string {
  const text = raw.trim().toLowerCase();
  if (['false', 'no', '0', ''].includes(text)) return NO_PROXY;
  if (['true', 'yes'].includes(text)) return { kind: 'hops', hops: 1 };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? { kind: 'hops', hops } : 'must be at most 10 hops';
  }
  const ranges = text.split(',').map((part) => part.trim());
  const bad = ranges.find((range) => parseRange(range) === null);
  if (bad !== undefined) {
    return `must be true/false, a number of proxies, or comma-separated proxy IPs and CIDR ranges; "${bad}" is none of these`;
  }
  return { kind: 'ranges', ranges };
}

/** `10.0.0.0/8`, `fd00::/8` or a bare address (a /32 or /128), as BlockList wants it; null when invalid. */
function parseRange(range: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [rawAddress = '', rawPrefix, ...rest] = range.split('/');
  const address = normalizeAddress(rawAddress);
  if (address === null || rest.length > 0) return null;
  const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  const max = family === 'ipv4' ? 32 : 128;
  if (rawPrefix !== undefined && !/^\d{1,3}$/.test(rawPrefix)) return null;
  const prefix = rawPrefix === undefined ? max : Number(rawPrefix);
  return prefix <= max ? { address, prefix, family } : null;
}

/**
 * One address as a proxy wrote it, in canonical form: brackets and ports removed (`[::1]:443`,
 * `1.2.3.4:80`), IPv4-mapped IPv6 as IPv4, lower case. Null for anything that is not an IP address.
 */
export function normalizeAddress(raw: string): string | null {
  let text = raw.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1] ?? '';
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.indexOf(':'));
  if (text.startsWith('::ffff:') && isIP(text.slice(7)) === 4) text = text.slice(7);
  return isIP(text) === 0 ? null : text;
}

/**
 * Builds the one rule every adapter uses to find the client (decisions §9). The chain is
 * `X-Forwarded-For` with the socket's peer appended, read from the right: a trusted entry (one of the
 * nearest `hops`, or inside `ranges`) is skipped, and the first entry left is the client. The leftmost
 * entry is never believed on its own, since the client writes it. When every entry is trusted the
 * leftmost is the client; an entry that is not an IP address ends the walk, and the trusted hop to its
 * right is the client (whoever wrote garbage there is not to be believed). The scheme comes from
 * `X-Forwarded-Proto` as written by the trusted hop nearest the client.
 */
export function createClientAddressResolver(trust: TrustProxy): ClientAddressResolver {
  if (trust.kind === 'none' || (trust.kind === 'hops' && trust.hops === 0)) {
    return (req) => ({ ip: peerOf(req), protocol: socketProtocol(req) });
  }
  const trusted = trustTest(trust);
  // The redirect path asks twice for one request over https (for HSTS, then for the visit): the last
  // answer is kept, so the walk is done once; one comparison otherwise.
  let lastReq: IncomingMessage | null = null;
  let lastClient: ClientAddress = { ip: 'unknown', protocol: 'http' };
  return (req) => {
    if (req !== lastReq) {
      lastClient = resolveForwarded(req, trusted);
      lastReq = req;
    }
    return lastClient;
  };
}

/** The walk of {@link createClientAddressResolver} through `X-Forwarded-For` and the socket's peer. */
function resolveForwarded(
  req: IncomingMessage,
  trusted: (entry: string, hop: number) => boolean,
): ClientAddress {
  const peer = peerOf(req);
  const chain = [...headerList(req.headers['x-forwarded-for']), peer];
  let client = peer;
  let skipped = 0;
  for (let i = chain.length - 1; i >= 0; i--) {
    const entry = normalizeAddress(chain[i] ?? '');
    if (entry === null) break;
    client = entry;
    skipped = chain.length - 1 - i;
    if (!trusted(entry, skipped)) break;
  }
  return { ip: client, protocol: forwardedProtocol(req, skipped) ?? socketProtocol(req) };
}

function trustTest(trust: Exclude<TrustProxy, { kind: 'none' }>): (entry: string, hop: number) => boolean {
  if (trust.kind === 'hops') return (_entry, hop) => hop < trust.hops;
  const list = new BlockList();
  for (const range of trust.ranges) {
    const parsed = parseRange(range);
    if (parsed !== null) list.addSubnet(parsed.address, parsed.prefix, parsed.family);
  }
  return (entry) => list.check(entry, isIP(entry) === 4 ? 'ipv4' : 'ipv6');
}

/**
 * `X-Forwarded-Proto` as written by the trusted hop nearest the client (`skipped` hops were trusted):
 * proxies that append write one entry each, proxies that overwrite leave one; null when no hop is
 * trusted or the value is not http(s).
 */
function forwardedProtocol(req: IncomingMessage, skipped: number): 'http' | 'https' | null {
  if (skipped === 0) return null;
  const entries = headerList(req.headers['x-forwarded-proto']);
  const value = (entries[entries.length - skipped] ?? entries[0])?.toLowerCase();
  return value === 'http' || value === 'https' ? value : null;
}

function headerList(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const joined = Array.isArray(value) ? value.join(',') : value;
  return joined === '' ? [] : joined.split(',').map((part) => part.trim());
}

/** The socket's peer; cheap, since the redirect path asks for it on every click. */
function peerOf(req: IncomingMessage): string {
  const address = req.socket.remoteAddress;
  if (address === undefined) return 'unknown';
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

function socketProtocol(req: IncomingMessage): 'http' | 'https' {
  return (req.socket as { encrypted?: boolean }).encrypted === true ? 'https' : 'http';
}
