import type { HttpOptions, ServerLimits } from '@shortener/adapter-http';
import { DEFAULT_LIMITS, parseShortDomain } from '@shortener/core';
import type { DomainConfig, HealthConfig, ServiceConfig, ShortDomain, SsoPolicy } from '@shortener/core';
import type { OidcSettings } from './oidc.js';
import type { z } from 'zod';
import { SettingsSchema } from './config-schema.js';
import type { Settings } from './config-schema.js';
import type { LogLevel } from './logger.js';
import { VARIABLE_NAMES } from './variables.js';
import type { RawSettings, VariableName } from './variables.js';

/** Everything the composition root needs, parsed from the environment and the `serve` flags. */
export interface AppConfig {
  readonly service: ServiceConfig;
  readonly http: HttpOptions;
  readonly listen: { readonly port: number; readonly host: string };
  /** Timeouts and connection caps of the HTTP server (`HTTP_*` variables). */
  readonly server: ServerLimits;
  readonly store: {
    readonly kind: 'sqlite' | 'memory' | 'postgres';
    readonly dbPath: string;
    /** `DATABASE_URL`: the PostgreSQL database of `STORE=postgres` (null otherwise). */
    readonly databaseUrl: string | null;
    /** `REDIS_URL`: where the nodes of `STORE=postgres` share their rate limits (null: each its own). */
    readonly redisUrl: string | null;
    /** `SQLITE_SYNCHRONOUS`: whether a commit waits for the disk (`full`) or not (`normal`). */
    readonly synchronous: 'normal' | 'full';
  };
  /** `GEOIP_DB`: a MaxMind-format country database, or null. */
  readonly geoipDb: string | null;
  /** `AMQP_URL`: the RabbitMQ every event is published to (null: none). */
  readonly amqpUrl: string | null;
  /** `VISIT_EVENT_SECONDS`: a link's visits are summed into one `link.visited` this often at most (decisions §26). */
  readonly visitEventSeconds: number;
  /** `IMPORT_RUNNERS`: import jobs this node runs at once, one per account (decisions §25). */
  readonly importRunners: number;
  /** `IMPORT_RETRY_MS`: the first wait before a remote source's failed request is tried again, doubled each time. */
  readonly importRetryMs: number;
  /** `HEALTH_*`: the checks of links' destinations (decisions §23). */
  readonly health: HealthConfig;
  /** Accounts' own domains (decisions §20): where they point, how many, which DNS servers check them. */
  readonly domains: DomainConfig & { readonly dnsServers: readonly string[] };
  readonly logLevel: LogLevel;
  /** Prometheus metrics: on with `METRICS=true` or a `METRICS_PORT` (null: on the main port). */
  readonly metrics: { readonly enabled: boolean; readonly port: number | null };
  /** Sign-in through an OpenID Connect provider (decisions §22); `oidc` null: off. */
  readonly sso: SsoSettings;
}

/** The `OIDC_*` and `PASSWORD_SIGN_IN` settings. */
export interface SsoSettings {
  readonly oidc: OidcSettings | null;
  readonly policy: SsoPolicy;
  readonly buttonLabel: string;
  readonly passwordSignIn: boolean;
  readonly autoRedirect: boolean;
}

/** A configuration value that stops start-up. The message is one line and names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** The command line's exit code for it: a usage error. */
  readonly exitCode = 2;

  constructor(
    /** The variable at fault, e.g. `PORT`. */
    readonly variable: VariableName,
    message: string,
  ) {
    super(message);
  }
}

/** The environment as Node gives it. */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * Parses the configuration of decisions §1 from `env`, where `flags` (the `serve` flags, by variable
 * name) win over it. Blank values count as unset.
 *
 * @throws ConfigError naming the first variable with a bad value, e.g.
 *   `PORT must be an integer from 0 to 65535 (got "abc")`.
 */
