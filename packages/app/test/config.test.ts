import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_SERVER_LIMITS } from '@shortener/adapter-http';
import { DEFAULT_LIMITS } from '@shortener/core';
import { describe, expect, it } from 'vitest';
import { ConfigError, VARIABLE_NAMES, loadConfig } from '../src/index.js';
import type { VariableName } from '../src/index.js';
import { tempDir } from './temp-dir.js';

const dir = tempDir();
const geoip = join(dir, 'country.mmdb');
writeFileSync(geoip, 'not really a database');
const blocklistFile = join(dir, 'blocklist.txt');
writeFileSync(blocklistFile, '# bad hosts\nEvil.Example\n0.0.0.0 *.phish.example # hosts-file style\n');
mkdirSync(join(dir, 'folder'));
const notJson = join(dir, 'apple-app-site-association');
writeFileSync(notJson, '{ "applinks": { "details": [ }');

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('uses the documented defaults when no variable is set', () => {
    const config = loadConfig({});
    expect(config.listen).toEqual({ port: 3000, host: '127.0.0.1' });
    expect(config.service.baseUrl).toBe('http://localhost:3000');
    expect(config.service.shortDomains).toEqual([
      { origin: 'http://localhost:3000', host: 'localhost:3000' },
      { origin: 'http://127.0.0.1:3000', host: '127.0.0.1:3000' },
    ]);
    expect(config.store).toEqual({
      kind: 'sqlite',
      dbPath: './data/shortener.db',
      databaseUrl: null,
      redisUrl: null,
      synchronous: 'normal',
    });
    expect(config.http).toEqual({
      trustProxy: { kind: 'none' },
      countryHeader: null,
      mcpAllowedOrigins: [],
      notFoundRedirect: null,
      baseUrlRedirect: null,
      appLinks: { apple: null, android: null },
    });
    expect(config.geoipDb).toBeNull();
    expect(config.service.limits).toEqual(DEFAULT_LIMITS);
    expect(config.service.allowPrivateHosts).toBe(false);
    expect(config.service.blocklist).toEqual([]);
    expect(config.service.extraReservedSlugs).toEqual([]);
    expect(config.logLevel).toBe('info');
  });

  it('derives the default base URL and short domains from PORT', () => {
    const config = loadConfig({ PORT: '8080' });
    expect(config.service.baseUrl).toBe('http://localhost:8080');
    expect(config.service.shortDomains.map((d) => d.origin)).toEqual([
      'http://localhost:8080',
      'http://127.0.0.1:8080',
    ]);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      PUBLIC_BASE_URL: 'https://sho.example/',
      SHORT_DOMAINS: 's.example, http://t.example:8080',
      DB_PATH: ':memory:',
      STORE: 'memory',
      SQLITE_SYNCHRONOUS: 'Full',
      TRUST_PROXY: 'yes',
      COUNTRY_HEADER: 'CF-IPCountry',
      GEOIP_DB: geoip,
      RATE_LIMIT_ANON_HOUR: '10',
      RATE_LIMIT_ANON_DAY: '20',
      RATE_LIMIT_KEY_HOUR: '30',
      RATE_LIMIT_IPV6_PREFIX: '56',
      MCP_ALLOWED_ORIGINS: 'https://App.example, http://localhost:5173/',
      ALLOW_PRIVATE_HOSTS: '1',
      BLOCKLIST_FILE: blocklistFile,
      RESERVED_SLUGS: 'Pricing, blog,,',
      SIGNUP: ' Open ',
      REDIRECT_STATUS: '307',
      NOT_FOUND_REDIRECT: ' https://example.com/sorry?from=short ',
      BASE_URL_REDIRECT: 'https://example.com/',
      LOG_LEVEL: 'DEBUG',
    });
    expect(config.service.signup).toBe('open');
    expect(config.service.redirectStatus).toBe(307);
    expect(config.listen).toEqual({ port: 0, host: '0.0.0.0' });
    expect(config.service.baseUrl).toBe('https://sho.example');
    expect(config.service.shortDomains).toEqual([
      { origin: 'https://s.example', host: 's.example' },
      { origin: 'http://t.example:8080', host: 't.example:8080' },
    ]);
    expect(config.store).toEqual({
      kind: 'memory',
      dbPath: ':memory:',
      databaseUrl: null,
      redisUrl: null,
      synchronous: 'full',
    });
    expect(config.http).toEqual({
      trustProxy: { kind: 'hops', hops: 1 },
      countryHeader: 'cf-ipcountry',
      mcpAllowedOrigins: ['https://app.example', 'http://localhost:5173'],
      notFoundRedirect: 'https://example.com/sorry?from=short',
      baseUrlRedirect: 'https://example.com/',
      appLinks: { apple: null, android: null },
    });
    expect(config.geoipDb).toBe(geoip);
    expect(config.service.limits).toMatchObject({
      anonPerHour: 10,
      anonPerDay: 20,
      keyPerHour: 30,
      ipv6PrefixBits: 56,
    });
    expect(config.service.allowPrivateHosts).toBe(true);
    expect(config.service.blocklist).toEqual(['evil.example', '0.0.0.0', 'phish.example']);
    expect(config.service.extraReservedSlugs).toEqual(['pricing', 'blog']);
    expect(config.logLevel).toBe('debug');
  });

  it('accepts true/false, 1/0 and yes/no for switches', () => {
    for (const [raw, value] of [
      ['true', true],
      ['FALSE', false],
      ['1', true],
      ['0', false],
      ['Yes', true],
      ['no', false],
    ] as const) {
      expect(loadConfig({ ALLOW_PRIVATE_HOSTS: raw }).service.allowPrivateHosts).toBe(value);
    }
  });

  it('reads TRUST_PROXY as a switch, a hop count or a list of proxy addresses', () => {
    const trust = (raw: string) => loadConfig({ TRUST_PROXY: raw }).http.trustProxy;
    expect(trust('false')).toEqual({ kind: 'none' });
    expect(trust('true')).toEqual({ kind: 'hops', hops: 1 });
    expect(trust('1')).toEqual({ kind: 'hops', hops: 1 });
    expect(trust('2')).toEqual({ kind: 'hops', hops: 2 });
    expect(trust('10.0.0.0/8, 192.168.1.5,fd00::/8')).toEqual({
      kind: 'ranges',
      ranges: ['10.0.0.0/8', '192.168.1.5', 'fd00::/8'],
    });
  });

  it('treats blank values as unset', () => {
    expect(loadConfig({ PORT: ' ', SHORT_DOMAINS: '', LOG_LEVEL: '' }).listen.port).toBe(3000);
  });

  it('lets serve flags win over the environment', () => {
    const config = loadConfig(
      { PORT: '1234', DB_PATH: 'env.db', TRUST_PROXY: 'false' },
      { PORT: '5678', DB_PATH: 'flag.db', TRUST_PROXY: 'true' },
    );
    expect(config.listen.port).toBe(5678);
    expect(config.store.dbPath).toBe('flag.db');
    expect(config.http.trustProxy).toEqual({ kind: 'hops', hops: 1 });
  });

  const bad: readonly (readonly [VariableName, string])[] = [
    ['PORT', 'abc'],
    ['PORT', '65536'],
    ['HOST', 'not a host'],
    ['PUBLIC_BASE_URL', 'ftp://sho.example'],
    ['PUBLIC_BASE_URL', 'https://sho.example/?q=1'],
    ['SHORT_DOMAINS', 'mailto:x@example.com'],
    ['SHORT_DOMAINS', 's.example,https://S.example'],
    ['SHORT_DOMAINS', ', ,'],
    ['DB_PATH', join(dir, 'folder')],
    ['STORE', 'mysql'],
    ['DATABASE_URL', 'mysql://db.example/shortener'],
    ['REDIS_URL', 'http://cache.example'],
    ['SQLITE_SYNCHRONOUS', 'off'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '11'],
    ['COUNTRY_HEADER', 'cf ipcountry'],
    ['GEOIP_DB', join(dir, 'missing.mmdb')],
    ['RATE_LIMIT_ANON_HOUR', '0'],
    ['RATE_LIMIT_ANON_DAY', '1.5'],
    ['RATE_LIMIT_KEY_HOUR', 'lots'],
    ['RATE_LIMIT_SIGNUP_HOUR', '-1'],
    ['RATE_LIMIT_IPV6_PREFIX', '32'],
    ['MCP_ALLOWED_ORIGINS', 'https://app.example/path'],
    ['MCP_ALLOWED_ORIGINS', 'app.example'],
    ['ALLOW_PRIVATE_HOSTS', 'sure'],
    ['WEBHOOK_ALLOW_PRIVATE', 'sure'],
    ['VISIT_EVENT_SECONDS', '0'],
    ['IMPORT_RUNNERS', '0'],
    ['IMPORT_RETRY_MS', '5'],
    ['HEALTH_CHECKS', 'sometimes'],
    ['HEALTH_CHECK_HOURS', '0'],
    ['HEALTH_HOST_GAP_MS', '50'],
    ['HEALTH_FAILURES', 'many'],
    ['CUSTOM_DOMAIN_CNAME', '203.0.113.7:80'],
    ['CUSTOM_DOMAIN_IPS', '203.0.113.7,links.example.com'],
    ['DOMAINS_PER_ACCOUNT', '1001'],
    ['DNS_SERVERS', '127.0.0.1:99999'],
    ['OIDC_ISSUER', 'http://auth.example.com'],
    ['OIDC_CLIENT_ID', 'shortener'],
    ['OIDC_CLIENT_SECRET', 'secret'],
    ['OIDC_SCOPES', 'profile email'],
    ['OIDC_BUTTON_LABEL', 'x'.repeat(61)],
    ['OIDC_NAME_CLAIM', 'two words'],
    ['OIDC_GROUPS_CLAIM', 'two words'],
    ['OIDC_ALLOWED_GROUPS', 'design=studio:editor'],
    ['OIDC_ADMIN_GROUPS', 'ops=admin'],
    ['OIDC_TEAM_GROUPS', 'design=studio:boss'],
    ['PASSWORD_SIGN_IN', 'sometimes'],
    ['OIDC_AUTO_REDIRECT', 'sometimes'],
    ['AMQP_URL', 'http://broker.example'],
    ['BLOCKLIST_FILE', join(dir, 'missing.txt')],
    ['APPLE_APP_SITE_ASSOCIATION', join(dir, 'missing.json')],
    ['APPLE_APP_SITE_ASSOCIATION', notJson],
    ['ANDROID_ASSET_LINKS', blocklistFile],
    ['RESERVED_SLUGS', 'pricing,a/b'],
    ['SIGNUP', 'sometimes'],
    ['REDIRECT_STATUS', '303'],
    ['NOT_FOUND_REDIRECT', 'ftp://example.com/'],
    ['BASE_URL_REDIRECT', 'https://user:secret@example.com/'],
    ['METRICS', 'sometimes'],
    ['METRICS_PORT', '0'],
    ['LOG_LEVEL', 'verbose'],
    ['HTTP_HEADERS_TIMEOUT_MS', '50'],
    ['HTTP_REQUEST_TIMEOUT_MS', '10s'],
    ['HTTP_KEEP_ALIVE_TIMEOUT_MS', '0'],
    ['HTTP_MAX_CONNECTIONS', '0'],
    ['HTTP_MAX_CONNECTIONS_PER_ADDRESS', '-1'],
  ];

  it.each(bad)('refuses %s=%j with one line naming the variable', (name, value) => {
    const error = configError(() => loadConfig({ [name]: value }));
    expect(error.variable).toBe(name);
    expect(error.message.startsWith(`${name} `)).toBe(true);
    expect(error.message).not.toMatch(/\n/);
    // a secret is never echoed back
    if (name === 'OIDC_CLIENT_SECRET') expect(error.message).not.toContain(value);
    else expect(error.message).toContain(JSON.stringify(value));
  });

  it('reads the HTTP server limits, and wants headers no later than the whole request', () => {
    expect(loadConfig({}).server).toEqual(DEFAULT_SERVER_LIMITS);
    const config = loadConfig({
      HTTP_HEADERS_TIMEOUT_MS: '2000',
      HTTP_REQUEST_TIMEOUT_MS: '4000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000',
      HTTP_MAX_CONNECTIONS: '500',
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '0',
    });
    expect(config.server).toEqual({
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      keepAliveTimeoutMs: 1000,
      maxConnections: 500,
      maxConnectionsPerAddress: 0,
    });
    const error = configError(() =>
      loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '4000' }),
    );
    expect(error.variable).toBe('HTTP_HEADERS_TIMEOUT_MS');
  });

  it('takes STORE=postgres with DATABASE_URL and REDIS_URL, and needs the database', () => {
    const env = { STORE: 'postgres', DATABASE_URL: 'postgres://db.example/app', REDIS_URL: 'redis://r:6379' };
    expect(loadConfig(env).store).toMatchObject({
      kind: 'postgres',
      databaseUrl: 'postgres://db.example/app',
      redisUrl: 'redis://r:6379',
    });
    expect(configError(() => loadConfig({ STORE: 'postgres' })).variable).toBe('DATABASE_URL');
    const sqliteWithRedis = configError(() => loadConfig({ REDIS_URL: 'redis://r:6379' }));
    expect(sqliteWithRedis.message).toMatch(/^REDIS_URL needs STORE=postgres/);
  });

  it('has a bad-value case for every variable', () => {
    expect(new Set(bad.map(([name]) => name))).toEqual(new Set(VARIABLE_NAMES));
  });

  it('words a bad port the documented way', () => {
    expect(configError(() => loadConfig({ PORT: 'abc' })).message).toBe(
      'PORT must be an integer from 0 to 65535 (got "abc")',
    );
  });

  it('names the flag value when a flag is bad', () => {
    expect(configError(() => loadConfig({ PORT: '80' }, { PORT: 'x' })).message).toContain('"x"');
  });

  it('shortens very long values in the message', () => {
    const error = configError(() => loadConfig({ STORE: 'x'.repeat(500) }));
    expect(error.message.length).toBeLessThan(200);
  });
});

