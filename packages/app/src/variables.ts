import { REDIRECT_STATUS_WORDS } from '@shortener/core';
/** The configuration variables of decisions §1 (plus `RESERVED_SLUGS`), in the order they are checked. */
export const VARIABLE_NAMES = [
  'PORT',
  'HOST',
  'PUBLIC_BASE_URL',
  'SHORT_DOMAINS',
  'DB_PATH',
  'STORE',
  'DATABASE_URL',
  'REDIS_URL',
  'SQLITE_SYNCHRONOUS',
  'TRUST_PROXY',
  'COUNTRY_HEADER',
  'GEOIP_DB',
  'RATE_LIMIT_ANON_HOUR',
  'RATE_LIMIT_ANON_DAY',
  'RATE_LIMIT_KEY_HOUR',
  'RATE_LIMIT_SIGNUP_HOUR',
  'RATE_LIMIT_IPV6_PREFIX',
  'MCP_ALLOWED_ORIGINS',
  'ALLOW_PRIVATE_HOSTS',
  'WEBHOOK_ALLOW_PRIVATE',
  'AMQP_URL',
  'BLOCKLIST_FILE',
  'RESERVED_SLUGS',
  'SIGNUP',
  'REDIRECT_STATUS',
  'METRICS',
  'METRICS_PORT',
  'LOG_LEVEL',
  'HTTP_HEADERS_TIMEOUT_MS',
  'HTTP_REQUEST_TIMEOUT_MS',
  'HTTP_KEEP_ALIVE_TIMEOUT_MS',
  'HTTP_MAX_CONNECTIONS',
  'HTTP_MAX_CONNECTIONS_PER_ADDRESS',
] as const;

/** The name of a configuration variable. */
export type VariableName = (typeof VARIABLE_NAMES)[number];

/** Raw values by variable name, as found in the environment or given as `serve` flags. */
export type RawSettings = Partial<Record<VariableName, string>>;

/** How a variable is offered as a `serve` flag. */
export interface VariableHelp {
  /** The flag's value placeholder; `[bool]` flags may be given bare, meaning true. */
  readonly value: string;
  readonly help: string;
}

/** Help for each variable's `serve` flag (the README's configuration table says the same). */
export const VARIABLE_HELP: Readonly<Record<VariableName, VariableHelp>> = {
  PORT: { value: '<port>', help: 'listen port, 0 picks a free one (default 3000)' },
  HOST: { value: '<address>', help: 'listen address, 0.0.0.0 in containers (default 127.0.0.1)' },
  PUBLIC_BASE_URL: {
    value: '<url>',
    help: 'where the API, form and docs live (default http://localhost:$PORT)',
  },
  SHORT_DOMAINS: {
    value: '<origins>',
    help: 'comma-separated short-domain origins, the first is the default; a bare host means https://host',
  },
  DB_PATH: {
    value: '<path>',
    help: 'SQLite file, folder created; :memory: allowed (default ./data/shortener.db)',
  },
  STORE: { value: '<kind>', help: 'sqlite, memory or postgres (default sqlite)' },
  DATABASE_URL: { value: '<url>', help: 'with STORE=postgres: the PostgreSQL database, postgres://…' },
  REDIS_URL: {
    value: '<url>',
    help: 'with STORE=postgres: Redis, redis://…, where every node shares the rate limits',
  },
  SQLITE_SYNCHRONOUS: {
    value: '<mode>',
    help: 'normal: a power loss may undo the last commits; full: an fsync per commit (default normal)',
  },
  TRUST_PROXY: {
    value: '<proxies>',
    help: 'proxies to believe about X-Forwarded-For/-Proto: false, true (1), a hop count, or proxy IPs/CIDRs (default false)',
  },
  COUNTRY_HEADER: {
    value: '<header>',
    help: 'trusted header carrying an ISO country code, e.g. CF-IPCountry',
  },
  GEOIP_DB: { value: '<path>', help: 'MaxMind-format country database (must exist)' },
  RATE_LIMIT_ANON_HOUR: { value: '<n>', help: 'anonymous creations per IP per hour (default 60)' },
  RATE_LIMIT_ANON_DAY: { value: '<n>', help: 'anonymous creations per IP per day (default 300)' },
  RATE_LIMIT_KEY_HOUR: { value: '<n>', help: 'creations per API key per hour (default 1000)' },
  RATE_LIMIT_SIGNUP_HOUR: {
    value: '<n>',
    help: 'accounts one IP may sign up per hour with SIGNUP=open (default 3)',
  },
  RATE_LIMIT_IPV6_PREFIX: {
    value: '<bits>',
    help: 'per-IP limits count an IPv6 address by this prefix, 48-128 (default 64)',
  },
  MCP_ALLOWED_ORIGINS: {
    value: '<origins>',
    help: 'extra browser origins allowed to call /mcp (default: {base_url} and the short domains)',
  },
  ALLOW_PRIVATE_HOSTS: { value: '[bool]', help: 'allow private and loopback destinations (default false)' },
  WEBHOOK_ALLOW_PRIVATE: {
    value: '[bool]',
    help: 'webhooks may deliver to private and loopback addresses (default false)',
  },
  AMQP_URL: { value: '<url>', help: 'RabbitMQ, amqp://…: every event is published to shortener.events' },
  BLOCKLIST_FILE: { value: '<path>', help: 'extra host blocklist, one domain per line (must exist)' },
  RESERVED_SLUGS: { value: '<slugs>', help: 'comma-separated slugs to reserve on top of the built-in ones' },
  SIGNUP: {
    value: '<mode>',
    help: 'who gets an account in the browser: invite (operator invites), open (anyone signs up) or closed (default invite)',
  },
  REDIRECT_STATUS: {
    value: '<status>',
    help: `status of redirects whose link sets none: ${REDIRECT_STATUS_WORDS} (default 302; a permanent one falls back to 302 on links with rules, a cap, an expiry or a password)`,
  },
  METRICS: { value: '[bool]', help: 'serve Prometheus metrics at /metrics (default false)' },
  METRICS_PORT: {
    value: '<port>',
    help: 'serve the metrics on this port instead of the main one (implies METRICS)',
  },
  LOG_LEVEL: { value: '<level>', help: 'debug, info, warn or error (default info)' },
  HTTP_HEADERS_TIMEOUT_MS: { value: '<ms>', help: 'time to receive request headers (default 10000)' },
  HTTP_REQUEST_TIMEOUT_MS: { value: '<ms>', help: 'time to receive a whole request (default 30000)' },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: {
    value: '<ms>',
    help: 'idle keep-alive connections close after it (default 5000)',
  },
  HTTP_MAX_CONNECTIONS: { value: '<n>', help: 'open connections in all (default 10000)' },
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: {
    value: '<n>',
    help: 'open connections per client address, 0 = off; not applied behind TRUST_PROXY (default 256)',
  },
};

/** The `serve` flag of a variable: `RATE_LIMIT_ANON_HOUR` → `--rate-limit-anon-hour`. */
export function flagOf(name: VariableName): string {
  return `--${name.toLowerCase().replaceAll('_', '-')}`;
}