export function loadConfig(env: Environment, flags: RawSettings = {}): AppConfig {
  const raw: RawSettings = {};
  for (const name of VARIABLE_NAMES) {
    const value = flags[name] ?? env[name];
    if (value !== undefined && value.trim() !== '') raw[name] = value;
  }
  const parsed = SettingsSchema.safeParse(raw);
  if (!parsed.success) throw configErrorOf(parsed.error, raw);
  const { HTTP_HEADERS_TIMEOUT_MS: headers, HTTP_REQUEST_TIMEOUT_MS: request } = parsed.data;
  if (headers > request) {
    // Node refuses a headers timeout longer than the request timeout
    const message = `HTTP_HEADERS_TIMEOUT_MS must not be more than HTTP_REQUEST_TIMEOUT_MS (${request}) (got "${headers}")`;
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS', message);
  }
  checkScaleOut(parsed.data);
  checkSso(parsed.data);
  return toAppConfig(parsed.data);
}

function toAppConfig(settings: Settings): AppConfig {
  const metrics = {
    enabled: settings.METRICS || settings.METRICS_PORT !== undefined,
    port: settings.METRICS_PORT ?? null,
  };
  const metricsHere = metrics.enabled && metrics.port === null;
  const port = settings.PORT;
  const service: ServiceConfig = {
    shortDomains: settings.SHORT_DOMAINS ?? defaultShortDomains(port),
    baseUrl: settings.PUBLIC_BASE_URL ?? `http://localhost:${port}`,
    // `/metrics` on the main port would hide a link of that name
    extraReservedSlugs: metricsHere ? [...settings.RESERVED_SLUGS, 'metrics'] : settings.RESERVED_SLUGS,
    blocklist: settings.BLOCKLIST_FILE ?? [],
    allowPrivateHosts: settings.ALLOW_PRIVATE_HOSTS,
    webhookAllowPrivate: settings.WEBHOOK_ALLOW_PRIVATE,
    signup: settings.SIGNUP,
    redirectStatus: settings.REDIRECT_STATUS,
    limits: {
      ...DEFAULT_LIMITS,
      anonPerHour: settings.RATE_LIMIT_ANON_HOUR,
      anonPerDay: settings.RATE_LIMIT_ANON_DAY,
      keyPerHour: settings.RATE_LIMIT_KEY_HOUR,
      signupPerHour: settings.RATE_LIMIT_SIGNUP_HOUR,
      ipv6PrefixBits: settings.RATE_LIMIT_IPV6_PREFIX,
    },
  };
  return {
    service,
    http: {
      trustProxy: settings.TRUST_PROXY,
      countryHeader: settings.COUNTRY_HEADER ?? null,
      mcpAllowedOrigins: settings.MCP_ALLOWED_ORIGINS,
      notFoundRedirect: settings.NOT_FOUND_REDIRECT ?? null,
      baseUrlRedirect: settings.BASE_URL_REDIRECT ?? null,
      appLinks: {
        apple: settings.APPLE_APP_SITE_ASSOCIATION ?? null,
        android: settings.ANDROID_ASSET_LINKS ?? null,
      },
    },
    listen: { port, host: settings.HOST },
    server: {
      headersTimeoutMs: settings.HTTP_HEADERS_TIMEOUT_MS,
      requestTimeoutMs: settings.HTTP_REQUEST_TIMEOUT_MS,
      keepAliveTimeoutMs: settings.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: settings.HTTP_MAX_CONNECTIONS,
      maxConnectionsPerAddress: settings.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    },
    store: {
      kind: settings.STORE,
      dbPath: settings.DB_PATH,
      databaseUrl: settings.STORE === 'postgres' ? (settings.DATABASE_URL ?? null) : null,
      redisUrl: settings.REDIS_URL ?? null,
      synchronous: settings.SQLITE_SYNCHRONOUS,
    },
    geoipDb: settings.GEOIP_DB ?? null,
    amqpUrl: settings.AMQP_URL ?? null,
    visitEventSeconds: settings.VISIT_EVENT_SECONDS,
    importRunners: settings.IMPORT_RUNNERS,
    importRetryMs: settings.IMPORT_RETRY_MS,
    health: {
      enabled: settings.HEALTH_CHECKS === 'on',
      intervalMs: settings.HEALTH_CHECK_HOURS * 3_600_000,
      hostGapMs: settings.HEALTH_HOST_GAP_MS,
      failures: settings.HEALTH_FAILURES,
    },
    domains: {
      cname: settings.CUSTOM_DOMAIN_CNAME ?? null,
      ips: settings.CUSTOM_DOMAIN_IPS,
      perAccount: settings.DOMAINS_PER_ACCOUNT,
      dnsServers: settings.DNS_SERVERS,
    },
    logLevel: settings.LOG_LEVEL,
    metrics,
    sso: {
      oidc:
        settings.OIDC_ISSUER === undefined
          ? null
          : {
              issuer: settings.OIDC_ISSUER,
              clientId: settings.OIDC_CLIENT_ID ?? '',
              clientSecret: settings.OIDC_CLIENT_SECRET ?? null,
              scopes: settings.OIDC_SCOPES,
              nameClaim: settings.OIDC_NAME_CLAIM,
              groupsClaim: settings.OIDC_GROUPS_CLAIM,
            },
      policy: {
        allowedGroups: settings.OIDC_ALLOWED_GROUPS,
        adminGroups: settings.OIDC_ADMIN_GROUPS,
        teamGroups: settings.OIDC_TEAM_GROUPS,
      },
      buttonLabel: settings.OIDC_BUTTON_LABEL,
      passwordSignIn: settings.PASSWORD_SIGN_IN === 'on',
      autoRedirect: settings.OIDC_AUTO_REDIRECT === 'on',
    },
  };
}

