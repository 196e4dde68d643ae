import { readFileSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import { parseTrustProxy } from '@shortener/adapter-http/parts';
import type { TrustProxy } from '@shortener/adapter-http';
import {
  normalizeHost,
  normalizeSlug,
  parseBlocklist,
  parseShortDomain,
  parseTeamGroups,
} from '@shortener/core';
import type { ShortDomain, TeamGroup } from '@shortener/core';
import { loopbackIssuer } from './oidc.js';
import { z } from 'zod';

// The kinds of value the settings take (config-schema.ts). Every check carries its own message: a ConfigError reads `${VARIABLE} ${message} (got "…")`.

export const integer = (min: number, max: number, expectation: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,15}$/, expectation)
    .transform(Number)
    .pipe(z.number().min(min, expectation).max(max, expectation));

export const flag = z.stringbool({
  truthy: ['true', '1', 'yes'],
  falsy: ['false', '0', 'no'],
  error: 'must be true or false (or 1/0, yes/no)',
});

export const positive = integer(1, 1_000_000_000, 'must be a positive integer');

/** A duration in milliseconds, at least `min` and at most an hour. */
export const milliseconds = (min: number) =>
  integer(min, 3_600_000, `must be a number of milliseconds from ${min} to 3600000`);

const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

export const existingFile = z.string().refine(isFile, 'must name an existing file');

export const httpUrl = z.string().transform((raw, ctx) => {
  let url: URL | null = null;
  try {
    url = new URL(raw.trim());
  } catch {
    // reported below
  }
  const plain = url !== null && url.username === '' && url.password === '' && !url.search && !url.hash;
  if (url === null || !plain || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    ctx.addIssue({
      code: 'custom',
      message: 'must be an http(s) URL without query, fragment or credentials',
    });
    return z.NEVER;
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
});

/** Where visitors are sent (`NOT_FOUND_REDIRECT`, `BASE_URL_REDIRECT`): an http(s) URL without credentials. */
export const redirectUrl = z.string().transform((raw, ctx) => {
  const url = URL.canParse(raw.trim()) ? new URL(raw.trim()) : null;
  if (url === null || url.username !== '' || url.password !== '' || !/^https?:$/.test(url.protocol)) {
    ctx.addIssue({ code: 'custom', message: 'must be an http(s) URL without credentials' });
    return z.NEVER;
  }
  return url.href;
});

/** A URL of one of `protocols` (e.g. `postgres:`), as given: the client libraries read the rest. */
export const serviceUrl = (protocols: readonly string[], expectation: string) =>
  z
    .string()
    .trim()
    .refine((raw) => URL.canParse(raw) && protocols.includes(new URL(raw).protocol), expectation);

export const shortDomains = z.string().transform((raw, ctx): ShortDomain[] => {
  const domains: ShortDomain[] = [];
  for (const item of raw.split(',').filter((part) => part.trim() !== '')) {
    const domain = parseShortDomain(item);
    if (domain === null) {
      ctx.addIssue({
        code: 'custom',
        message: `must be comma-separated http(s) origins or hosts; "${item.trim()}" is not`,
      });
      return z.NEVER;
    }
    if (domains.some((known) => known.host === domain.host)) {
      ctx.addIssue({ code: 'custom', message: `must not name ${domain.host} twice` });
      return z.NEVER;
    }
    domains.push(domain);
  }
  if (domains.length === 0) ctx.addIssue({ code: 'custom', message: 'must name at least one origin' });
  return domains;
});

export const trustProxy = z.string().transform((raw, ctx): TrustProxy => {
  const parsed = parseTrustProxy(raw);
  if (typeof parsed !== 'string') return parsed;
  ctx.addIssue({ code: 'custom', message: parsed });
  return z.NEVER;
});

/** Comma-separated http(s) origins, as a browser writes them in `Origin` (no path, query or credentials). */
export const origins = z.string().transform((raw, ctx): string[] => {
  const list: string[] = [];
  for (const item of raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const origin = /^https?:\/\//i.test(item) ? parseShortDomain(item)?.origin : undefined;
    if (origin === undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `must be comma-separated origins such as https://app.example; "${item}" is not`,
      });
      return z.NEVER;
    }
    list.push(origin);
  }
  return list;
});

export const blocklist = z.string().transform((path, ctx): string[] => {
  try {
    return parseBlocklist(readFileSync(path, 'utf8'));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    ctx.addIssue({ code: 'custom', message: `must name a readable file (${String(code ?? error)})` });
    return z.NEVER;
  }
});

