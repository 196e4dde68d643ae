import { statSync } from 'node:fs';
import { DEFAULT_SERVER_LIMITS } from '@shortener/adapter-http/parts';
import { DEFAULT_DOMAINS_PER_ACCOUNT, DEFAULT_LIMITS, VISIT_EVENT_SECONDS } from '@shortener/core';
import { z } from 'zod';
import {
  blocklist,
  choice,
  claimName,
  dnsServers,
  existingFile,
  flag,
  hostName,
  httpUrl,
  ipList,
  issuerUrl,
  jsonFile,
  integer,
  milliseconds,
  nameList,
  origins,
  positive,
  redirectUrl,
  scopes,
  serviceUrl,
  shortDomains,
  slugList,
  teamGroups,
  trustProxy,
} from './config-values.js';
import { LOG_LEVELS } from './logger.js';
import { VARIABLE_DOCS } from './variable-docs.js';
import type { VariableMeta } from './variable-docs.js';

/** The variables, in the order they are checked. */
const SHAPE = {
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
  STORE: choice(['sqlite', 'memory', 'postgres']).default('sqlite'),
  DATABASE_URL: serviceUrl(['postgres:', 'postgresql:'], 'must be a postgres:// URL').optional(),
  REDIS_URL: serviceUrl(['redis:', 'rediss:'], 'must be a redis:// or rediss:// URL').optional(),
  SQLITE_SYNCHRONOUS: choice(['normal', 'full']).default('normal'),
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
  VISIT_EVENT_SECONDS: integer(1, 86_400, 'must be a whole number of seconds from 1 to 86400').default(
    VISIT_EVENT_SECONDS,
  ),
  IMPORT_RUNNERS: integer(1, 64, 'must be a whole number from 1 to 64').default(2),
  IMPORT_RETRY_MS: integer(10, 60_000, 'must be a whole number of milliseconds from 10 to 60000').default(
    500,
  ),
  HEALTH_CHECKS: choice(['on', 'off']).default('on'),
  HEALTH_CHECK_HOURS: integer(1, 8760, 'must be a whole number of hours from 1 to 8760').default(24),
  HEALTH_HOST_GAP_MS: integer(
    100,
    3_600_000,
    'must be a whole number of milliseconds from 100 to 3600000',
  ).default(2000),
  HEALTH_FAILURES: integer(1, 100, 'must be a whole number from 1 to 100').default(3),
  AMQP_URL: serviceUrl(['amqp:', 'amqps:'], 'must be an amqp:// or amqps:// URL').optional(),
  BLOCKLIST_FILE: blocklist.optional(),
  RESERVED_SLUGS: slugList.default([]),
  APPLE_APP_SITE_ASSOCIATION: jsonFile.optional(),
  ANDROID_ASSET_LINKS: jsonFile.optional(),
  SIGNUP: choice(['invite', 'open', 'closed']).default('invite'),
  CUSTOM_DOMAIN_CNAME: hostName.optional(),
  CUSTOM_DOMAIN_IPS: ipList.default([]),
  DOMAINS_PER_ACCOUNT: integer(0, 1000, 'must be a whole number from 0 to 1000').default(
    DEFAULT_DOMAINS_PER_ACCOUNT,
  ),
  DNS_SERVERS: dnsServers.default([]),
  OIDC_ISSUER: issuerUrl.optional(),
  OIDC_CLIENT_ID: z.string().trim().min(1, 'must not be empty').optional(),
  OIDC_CLIENT_SECRET: z.string().trim().min(1, 'must not be empty').optional(),
  OIDC_SCOPES: scopes.default('openid profile email'),
  OIDC_BUTTON_LABEL: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(60, 'must be at most 60 characters')
    .default('Sign in with SSO'),
  OIDC_NAME_CLAIM: claimName.default('preferred_username'),
  OIDC_GROUPS_CLAIM: claimName.default('groups'),
  OIDC_ALLOWED_GROUPS: nameList.default([]),
  OIDC_ADMIN_GROUPS: nameList.default([]),
  OIDC_TEAM_GROUPS: teamGroups.default([]),
  PASSWORD_SIGN_IN: choice(['on', 'off']).default('on'),
  OIDC_AUTO_REDIRECT: choice(['on', 'off']).default('off'),
  REDIRECT_STATUS: z
    .string()
    .trim()
    .pipe(z.enum(['301', '302', '307', '308'], 'must be 301, 302, 307 or 308'))
    .transform((value) => Number(value) as 301 | 302 | 307 | 308)
    .default(302),
  NOT_FOUND_REDIRECT: redirectUrl.optional(),
  BASE_URL_REDIRECT: redirectUrl.optional(),
  METRICS: flag.default(false),
  METRICS_PORT: integer(1, 65535, 'must be an integer from 1 to 65535').optional(),
  LOG_LEVEL: choice(LOG_LEVELS).default('info'),
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
};

/** Each variable's schema with its description (`VariableMeta`) on it: every variable has one. */
function described<S extends Record<string, z.ZodType>>(shape: S, docs: Record<keyof S, VariableMeta>): S {
  return Object.fromEntries(
    Object.entries(shape).map(([name, schema]) => [name, schema.meta(docs[name as keyof S])]),
  ) as S;
}

/**
 * The schema of the raw settings (environment merged with `serve` flags, blank values removed), one
 * variable a field, each described for `serve --help` and docs/configuration.md (variable-docs.ts). Defaults that
 * depend on the port (`PUBLIC_BASE_URL`, `SHORT_DOMAINS`) are filled in afterwards.
 */
export const SettingsSchema = z.object(described(SHAPE, VARIABLE_DOCS));

/** The parsed settings. */
export type Settings = z.output<typeof SettingsSchema>;
