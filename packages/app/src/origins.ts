import { parseShortDomain } from '@shortener/core';
import type { SettingStore, ShortDomain } from '@shortener/core';
import { ConfigError } from './config.js';
import type { AppConfig, Environment } from './config.js';
import type { RawSettings } from './variables.js';

/** Where `serve` records its origins in the database (decisions §12). */
const RECORDED = { PUBLIC_BASE_URL: 'public_base_url', SHORT_DOMAINS: 'short_domains' } as const;

const originsOf = (domains: readonly ShortDomain[]) => domains.map((d) => d.origin).join(',');

/** `serve`: records the origins links are made and served on, for the commands that open the database. */
export async function recordOrigins(settings: SettingStore, config: AppConfig): Promise<void> {
  await settings.set(RECORDED.PUBLIC_BASE_URL, config.service.baseUrl);
  await settings.set(RECORDED.SHORT_DOMAINS, originsOf(config.service.shortDomains));
}

/**
 * A command on the database (`links …`, `shortener mcp`, …) takes the origins `serve` recorded there,
 * so every short URL it prints or makes is one the server answers. A variable the command's own
 * environment (or flag) sets must agree with the recorded value: otherwise it stops with one line
 * naming the variable. Nothing recorded (no server ran on this database yet): `config` as it is.
 *
 * @throws ConfigError when `PUBLIC_BASE_URL` or `SHORT_DOMAINS` disagrees with the server's.
 */
export async function applyRecordedOrigins(
  config: AppConfig,
  settings: SettingStore,
  env: Environment,
  flags: RawSettings = {},
): Promise<AppConfig> {
  const given = (name: keyof typeof RECORDED) => (flags[name] ?? env[name] ?? '').trim() !== '';
  const baseUrl = await settings.get(RECORDED.PUBLIC_BASE_URL);
  const domains = await settings.get(RECORDED.SHORT_DOMAINS);
  let service = config.service;
  if (baseUrl !== null) {
    if (given('PUBLIC_BASE_URL') && service.baseUrl !== baseUrl) {
      throw disagrees('PUBLIC_BASE_URL', service.baseUrl, baseUrl);
    }
    service = { ...service, baseUrl };
  }
  if (domains !== null) {
    const own = originsOf(service.shortDomains);
    if (given('SHORT_DOMAINS') && own !== domains) throw disagrees('SHORT_DOMAINS', own, domains);
    const parsed = domains.split(',').map((origin) => parseShortDomain(origin));
    if (parsed.length > 0 && parsed.every((d): d is ShortDomain => d !== null)) {
      service = { ...service, shortDomains: parsed };
    }
  }
  return service === config.service ? config : { ...config, service };
}

function disagrees(
  variable: 'PUBLIC_BASE_URL' | 'SHORT_DOMAINS',
  here: string,
  recorded: string,
): ConfigError {
  return new ConfigError(
    variable,
    `${variable} is "${here}" here but "${recorded}" for the server of this database; ` +
      "unset it to use the server's, or restart the server with the new value",
  );
}