/**
 * A file of JSON (an app-links file, decisions §19), read once at start: its text as written, served as
 * is. A missing file or text that is not JSON stops the start with the reason.
 */
export const jsonFile = z.string().transform((path, ctx): string => {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    ctx.addIssue({ code: 'custom', message: `must name a readable file (${String(code ?? error)})` });
    return z.NEVER;
  }
  try {
    JSON.parse(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: `must name a file of JSON (${(error as Error).message})` });
    return z.NEVER;
  }
  return text;
});

export const slugList = z
  .string()
  .transform((raw) => raw.split(',').map(normalizeSlug).filter(Boolean))
  .pipe(
    z.array(z.string().regex(/^[a-z0-9._-]{1,64}$/, 'must be comma-separated slugs such as "pricing,blog"')),
  );

/** One of `values`, without regard to case or surrounding space. */
export const choice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(values, `must be ${values.slice(0, -1).join(', ')} or ${values.at(-1)}`));

/** Comma-separated items, each checked by `read` (null: refused, naming the item and what was expected). */
const commaList = <T>(read: (item: string) => T | null, expectation: string) =>
  z.string().transform((raw, ctx): T[] => {
    const list: T[] = [];
    for (const item of raw
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)) {
      const value = read(item);
      if (value === null) {
        ctx.addIssue({ code: 'custom', message: `must be ${expectation}; "${item}" is not` });
        return z.NEVER;
      }
      list.push(value);
    }
    return list;
  });

/** A DNS name (`links.example.com`), lower-cased, an IDN as punycode. */
export const hostName = z.string().transform((raw, ctx) => {
  const host = normalizeHost(raw);
  if (host === null) {
    ctx.addIssue({ code: 'custom', message: 'must be a host name such as links.example.com' });
    return z.NEVER;
  }
  return host;
});

/** IP addresses, v4 or v6 (`CUSTOM_DOMAIN_IPS`). */
export const ipList = commaList(
  (item) => (isIP(item) === 0 ? null : item.toLowerCase()),
  'comma-separated IP addresses such as 203.0.113.7,2001:db8::7',
);

/** DNS servers as `ip`, `ip:port` or `[ipv6]:port` (`DNS_SERVERS`), as node:dns's setServers takes them. */
export const dnsServers = commaList((item) => {
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/i.exec(item);
  const plain = /^([0-9.]+)(?::(\d{1,5}))?$/.exec(item);
  const [address, port] =
    bracketed !== null
      ? [bracketed[1], bracketed[2]]
      : plain !== null
        ? [plain[1], plain[2]]
        : [item, undefined];
  if (isIP(address ?? '') === 0) return null;
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return null;
  return item;
}, 'comma-separated DNS servers as ip or ip:port, such as 127.0.0.1:5353');

/** Group names as a list (`OIDC_ALLOWED_GROUPS`, `OIDC_ADMIN_GROUPS`): any text but `,`, `=` and `:`. */
export const nameList = commaList(
  (item) => (/[=:]/.test(item) ? null : item),
  'comma-separated group names (group=team:role pairs go in OIDC_TEAM_GROUPS)',
);

/** A claim's name (`OIDC_NAME_CLAIM`, `OIDC_GROUPS_CLAIM`). */
export const claimName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_.:/-]+$/, 'must be a claim name such as preferred_username');

/** `OIDC_SCOPES`: space-separated, `openid` among them. */
export const scopes = z
  .string()
  .trim()
  .refine((text) => text.split(/\s+/).includes('openid'), 'must be space-separated scopes including openid');

/** `OIDC_TEAM_GROUPS`: `group=team:role` pairs (decisions §22). */
export const teamGroups = z.string().transform((raw, ctx): TeamGroup[] => {
  const parsed = parseTeamGroups(raw);
  if (parsed.ok) return parsed.value;
  ctx.addIssue({ code: 'custom', message: `must be group=team:role pairs; ${parsed.error.message}` });
  return z.NEVER;
});

/** `OIDC_ISSUER`: an https URL, or http on a loopback address (a local provider). */
export const issuerUrl = z.string().transform((raw, ctx) => {
  let url: URL | null = null;
  try {
    url = new URL(raw.trim());
  } catch {
    url = null;
  }
  const local = url !== null && url.protocol === 'http:' && loopbackIssuer(url);
  if (url === null || !(url.protocol === 'https:' || local)) {
    ctx.addIssue({ code: 'custom', message: 'must be an https:// URL (http:// only on a loopback address)' });
    return z.NEVER;
  }
  return raw.trim();
});
