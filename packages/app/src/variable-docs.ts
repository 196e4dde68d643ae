import { REDIRECT_STATUS_WORDS } from '@shortener/core';

/**
 * How a variable is described, on its schema (config-schema.ts): the `serve` flag's value placeholder
 * (`[bool]` flags may be given bare, meaning true) and help (`serve --help` adds the default), and the
 * configuration table's meaning (docs/configuration.md) (`doc`) and, where the schema's default does not say it, its
 * default (`shown`).
 */
export type VariableMeta = {
  readonly value: string;
  readonly help: string;
  readonly doc: string;
  readonly shown?: string;
};

/** The descriptions of the configuration variables, by name. */
export const VARIABLE_DOCS = {
  PORT: {
    value: '<port>',
    help: 'listen port, 0 picks a free one',
    doc: 'listen port; `0` picks a free one (the `listening` log line names it)',
  },
  HOST: {
    value: '<address>',
    help: 'listen address, 0.0.0.0 in containers',
    doc: 'listen address (`0.0.0.0` in containers)',
  },
  PUBLIC_BASE_URL: {
    value: '<url>',
    help: 'where the API, form and docs live',
    doc: 'where the API, the web form and the docs live ({base_url}); a trailing `/` is dropped',
    shown: '`http://localhost:$PORT`',
  },
  SHORT_DOMAINS: {
    value: '<origins>',
    help: 'comma-separated short-domain origins, the first is the default; a bare host means https://host',
    doc: 'comma-separated origins of the short domains; the first is the default. A bare host means `https://host`. No duplicates',
    shown: '`http://localhost:$PORT,http://127.0.0.1:$PORT`',
  },
  DB_PATH: {
    value: '<path>',
    help: 'SQLite file, folder created; :memory: allowed',
    doc: 'SQLite file (folder created); `:memory:` keeps everything in memory',
  },
  STORE: {
    value: '<kind>',
    help: 'sqlite, memory or postgres',
    doc: '`sqlite`, `memory` (nothing survives a restart) or `postgres` (see [Scaling out](scaling.md))',
  },
  DATABASE_URL: {
    value: '<url>',
    help: 'with STORE=postgres: the PostgreSQL database, postgres://…',
    doc: 'with `STORE=postgres` (and needed by it): the PostgreSQL database, `postgres://user:password@host/db`',
  },
  REDIS_URL: {
    value: '<url>',
    help: 'with STORE=postgres: Redis, redis://…, where every node shares the rate limits',
    doc: 'with `STORE=postgres`: Redis (`redis://` or `rediss://`), where every node shares the rate limits; without it each node limits on its own',
  },
  SQLITE_SYNCHRONOUS: {
    value: '<mode>',
    help: 'normal: a power loss may undo the last commits; full: an fsync per commit',
    doc: '`normal`: a commit is not synced to disk, so a power loss or kernel crash may undo the last commits (links, clicks); `full`: every commit is synced first and survives a power loss, at an fsync per commit. A process crash loses nothing committed either way. See [Durability and endurance](operating.md#durability-and-endurance)',
  },
  TRUST_PROXY: {
    value: '<proxies>',
    help: 'proxies to believe about X-Forwarded-For/-Proto: false, true (1), a hop count, or proxy IPs/CIDRs',
    doc: "which proxies in front of the service are believed: `false`; `true` (= `1`) or a number N of proxies; or comma-separated proxy IPs and CIDR ranges (`10.0.0.0/8,fd00::/8`). The client is read from the **right** of `X-Forwarded-For`, skipping trusted hops; the scheme from the same hop's `X-Forwarded-Proto`. See [Behind a reverse proxy](production.md#behind-a-reverse-proxy)",
    shown: '`false`',
  },
  COUNTRY_HEADER: {
    value: '<header>',
    help: 'trusted header carrying an ISO country code, e.g. CF-IPCountry',
    doc: 'header with an ISO country code set by a trusted proxy, e.g. `CF-IPCountry`',
  },
  GEOIP_DB: {
    value: '<path>',
    help: 'MaxMind-format country database (must exist)',
    doc: 'path to a MaxMind-format country database (must exist); by default the bundled DB-IP database is used',
  },
  RATE_LIMIT_ANON_HOUR: {
    value: '<n>',
    help: 'anonymous creations per IP per hour',
    doc: 'link creations per hour without an API key, per client IP',
  },
  RATE_LIMIT_ANON_DAY: {
    value: '<n>',
    help: 'anonymous creations per IP per day',
    doc: 'link creations per day without an API key, per client IP',
  },
  RATE_LIMIT_KEY_HOUR: {
    value: '<n>',
    help: 'creations per API key per hour',
    doc: 'link creations per hour per API key',
  },
  RATE_LIMIT_SIGNUP_HOUR: {
    value: '<n>',
    help: 'accounts one IP may sign up per hour with SIGNUP=open',
    doc: 'accounts one address (an IPv6 one by its /64) may make per hour with `SIGNUP=open`',
  },
  RATE_LIMIT_IPV6_PREFIX: {
    value: '<bits>',
    help: 'per-IP limits count an IPv6 address by this prefix, 48-128',
    doc: 'per-IP limits (creation, password tries) count an IPv6 client by this prefix, 48-128, since one host owns a whole /64; IPv4 addresses count alone',
  },
  MCP_ALLOWED_ORIGINS: {
    value: '<origins>',
    help: 'extra browser origins allowed to call /mcp (default: {base_url} and the short domains)',
    doc: "comma-separated browser origins allowed to call `/mcp` besides {base_url}'s and the short domains' (DNS-rebinding protection; clients that send no `Origin` are not affected)",
  },
  ALLOW_PRIVATE_HOSTS: {
    value: '[bool]',
    help: 'allow private and loopback destinations',
    doc: '`true` lets intranet installs shorten private and loopback addresses',
  },
  WEBHOOK_ALLOW_PRIVATE: {
    value: '[bool]',
    help: 'webhooks may deliver to private and loopback addresses',
    doc: '`true` lets webhooks deliver to private and loopback addresses (intranet receivers). See [Events](events.md)',
  },
  VISIT_EVENT_SECONDS: {
    value: '<seconds>',
    help: 'one link.visited event per link this often at most (default 60)',
    doc: "A link's visits are summed into one `link.visited` event per this many seconds at most (default 60, 1-86400): the event's `from`/`to` span what it sums, and nothing is lost between windows. See [Events](events.md)",
  },
  IMPORT_RUNNERS: {
    value: '<n>',
    help: 'import jobs this node runs at once, one per account (default 2)',
    doc: "Import jobs this node runs side by side (default 2, 1-64), never two of one account: one account's long import does not hold another's. See [Imports](imports.md)",
  },
  IMPORT_RETRY_MS: {
    value: '<ms>',
    help: "first wait before a remote source's failed request is tried again (default 500)",
    doc: 'The first wait before a request to Shlink, Kutt or Bitly that failed on the network or with a 5xx is tried again, in milliseconds (default 500, 10-60000); each wait doubles, and the fifth try again that fails fails the job. See [Imports](imports.md)',
  },
  HEALTH_CHECKS: {
    value: '<mode>',
    help: "check links' destinations in the background (on, the default, or off)",
    doc: '`on` (default) or `off`: every active link\'s destinations are checked about every `HEALTH_CHECK_HOURS`, politely; "Check now" works either way. See [Link health](health.md)',
  },
  HEALTH_CHECK_HOURS: {
    value: '<hours>',
    help: 'how often each link is checked (default 24)',
    doc: 'How often each active link is checked, in hours (default 24, 1-8760); links clicked in the last 7 days go first. See [Link health](health.md)',
  },
  HEALTH_HOST_GAP_MS: {
    value: '<ms>',
    help: 'least time between two checks of one host (default 2000)',
    doc: 'The least time between two requests of the checks to one destination host, in milliseconds (default 2000, 100-3600000); one request at a time per host. See [Link health](health.md)',
  },
  HEALTH_FAILURES: {
    value: '<n>',
    help: 'failed checks in a row that make a link broken (default 3)',
    doc: 'Failed checks in a row that make a link `broken` (default 3, 1-100); one pass makes it `ok` again. See [Link health](health.md)',
  },
  AMQP_URL: {
    value: '<url>',
    help: 'RabbitMQ, amqp://…: every event is published to shortener.events',
    doc: '`amqp://user:password@host:5672/vhost`: every event of every account is also published to RabbitMQ. See [Events](events.md)',
  },
  BLOCKLIST_FILE: {
    value: '<path>',
    help: 'extra host blocklist, one domain per line (must exist)',
    doc: 'extra host blocklist (`unsafe_url`), one domain per line, `#` comments; subdomains are blocked too. Must exist',
  },
  RESERVED_SLUGS: {
    value: '<slugs>',
    help: 'comma-separated slugs to reserve on top of the built-in ones',
    doc: 'comma-separated slugs no alias may take, **in addition to** the built-in ones (`api`, `mcp`, `healthz`, `docs`, ...)',
  },
  APPLE_APP_SITE_ASSOCIATION: {
    value: '<path>',
    help: 'JSON file served on every short domain at /.well-known/apple-app-site-association',
    doc: 'a JSON file (read at start, must be JSON) served on every short domain at `/.well-known/apple-app-site-association`, so an installed iOS app opens the short links itself; unset: 404. See [App links](app-links.md)',
  },
  ANDROID_ASSET_LINKS: {
    value: '<path>',
    help: 'JSON file served on every short domain at /.well-known/assetlinks.json',
    doc: 'a JSON file (read at start, must be JSON) served on every short domain at `/.well-known/assetlinks.json`, so an installed Android app opens the short links itself; unset: 404. See [App links](app-links.md)',
  },
  SIGNUP: {
    value: '<mode>',
    help: 'who gets an account in the browser: invite (operator invites), open (anyone signs up) or closed',
    doc: 'who gets an account in the browser: `invite` (only through `shortener accounts invite`), `open` (anyone at `/account/signup`), `closed` (no new accounts; invites only reset existing ones). See [Accounts](accounts.md)',
  },
  CUSTOM_DOMAIN_CNAME: {
    value: '<host>',
    help: "the host accounts' own domains point a CNAME to (this server's name)",
    doc: "the host name an account's own domain points a CNAME to (this server, e.g. `links.example.com`); shown as the record to publish and checked before the domain serves. See [Domains](domains.md)",
  },
  CUSTOM_DOMAIN_IPS: {
    value: '<ips>',
    help: "this server's public addresses, for own domains' A/AAAA records",
    doc: 'comma-separated public IP addresses of this server: an apex domain (which cannot have a CNAME) points A/AAAA records to them, and any own domain may. With neither this nor `CUSTOM_DOMAIN_CNAME`, accounts cannot add domains (503). See [Domains](domains.md)',
  },
  DOMAINS_PER_ACCOUNT: {
    value: '<n>',
    help: 'own domains one account may add (default 10; 0: none)',
    doc: 'own domains one account may have (default 10, 0-1000; removed ones do not count). See [Domains](domains.md)',
  },
  DNS_SERVERS: {
    value: '<servers>',
    help: "DNS servers that check own domains, ip[:port],… (default: the system's)",
    doc: "comma-separated DNS servers (`ip`, `ip:port`, `[ipv6]:port`) asked when own domains are checked; default the system's resolvers. Nothing is cached beyond a record's TTL. See [Domains](domains.md)",
  },
  OIDC_ISSUER: {
    value: '<url>',
    help: 'the OpenID Connect provider (issuer URL): turns sign-in through it on',
    doc: 'the issuer URL of an OpenID Connect provider (Authentik, Keycloak, Authelia, Entra ID, Google): turns sign-in through it on; `https://`, or `http://` on a loopback address only. Discovery failing at start is logged and `/login` says SSO is unavailable. See [Sign in through an identity provider](sso.md)',
  },
  OIDC_CLIENT_ID: {
    value: '<id>',
    help: 'the client id registered at the provider (needed with OIDC_ISSUER)',
    doc: 'the client id this instance is registered with at the provider (needed with `OIDC_ISSUER`); the redirect URI to register is `{base_url}/login/oidc/callback`. See [SSO](sso.md)',
  },
  OIDC_CLIENT_SECRET: {
    value: '<secret>',
    help: 'the client secret (unset: a public client, PKCE only)',
    doc: 'the client secret (`client_secret_basic`); unset, the client is public and relies on PKCE. See [SSO](sso.md)',
  },
  OIDC_SCOPES: {
    value: '<scopes>',
    help: 'the scopes asked for (default: openid profile email)',
    doc: 'the scopes asked for, space-separated (default `openid profile email`; add `groups` where the provider needs it for the groups claim). See [SSO](sso.md)',
  },
  OIDC_BUTTON_LABEL: {
    value: '<text>',
    help: 'the sign-in button (default: Sign in with SSO)',
    doc: 'the label of the sign-in button on `/login` (default `Sign in with SSO`). See [SSO](sso.md)',
  },
  OIDC_NAME_CLAIM: {
    value: '<claim>',
    help: 'the claim a new account is named from (default: preferred_username)',
    doc: 'the claim a new account is named from (default `preferred_username`, then `email`); the account name rule applies and a taken name gets `-2`, `-3`, …. See [SSO](sso.md)',
  },
  OIDC_GROUPS_CLAIM: {
    value: '<claim>',
    help: 'the claim holding the groups (default: groups)',
    doc: 'the claim holding the person’s groups (default `groups`), from the ID token or userinfo. See [SSO](sso.md)',
  },
  OIDC_ALLOWED_GROUPS: {
    value: '<groups>',
    help: 'only members of these groups may sign in (comma-separated; empty: anyone)',
    doc: 'comma-separated groups: only their members may sign in through the provider (a 403 page, no account made); empty: anyone the provider signs in. See [SSO](sso.md)',
  },
  OIDC_ADMIN_GROUPS: {
    value: '<groups>',
    help: 'members of these groups are admins (applied at every sign-in)',
    doc: 'comma-separated groups whose members are admins; set, the role is applied again at every sign-in (added and removed). See [SSO](sso.md)',
  },
  OIDC_TEAM_GROUPS: {
    value: '<pairs>',
    help: 'group=team:role pairs: team memberships applied at every sign-in',
    doc: '`group=team:role` pairs, comma-separated: members of the group are members of the team with the role (the strongest wins), applied at every sign-in (added, changed, removed); a team that does not exist is made. See [Teams](teams.md) and [SSO](sso.md)',
  },
  PASSWORD_SIGN_IN: {
    value: '<mode>',
    help: 'whether /login offers name and password (off: the provider only)',
    doc: '`on` (default) or `off`: with `off`, `/login` offers only the provider and `POST /login` is refused (keys and passkeys still work). Needs `OIDC_ISSUER`. See [SSO](sso.md)',
  },
  OIDC_AUTO_REDIRECT: {
    value: '<mode>',
    help: 'with password sign-in off, /login goes straight to the provider',
    doc: '`off` (default) or `on`: with `PASSWORD_SIGN_IN=off`, `/login` sends the browser straight to the provider. See [SSO](sso.md)',
  },
  REDIRECT_STATUS: {
    value: '<status>',
    help: `status of redirects whose link sets none: ${REDIRECT_STATUS_WORDS}; a permanent one falls back to 302 on links with rules, a cap, an expiry or a password`,
    doc: 'the status of redirects whose link sets none: `302`, `307`, `301` or `308`; a permanent one falls back to `302` on links with rules, a cap, an expiry or a password. See [Organising and routing links](api.md#organising-and-routing-links)',
  },
  NOT_FOUND_REDIRECT: {
    value: '<url>',
    help: 'send visitors of an unknown slug there (302) instead of the 404 page',
    doc: 'an http(s) URL: a visit to a short link that does not exist is answered `302` there instead of the 404 page (checked at start; the visit is counted as an orphan visit). See [Statistics and privacy](statistics.md)',
  },
  BASE_URL_REDIRECT: {
    value: '<url>',
    help: 'send visitors of a bare short domain (one that is not the base URL’s host) there (302)',
    doc: 'an http(s) URL: `GET /` on a short domain that is not {base_url}’s host is answered `302` there instead of the home page (checked at start)',
  },
  METRICS: {
    value: '[bool]',
    help: 'serve Prometheus metrics at /metrics',
    doc: '`true` serves Prometheus metrics at `GET /metrics` on the main port (the alias `metrics` is then reserved). See [Metrics](operating.md#metrics)',
  },
  METRICS_PORT: {
    value: '<port>',
    help: 'serve the metrics on this port instead of the main one (implies METRICS)',
    doc: 'serve the metrics on this port instead (on `HOST`, nothing else there); implies `METRICS`',
  },
  LOG_LEVEL: {
    value: '<level>',
    help: 'debug, info, warn or error',
    doc: '`debug`, `info`, `warn` or `error`; logs are JSON lines on stderr and never contain an IP address',
  },
  HTTP_HEADERS_TIMEOUT_MS: {
    value: '<ms>',
    help: 'time to receive request headers',
    doc: "time a client has to send a request's headers; slower senders (slowloris) get `408` and are disconnected. At most `HTTP_REQUEST_TIMEOUT_MS`",
  },
  HTTP_REQUEST_TIMEOUT_MS: {
    value: '<ms>',
    help: 'time to receive a whole request',
    doc: 'time a client has to send a whole request, body included',
  },
  HTTP_KEEP_ALIVE_TIMEOUT_MS: {
    value: '<ms>',
    help: 'idle keep-alive connections close after it',
    doc: 'an idle keep-alive connection is closed after this',
  },
  HTTP_MAX_CONNECTIONS: {
    value: '<n>',
    help: 'open connections in all',
    doc: "open connections in all; past it new ones are closed at once (keep it under the process's file limit, `ulimit -n`)",
  },
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: {
    value: '<n>',
    help: 'open connections per client address, 0 = off; not applied behind TRUST_PROXY',
    doc: 'open connections from one client address (IPv6: per `RATE_LIMIT_IPV6_PREFIX`), `0` turns it off. Not applied when `TRUST_PROXY` trusts a proxy, since every connection then comes from the proxy: limit per client there. Counted in memory only',
  },
} satisfies Record<string, VariableMeta>;
