import { readFileSync, statSync } from 'node:fs';
import { parseTrustProxy } from '@shortener/adapter-http';
import type { TrustProxy } from '@shortener/adapter-http';
import { DEFAULT_LIMITS, normalizeSlug, parseBlocklist, parseShortDomain } from '@shortener/core';
import type { ShortDomain } from '@shortener/core';
import { z } from 'zod';
import { DEFAULT_SERVER_LIMITS } from '@shortener/adapter-http';
import { LOG_LEVELS } from './logger.js';

// Every check carries its own message: a ConfigError reads `${VARIABLE} ${message} (got "…")`.

const integer = (min: number, max: number, expectation: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,15}$/, expectation)
    .transform(Number)
    .pipe(z.number().min(min, expectation).max(max, expectation));

const flag = z.stringbool({
  truthy: ['true', '1', 'yes'],
  falsy: ['false', '0', 'no'],
  error: 'must be true or false (or 1/0, yes/no)',
});

const positive = integer(1, 1_000_000_000, 'must be a positive integer');

/** A duration in milliseconds, at least `min` and at most an hour. */
const milliseconds = (min: number) =>
  integer(min, 3_600_000, `must be a number of milliseconds from ${min} to 3600000`);

const isFile = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

const existingFile = z.string().refine(isFile, 'must name an existing file');

const httpUrl = z.string().transform((raw, ctx) => {
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

/** A URL of one of `protocols` (e.g. `postgres:`), as given: the client libraries read the rest. */
const serviceUrl = (protocols: readonly string[], expectation: string) =>
  z
    .string()
    .trim()
    .refine((raw) => URL.canParse(raw) && protocols.includes(new URL(raw).protocol), expectation);

const shortDomains = z.string().transform((raw, ctx): ShortDomain[] => {
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

const trustProxy = z.string().transform((raw, ctx): TrustProxy => {
  const parsed = parseTrustProxy(raw);
  if (typeof parsed !== 'string') return parsed;
  ctx.addIssue({ code: 'custom', message: parsed });
  return z.NEVER;
});

/** Comma-separated http(s) origins, as a browser writes them in `Origin` (no path, query or credentials). */
const origins = z.string().transform((raw, ctx): string[] => {
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

const blocklist = z.string().transform((path, ctx): string[] => {
  try {
    return parseBlocklist(readFileSync(path, 'utf8'));
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    ctx.addIssue({ code: 'custom', message: `must name a readable file (${String(code ?? error)})` });
    return z.NEVER;
  }
});

const slugList = z
  .string()
  .transform((raw) => raw.split(',').map(normalizeSlug).filter(Boolean))
  .pipe(
    z.array(z.string().regex(/^[a-z0-9._-]{1,64}$/, 'must be comma-separated slugs such as "pricing,blog"')),
  );

/**
 * The schema of the raw settings (environment merged with `serve` flags, blank values removed). Defaults
 * that depend on the port (`PUBLIC_BASE_URL`, `SHORT_DOMAINS`) are filled in afterwards.
 */
export const SettingsSchema = z.object({
  PORT: integer(0, 65535, 'must be an integer from 0 to 65535').default(3000),
  HOST: z
    .string()
    .trim()
    .regex(/^[^\s/]+$/, 'must be a host name or an IP address')
    .default('127.0.0.1'),
  PUBLIC_BASE_URL: httpUrl.optional(),
  SHORT_DOMAINS: shortDomains.optional(),
  DB_PATH: z
    .string()
    .refine(
      (path) => statSync(path, { throwIfNoEntry: false })?.isDirectory() !== true,
      'must be a file, not a folder',
    )
    .default('./data/shortener.db'),
  STORE: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['sqlite', 'memory', 'postgres'], 'must be sqlite, memory or postgres'))
    .default('sqlite'),
  DATABASE_URL: serviceUrl(['postgres:', 'postgresql:'], 'must be a postgres:// URL').optional(),
  REDIS_URL: serviceUrl(['redis:', 'rediss:'], 'must be a redis:// or rediss:// URL').optional(),
  SQLITE_SYNCHRONOUS: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['normal', 'full'], 'must be normal or full'))
    .default('normal'),
  TRUST_PROXY: trustProxy.default({ kind: 'none' }),
  COUNTRY_HEADER: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[!#$%&'*+.^_`|~0-9a-z-]+$/, 'must be an HTTP header name such as cf-ipcountry')
    .optional(),
  GEOIP_DB: existingFile.optional(),
  RATE_LIMIT_ANON_HOUR: positive.default(DEFAULT_LIMITS.anonPerHour),
  RATE_LIMIT_ANON_DAY: positive.default(DEFAULT_LIMITS.anonPerDay),
  RATE_LIMIT_KEY_HOUR: positive.default(DEFAULT_LIMITS.keyPerHour),
  RATE_LIMIT_SIGNUP_HOUR: positive.default(DEFAULT_LIMITS.signupPerHour),
  RATE_LIMIT_IPV6_PREFIX: integer(48, 128, 'must be an integer from 48 to 128').default(
    DEFAULT_LIMITS.ipv6PrefixBits,
  ),
  MCP_ALLOWED_ORIGINS: origins.default([]),
  ALLOW_PRIVATE_HOSTS: flag.default(false),
  WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  AMQP_URL: serviceUrl(['amqp:', 'amqps:'], 'must be an amqp:// or amqps:// URL').optional(),
  BLOCKLIST_FILE: blocklist.optional(),
  RESERVED_SLUGS: slugList.default([]),
  SIGNUP: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['invite', 'open', 'closed'], 'must be invite, open or closed'))
    .default('invite'),
  REDIRECT_STATUS: z
    .string()
    .trim()
    .pipe(z.enum(['301', '302', '307', '308'], 'must be 301, 302, 307 or 308'))
    .transform((value) => Number(value) as 301 | 302 | 307 | 308)
    .default(302),
  METRICS: flag.default(false),
  METRICS_PORT: integer(1, 65535, 'must be an integer from 1 to 65535').optional(),
  LOG_LEVEL: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(LOG_LEVELS, 'must be debug, info, warn or error'))
    .default('info'),
  HTTP_HEADERS_TIMEOUT_MS: milliseconds(100).default(DEFAULT_SERVER_LIMITS.headersTimeoutMs),
  HTTP_REQUEST_TIMEOUT_MS: milliseconds(100).default(DEFAULT_SERVER_LIMITS.requestTimeoutMs),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: milliseconds(1).default(DEFAULT_SERVER_LIMITS.keepAliveTimeoutMs),
  HTTP_MAX_CONNECTIONS: integer(1, 1_000_000, 'must be an integer from 1 to 1000000').default(
    DEFAULT_SERVER_LIMITS.maxConnections,
  ),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: integer(
    0,
    1_000_000,
    'must be an integer from 0 (off) to 1000000',
  ).default(DEFAULT_SERVER_LIMITS.maxConnectionsPerAddress),
});

/** The parsed settings. */
export type Settings = z.output<typeof SettingsSchema>;
