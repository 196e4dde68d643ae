/**
 * IP host literals: parsing in every notation the WHATWG URL parser accepts, and the private-range test
 * behind `private_host`. The URL parser already normalises what it accepts (`127.1`, `2130706433`,
 * `0x7f.1`, `0177.0.0.1` all become `127.0.0.1`; `[::ffff:127.0.0.1]` becomes `[::ffff:7f00:1]`), but these
 * functions also take raw strings, so they do not depend on having been given a normalised host.
 */

/** An IPv6 address as its eight 16-bit groups. */
export type IPv6Groups = readonly [number, number, number, number, number, number, number, number];

/**
 * Parses an IPv4 literal the way the WHATWG URL host parser does: one to four dot-separated parts, each
 * decimal, octal (leading `0`) or hex (`0x`), the last part filling the remaining bytes, one trailing dot
 * allowed. Returns the address as an unsigned 32-bit number, or null when `host` is not an IPv4 literal.
 */
export function parseIPv4(host: string): number | null {
  const parts = host.trim().split('.');
  if (parts.length > 1 && parts.at(-1) === '') parts.pop();
  if (parts.length > 4) return null;
  const numbers = parts.map(parseIPv4Part);
  let address = 0;
  for (const [index, value] of numbers.entries()) {
    if (value === null) return null;
    const isLast = index === numbers.length - 1;
    const limit = isLast ? 256 ** (5 - numbers.length) : 256;
    if (value >= limit) return null;
    address += isLast ? value : value * 256 ** (3 - index);
  }
  return address;
}

function parseIPv4Part(part: string): number | null {
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(digits)) {
    digits = digits.slice(2);
    radix = 16;
  } else if (digits.length > 1 && digits.startsWith('0')) {
    digits = digits.slice(1);
    radix = 8;
  }
  if (part === '') return null;
  if (digits === '') return 0;
  const valid = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  return valid.test(digits) ? parseInt(digits, radix) : null;
}

/**
 * Parses an IPv6 literal, with or without brackets: `::` compression, an embedded dotted IPv4 tail
 * (`::ffff:127.0.0.1`) and a zone id (`fe80::1%eth0`, ignored). Returns the eight groups, or null.
 */
export function parseIPv6(host: string): IPv6Groups | null {
  let text = host.trim().toLowerCase();
  if (text.startsWith('[') && text.endsWith(']')) text = text.slice(1, -1);
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  if (!text.includes(':')) return null;

  const tailStart = text.lastIndexOf(':') + 1;
  const tail = text.slice(tailStart);
  if (tail.includes('.')) {
    const v4 = parseDottedQuad(tail);
    if (v4 === null) return null;
    text = `${text.slice(0, tailStart)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }

  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0] ?? '');
  const rest = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (head === null || rest === null) return null;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  return [...head, ...new Array<number>(missing).fill(0), ...rest] as unknown as IPv6Groups;
}

function parseGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups = text.split(':');
  return groups.every((group) => /^[0-9a-f]{1,4}$/.test(group)) ? groups.map((g) => parseInt(g, 16)) : null;
}

function parseDottedQuad(text: string): number | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (match === null) return null;
  const bytes = match.slice(1).map(Number);
  return bytes.every((byte) => byte <= 255) ? parseIPv4(text) : null;
}

/** Ranges that must never be a shortened destination: [network, prefix length]. */
const PRIVATE_V4: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, including broadcast 255.255.255.255
];

const PRIVATE_V4_MASKS = PRIVATE_V4.map(([network, bits]) => {
  const shift = 32 - bits;
  return { prefix: (parseIPv4(network) ?? 0) >>> shift, shift };
});

/** Whether an IPv4 address (as an unsigned 32-bit number) is in a private, local or reserved range. */
function isPrivateIPv4(address: number): boolean {
  return PRIVATE_V4_MASKS.some(({ prefix, shift }) => address >>> shift === prefix);
}

/** Whether an IPv6 address is private, or embeds a private IPv4 address in a way that reaches it. */
function isPrivateIPv6(groups: IPv6Groups): boolean {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
  const low32 = ((g6 << 16) | g7) >>> 0;
  const upper64Zero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  // ::/96 holds :: (unspecified), ::1 (loopback) and IPv4-compatible addresses; ::ffff:0:0/96 is
  // IPv4-mapped; ::ffff:0:0:0/96 is IPv4-translated. In all of them the low 32 bits decide.
  if (upper64Zero && ((g4 === 0 && (g5 === 0 || g5 === 0xffff)) || (g4 === 0xffff && g5 === 0))) {
    return isPrivateIPv4(low32);
  }
  if (g0 === 0x64 && g1 === 0xff9b) {
    // 64:ff9b::/96 is well-known NAT64 (embeds IPv4); 64:ff9b:1::/48 is local-use NAT64 (RFC 8215).
    if (g2 === 1) return true;
    if (g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPrivateIPv4(low32);
  }
  if (g0 === 0x2002) return isPrivateIPv4(((g1 << 16) | g2) >>> 0); // 6to4
  if ((g0 & 0xfe00) === 0xfc00) return true; // fc00::/7 unique-local
  if ((g0 & 0xff80) === 0xfe80) return true; // fe80::/10 link-local and deprecated fec0::/10 site-local
  return (g0 & 0xff00) === 0xff00; // ff00::/8 multicast
}

/**
 * Whether `host` is an IP literal (IPv4 in any WHATWG notation, IPv6 with or without brackets) in a
 * loopback, private, link-local, CGNAT, unique-local, unspecified, multicast or reserved range, including
 * IPv4 addresses embedded in IPv6 (mapped, compatible, NAT64, 6to4). Host names are never private here.
 */
export function isPrivateAddress(host: string): boolean {
  for (const candidate of [host, canonicalHost(host)]) {
    if (candidate === null) continue;
    const v4 = parseIPv4(candidate);
    if (v4 !== null) return isPrivateIPv4(v4);
    const v6 = parseIPv6(candidate);
    if (v6 !== null) return isPrivateIPv6(v6);
  }
  return false;
}

/** The URL parser's reading of a raw host (percent-decoding, full-width digits, ideographic dots). */
function canonicalHost(host: string): string | null {
  const text = host.trim();
  if (/[/\\?#@]/.test(text)) return null;
  const literal = text.includes(':') && !text.startsWith('[') ? `[${text}]` : text;
  try {
    return new URL(`http://${literal}/`).hostname;
  } catch {
    return null;
  }
}

/**
 * The key under which a per-IP limit counts `address` (decisions §9): an IPv4 address alone, an IPv6
 * address by its first `ipv6PrefixBits` bits (one host owns a whole /64), written as `network/bits`, an
 * IPv4-mapped one as its IPv4 address. Anything that is not an IPv6 address is its own key.
 */
export function limitSubjectOf(address: string, ipv6PrefixBits: number): string {
  const groups = address.includes(':') ? parseIPv6(address) : null;
  if (groups === null) return address;
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups;
  // An IPv4 client written IPv4-mapped (`::ffff:203.0.113.7`) is that IPv4 client: by its /64 every one
  // of them would share the key of ::/64.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return `${g6 >>> 8}.${g6 & 0xff}.${g7 >>> 8}.${g7 & 0xff}`;
  }
  const bits = Math.min(128, Math.max(0, ipv6PrefixBits));
  const masked = groups.map((group, index) => {
    const keep = Math.min(16, Math.max(0, bits - index * 16));
    return keep === 0 ? 0 : group & ((0xffff << (16 - keep)) & 0xffff);
  });
  return `${masked.map((group) => group.toString(16)).join(':')}/${bits}`;
}
