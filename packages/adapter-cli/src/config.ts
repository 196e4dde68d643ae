import type { HttpOptions } from '@shortener/adapter-http';
import { DEFAULT_LIMITS, parseShortDomain } from '@shortener/core';
import type { ServiceConfig, ShortDomain } from '@shortener/core';
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
  readonly store: { readonly kind: 'sqlite' | 'memory'; readonly dbPath: string };
  /** `GEOIP_DB`: a MaxMind-format country database, or null. */
  readonly geoipDb: string | null;
  readonly logLevel: LogLevel;
}

/** A configuration value that stops start-up. The message is one line and names the variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

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
  return toAppConfig(parsed.data);
}

function toAppConfig(settings: Settings): AppConfig {
  const port = settings.PORT;
  const service: ServiceConfig = {
    shortDomains: settings.SHORT_DOMAINS ?? defaultShortDomains(port),
    baseUrl: settings.PUBLIC_BASE_URL ?? `http://localhost:${port}`,
    extraReservedSlugs: settings.RESERVED_SLUGS,
    blocklist: settings.BLOCKLIST_FILE ?? [],
    allowPrivateHosts: settings.ALLOW_PRIVATE_HOSTS,
    limits: {
      ...DEFAULT_LIMITS,
      anonPerHour: settings.RATE_LIMIT_ANON_HOUR,
      anonPerDay: settings.RATE_LIMIT_ANON_DAY,
      keyPerHour: settings.RATE_LIMIT_KEY_HOUR,
    },
  };
  return {
    service,
    http: { trustProxy: settings.TRUST_PROXY, countryHeader: settings.COUNTRY_HEADER ?? null },
    listen: { port, host: settings.HOST },
    store: { kind: settings.STORE, dbPath: settings.DB_PATH },
    geoipDb: settings.GEOIP_DB ?? null,
    logLevel: settings.LOG_LEVEL,
  };
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
