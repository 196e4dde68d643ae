/** The configuration variables of decisions §1 (plus `RESERVED_SLUGS`), in the order they are checked. */
export const VARIABLE_NAMES = [
  'PORT',
  'HOST',
  'PUBLIC_BASE_URL',
  'SHORT_DOMAINS',
  'DB_PATH',
  'STORE',
  'TRUST_PROXY',
  'COUNTRY_HEADER',
  'GEOIP_DB',
  'RATE_LIMIT_ANON_HOUR',
  'RATE_LIMIT_ANON_DAY',
  'RATE_LIMIT_KEY_HOUR',
  'ALLOW_PRIVATE_HOSTS',
  'BLOCKLIST_FILE',
  'RESERVED_SLUGS',
  'LOG_LEVEL',
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
  STORE: { value: '<kind>', help: 'sqlite or memory (default sqlite)' },
  TRUST_PROXY: {
    value: '[bool]',
    help: 'take client IP and scheme from X-Forwarded-* headers (default false)',
  },
  COUNTRY_HEADER: {
    value: '<header>',
    help: 'trusted header carrying an ISO country code, e.g. CF-IPCountry',
  },
  GEOIP_DB: { value: '<path>', help: 'MaxMind-format country database (must exist)' },
  RATE_LIMIT_ANON_HOUR: { value: '<n>', help: 'anonymous creations per IP per hour (default 60)' },
  RATE_LIMIT_ANON_DAY: { value: '<n>', help: 'anonymous creations per IP per day (default 300)' },
  RATE_LIMIT_KEY_HOUR: { value: '<n>', help: 'creations per API key per hour (default 1000)' },
  ALLOW_PRIVATE_HOSTS: { value: '[bool]', help: 'allow private and loopback destinations (default false)' },
  BLOCKLIST_FILE: { value: '<path>', help: 'extra host blocklist, one domain per line (must exist)' },
  RESERVED_SLUGS: { value: '<slugs>', help: 'comma-separated slugs to reserve on top of the built-in ones' },
  LOG_LEVEL: { value: '<level>', help: 'debug, info, warn or error (default info)' },
};

/** The `serve` flag of a variable: `RATE_LIMIT_ANON_HOUR` → `--rate-limit-anon-hour`. */
export function flagOf(name: VariableName): string {
  return `--${name.toLowerCase().replaceAll('_', '-')}`;
}