/** `OIDC_ISSUER` needs its client id; password sign-in can only be off where a provider signs people in. */
function checkSso(settings: Settings): void {
  for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const)
    if (settings[name] !== undefined && settings.OIDC_ISSUER === undefined)
      throw new ConfigError(
        name,
        // a secret is never written out, not even in an error
        `${name} needs OIDC_ISSUER, or it does nothing (got "${name === 'OIDC_CLIENT_SECRET' ? '…' : settings[name]}")`,
      );
  if (settings.OIDC_ISSUER !== undefined && settings.OIDC_CLIENT_ID === undefined)
    throw new ConfigError('OIDC_CLIENT_ID', 'OIDC_CLIENT_ID must be set with OIDC_ISSUER (got "")');
  if (settings.PASSWORD_SIGN_IN === 'off' && settings.OIDC_ISSUER === undefined)
    throw new ConfigError(
      'PASSWORD_SIGN_IN',
      'PASSWORD_SIGN_IN=off needs OIDC_ISSUER: nobody could sign in (got "off")',
    );
}

/** `STORE=postgres` needs `DATABASE_URL`; `REDIS_URL` serves only it (its key's secret is in the database). */
function checkScaleOut(settings: Settings): void {
  if (settings.STORE === 'postgres' && settings.DATABASE_URL === undefined) {
    throw new ConfigError('DATABASE_URL', 'DATABASE_URL must be set when STORE=postgres (got "")');
  }
  if (settings.REDIS_URL !== undefined && settings.STORE !== 'postgres') {
    throw new ConfigError(
      'REDIS_URL',
      `REDIS_URL needs STORE=postgres, where the nodes share the key of the limits (got ${JSON.stringify(settings.REDIS_URL)})`,
    );
  }
}

function defaultShortDomains(port: number): ShortDomain[] {
  return [`http://localhost:${port}`, `http://127.0.0.1:${port}`].map((origin) => parseShortDomain(origin)!);
}

function configErrorOf(error: z.ZodError, raw: RawSettings): ConfigError {
  const issue = error.issues[0];
  // The schema is an object of variables, so every issue's path starts with one.
  const variable = VARIABLE_NAMES.find((name) => name === issue?.path[0]) ?? VARIABLE_NAMES[0];
  const value = raw[variable] ?? '';
  const shown = value.length > 80 ? `${value.slice(0, 77)}...` : value;
  const reason = (issue?.message ?? 'is not valid').replace(/\s+/g, ' ');
  return new ConfigError(variable, `${variable} ${reason} (got ${JSON.stringify(shown)})`);
}