describe('the SSO settings (decisions §22)', () => {
  const issuer = { OIDC_ISSUER: 'https://auth.example.com/application/o/shortener/', OIDC_CLIENT_ID: 'sh' };

  it('are off by default, and read whole when set', () => {
    expect(loadConfig({}).sso.oidc).toBeNull();
    const sso = loadConfig({
      ...issuer,
      OIDC_TEAM_GROUPS: 'design=studio:editor, leads = studio:owner',
      OIDC_ADMIN_GROUPS: 'ops,authentik Admins',
      PASSWORD_SIGN_IN: 'off',
      OIDC_AUTO_REDIRECT: 'on',
    }).sso;
    expect(sso.oidc).toMatchObject({ issuer: issuer.OIDC_ISSUER, clientId: 'sh', clientSecret: null });
    expect(sso.oidc?.scopes).toBe('openid profile email');
    expect(sso.policy).toEqual({
      allowedGroups: [],
      adminGroups: ['ops', 'authentik Admins'],
      teamGroups: [
        { group: 'design', team: 'studio', role: 'editor' },
        { group: 'leads', team: 'studio', role: 'owner' },
      ],
    });
    expect([sso.passwordSignIn, sso.autoRedirect]).toEqual([false, true]);
  });

  it('refuse an http issuer off loopback, a missing client id, bad team groups, passwords off without SSO', () => {
    expect(
      configError(() => loadConfig({ ...issuer, OIDC_ISSUER: 'http://auth.example.com' })).variable,
    ).toBe('OIDC_ISSUER');
    expect(loadConfig({ ...issuer, OIDC_ISSUER: 'http://127.0.0.1:9000' }).sso.oidc?.issuer).toBe(
      'http://127.0.0.1:9000',
    );
    expect(configError(() => loadConfig({ OIDC_ISSUER: issuer.OIDC_ISSUER })).variable).toBe(
      'OIDC_CLIENT_ID',
    );
    expect(
      configError(() => loadConfig({ ...issuer, OIDC_TEAM_GROUPS: 'design=studio:boss' })).variable,
    ).toBe('OIDC_TEAM_GROUPS');
    expect(configError(() => loadConfig({ PASSWORD_SIGN_IN: 'off' })).variable).toBe('PASSWORD_SIGN_IN');
  });
});
