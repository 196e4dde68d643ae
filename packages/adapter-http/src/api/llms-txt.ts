import { ERROR_CODES, SPLIT_MAX_ENTRIES, SPLIT_MIN_ENTRIES, SPLIT_TOTAL_WEIGHT } from '@shortener/core';
import type { ServiceConfig } from '@shortener/core';

const code = (values: readonly string[]): string => values.map((v) => `\`${v}\``).join(', ');

function intro(config: ServiceConfig): string[] {
  const hosts = config.shortDomains.map((d) => d.host);
  const example = config.shortDomains[0]?.origin ?? config.baseUrl;
  return [
    '# shortener',
    '',
    `> Self-hosted URL shortener at ${config.baseUrl}: turns long http(s) URLs into short links on ` +
      `${code(hosts)}, with QR codes, cookie-free click statistics, a JSON API and an MCP endpoint for agents.`,
    '',
    `A short link looks like \`${example}/abc123\`. Links can have a custom alias, a title, an expiry, a click ` +
      'cap, a password, public or private statistics and UTM parameters. Anonymous use is allowed and ' +
      'rate-limited per IP address; an API key saves links to an account. JSON API paths are relative to ' +
      `${config.baseUrl}; the public pages (\`/{slug}…\`) live on the short domains ` +
      `(${config.shortDomains.map((d) => d.origin).join(', ')}).`,
  ];
}

function endpoints(config: ServiceConfig): string[] {
  return ['## Endpoints', '', ...API_ENDPOINTS, ...PAGE_ENDPOINTS, '', ...curlExamples(config.baseUrl)];
}

/** The JSON API's endpoints. */
const API_ENDPOINTS = [
  '- `POST /api/v1/links`: create a link (JSON body: `url` required; `alias`, `domain`, `title`, ' +
    '`expires_in_days` or `expires_at`, `starts_at`, `max_clicks`, `password`, `public_stats`, `utm_*`, `tags`, ' +
    '`rules`, `forward_query`, `redirect_status`, `crawlable`, `expired_url`, `preview`, `split`). 201 Link. ' +
    'Before `starts_at` (before any `expires_at`) the short URL, its preview, `.json` and QR answer 404 as an ' +
    'unknown slug does.',
  '- Organising and routing (decisions §15): `tags` (0-10, each 1-32 letters or digits of any script, spaces, `-`, `_`, `.`, kept as spelled and compared after NFKC, trimming and lower-casing; else 400 ' +
    '`validation_error`); `rules`: up to 20 `{ when, url }`, the first whose `when` holds (`device`, `os`, ' +
    '`country`, `language` (`en` any English, `en-US` that region only), `query`, `after`, `before`) picks the destination; `forward_query` adds the ' +
    'visitor’s query (the destination’s parameters win); `redirect_status` 302 (default), 307, 301 or 308 ' +
    '(permanent refused with rules, a cap, an expiry or a password); `crawlable` drops `X-Robots-Tag: noindex` ' +
    'and opens the link in `/robots.txt` of its short domain. Statistics gain `rules` (`0`, `1`, … or `default`).',
  `- Split tests (decisions §19): \`split\`: ${SPLIT_MIN_ENTRIES}-${SPLIT_MAX_ENTRIES} \`{ url, weight }\` (integer weights ` +
    `summing to ${SPLIT_TOTAL_WEIGHT}, each URL checked like \`url\`); visitors no rule matches go to one entry, chosen ` +
    'by their daily visitor hash (no cookie, nothing stored: the same entry all day); a permanent status is ' +
    'refused. Statistics gain `variants` (`0`, `1`, …).',
  '- `GET /api/v1/links`: the API key’s links, newest first (`limit` ≤ 200, `cursor` = `next_cursor`, `q`, ' +
    '`tag` repeatable: links carrying all, `health=broken`: links whose destinations broke); `format=csv`: ' +
    'every matching link as CSV.',
  '- `GET /api/v1/tags`: `{ tags: [{ name, links, clicks }] }` over the API key’s links.',
  '- `GET /api/v1/links/{id}`: one link (API key or edit token).',
  '- `PATCH /api/v1/links/{id}`: edit a link; `null` removes expiry, click cap, title or password.',
  '- `DELETE /api/v1/links/{id}`: delete a link. 204.',
  '- `POST /api/v1/links/{id}/check`: check the link’s destinations now (10 a minute per account); answers the ' +
    'link. Every link has `health` `{ state: unknown|ok|redirected|broken, status, reason, final_url, ' +
    'checked_at, since }` (decisions §23); a change of state sends `link.health_changed`.',
  '- `GET /api/v1/links/{id}/stats`: click statistics (`days` 1-365, default 30, or `from`/`to` dates, at most ' +
    '366 days; `tz` an IANA zone, default UTC); public unless the owner hid them. `format=csv` or ' +
    '`Accept: text/csv`: rows `dimension,key,count`.',
  '- `GET /api/v1/tags/{tag}/stats`, `GET /api/v1/stats`: the same over a tag’s or every link of the account, ' +
    'plus `links` (top 20 by clicks in the range).',
  '- `GET /api/v1/check?slug=…&domain=…`: whether an alias is `free`, `taken`, `reserved` or `invalid`.',
  '- `POST /api/v1/bulk`: create many links (`urls`: array, or one string with one URL per line); ' +
    'one result per URL in input order.',
  '- `POST /api/v1/links/claim`: attach anonymous links to the account (`edit_tokens`: array).',
  '- `GET /api/v1/keys`, `POST /api/v1/keys` (`name`; the answer shows `key` once), ' +
    '`DELETE /api/v1/keys/{id}`: the account’s API keys (listed by `prefix`, never the key).',
  '- `GET /api/v1/webhooks`, `POST /api/v1/webhooks` (`url`, `events`: `link.created`, `link.updated`, ' +
    '`link.deleted`, `link.visited`, `link.health_changed`, `domain.verified`, `domain.suspended`; the answer ' +
    'shows the `whsec_…` secret once), ' +
    '`DELETE /api/v1/webhooks/{id}`, `POST /api/v1/webhooks/{id}/test` (a signed `ping`): the account’s ' +
    'webhooks, signed as Standard Webhooks, retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h.',
  '- `POST /api/v1/imports` (`source`: `csv` with `csv`, `shlink` or `kutt` with `url` and `api_key`, ' +
    '`bitly` with `token`; `on_conflict`, `domain_map`, `dry_run`, `date_format` such as `DD.MM.YYYY HH:mm`): ' +
    '202 with a job importing links from ' +
    'another shortener; `GET /api/v1/imports/{id}` its progress, `DELETE /api/v1/imports/{id}` cancels it ' +
    '(what was imported stays), `GET /api/v1/imports/{id}/report` its CSV report.',
  '- `GET /api/v1/domains`, `POST /api/v1/domains` (`host`; 201 pending with the DNS `records` to publish), ' +
    '`GET|PATCH|DELETE /api/v1/domains/{id}` (`settings`: `base_redirect`, `not_found_redirect`, the app-links ' +
    'files), `POST /api/v1/domains/{id}/verify` (checks DNS now; `problems` says what is missing): the ' +
    'account’s own domains. `GET /tls/allowed?domain=…`: Caddy’s on-demand TLS check, for loopback peers only.',
  '- `GET /api/v1/teams`, `POST /api/v1/teams` (`name`): the caller’s teams with their role (owner, admin, ' +
    'editor, viewer); `GET /api/v1/teams/{name}/members`, `PATCH|DELETE /api/v1/teams/{name}/members/{member}` ' +
    '(`role`; the last owner stays: 409 `last_owner`), `POST /api/v1/teams/{name}/invites` (`role`, ' +
    '`expires_in_days`: 201 with a one-time `url`), `GET /api/v1/teams/{name}/invites` (the open ones, each ' +
    'with an `id`), `DELETE /api/v1/teams/{name}/invites/{id}` (withdraws it), `POST /join/{token}` (joins by ' +
    'that url), `DELETE /api/v1/teams/{name}` (owners: the team and its links, domains, keys and webhooks go ' +
    'for good; its name is free again). Send ' +
    '`Shortener-Account: <team>` with a person’s key or session to act for a team; keys take `role` (admin, ' +
    'editor, viewer, creator), `domains` and `url_hosts`.',
  '- `GET /api/shorten?url=…&alias=…&domain=…`: 201 `text/plain` with only the short URL; ' +
    'an anonymous link’s edit token is in the `X-Edit-Token` response header.',
];

/** The pages, the short links' own paths, MCP and the meta documents. */
const PAGE_ENDPOINTS = [
  '- `GET /`: the web form for people (it calls `POST /api/v1/links`); `GET /assets/{file}`: its static files.',
  '- `GET /new?url=…&title=…&text=…`: the same form filled in (where `url` is missing, the first http(s) URL ' +
    'in `text`); it creates nothing. `GET /manifest.webmanifest`: the web app manifest, whose `share_target` ' +
    'opens `/new` from a phone’s share sheet. `GET /account/tools`: the bookmarklet and the browser extension ' +
    '(decisions §24).',
  '- `GET /{slug}`: redirect (302 unless the link or `REDIRECT_STATUS` says 301/307/308); a password form for protected links; `POST /{slug}` submits the password.',
  '- `GET /robots.txt` on a short domain: disallows everything but its crawlable links.',
  '- `GET /.well-known/apple-app-site-association` and `GET /.well-known/assetlinks.json` on every short domain: ' +
    'the app-links files the operator set (`APPLE_APP_SITE_ASSOCIATION`, `ANDROID_ASSET_LINKS`), else 404.',
  '- `GET /{slug}+`: preview page showing the destination without redirecting.',
  '- `GET /{slug}.json`: public facts (`short_url`, `url` unless password protected, `status`, `created_at`, `clicks` if public).',
  '- `GET /{slug}.png?size=512&fg=%23000000&bg=%23ffffff&margin=4` and `GET /{slug}.svg?fg=…&bg=…`: QR codes.',
  '- For people in a browser (decisions §10, not for API clients): `GET|POST /login`, `POST /logout`, ' +
    '`GET /account` (`q`, `tag`, `health=broken`, `cursor`), `POST /account/links` (create), `POST /account/claim` (edit tokens), ' +
    '`GET|POST /account/import` (an import in the browser, the file as multipart) and its job ' +
    '`GET /account/import/{id}` (a progress bar) with `POST /account/import/{id}/cancel`, ' +
    "a link's page `GET|POST /account/links/{id}` with " +
    '`POST /account/links/{id}/edit`, `POST /account/links/{id}/check` ("Check now") and ' +
    '`POST /account/links/{id}/delete`; for administrators `GET /admin` ' +
    'with `POST /admin/links/{id}/disable`, `POST /admin/links/{id}/enable`, `POST /admin/links/{id}/delete`, ' +
    '`POST /admin/accounts/{id}/disable`, `POST /admin/accounts/{id}/enable`, `POST /admin/accounts/{id}/reset` (a reset link), `POST /admin/invites` ' +
    'and `GET /admin/orphans` (the visits that found nothing, `days` or `from`/`to`); ' +
    '`GET|POST /account/signup`, `GET|POST /account/invite/{token}`, ' +
    '`POST /account/password`; passkeys: `POST /login/passkey/options`, `POST /login/passkey`, ' +
    '`POST /account/invite/{token}/passkey/options`, `POST /account/invite/{token}/passkey`, ' +
    '`POST /account/passkeys/options`, `POST /account/passkeys`; settings (form posts): ' +
    '`GET /account/settings`, `POST /account/settings/confirm` (the password again: making keys and changing ' +
    'passkeys need a sign-in from the last 10 minutes), `POST /account/settings/keys`, `POST /account/settings/keys/{id}/revoke`, ' +
    '`POST /account/settings/password`, `POST /account/settings/sessions/{id}/end`, ' +
    '`POST /account/settings/passkeys/{id}/rename`, `POST /account/settings/passkeys/{id}/delete`, ' +
    '`POST /account/settings/webhooks` (add; the page shows the secret once), ' +
    '`POST /account/settings/webhooks/{id}/test`, `POST /account/settings/webhooks/{id}/delete`; imports: ' +
    '`GET /account/import`, `POST /account/import` (a CSV file or an API source), `GET /account/import/{id}` ' +
    '(progress), `POST /account/import/{id}/cancel`; own domains: `GET /account/domains`, `POST /account/domains` ' +
    '(add), `POST /account/domains/{id}/verify` (check now), `POST /account/domains/{id}/settings`, ' +
    '`POST /account/domains/{id}/remove` (`delete_links=on` deletes its links too); teams: ' +
    '`GET /account/teams` (`?team=`), `POST /account/teams` (make), `POST /account/teams/{team}/invites`, ' +
    '`POST /account/teams/{team}/members/{member}/role`, `POST /account/teams/{team}/members/{member}/remove`, ' +
    '`POST /account/teams/{team}/invites/{id}/withdraw`, `POST /account/teams/{team}/delete` (`confirm`: the ' +
    'team’s name), ' +
    '`POST /account/switch` (the account the pages act for), `GET /join/{token}` (an invite link, opened); ' +
    'sign-in through an identity provider: `GET /login/oidc` (`?link=1` links it to the signed-in account), ' +
    '`GET /login/oidc/callback`, `POST /account/settings/identities/unlink` (`issuer`, `subject`; refused while ' +
    'it is the account’s only way in).',
  '- `GET /api/v1/admin/orphan-visits?days=…` (or `?from=…&to=…`, UTC days): for an administrator, the ' +
    'visits on the short domains that found nothing (unknown slugs, the bare domain, other paths), by day, ' +
    'short domain, referrer and slug.',
  '- `POST /mcp`: the MCP endpoint (see below).',
  '- `GET /healthz`: `{"status":"ok"}` when the service and its store answer.',
  '- `GET /metrics`: Prometheus metrics when the operator serves them here (otherwise a slug like any other).',
  '- `GET /openapi.json`: the OpenAPI 3.1 description (`GET /docs`: the same as a page for people); `GET /llms.txt`: this file.',
];

function curlExamples(base: string): string[] {
  return [
    '```sh',
    `curl -X POST ${base}/api/v1/links -H 'Content-Type: application/json' \\`,
    `  -d '{"url": "https://example.com/a/long/path", "alias": "my-link", "expires_in_days": 30}'`,
    '',
    `curl "${base}/api/shorten?url=https://example.com/a/long/path"`,
    '```',
  ];
}

function rules(config: ServiceConfig): string[] {
  const { limits } = config;
  return [
    '## Authentication',
    '',
    '- API key: `Authorization: Bearer shk_…`, issued by the operator. Saves links to the account, raises the ' +
      'rate limit, is required to list and claim links, and grants detail, edit, delete and stats of its links.',
    '- Edit token: `X-Edit-Token: et_…`, returned once when an anonymous link is created (body field ' +
      '`edit_token`, or the `X-Edit-Token` header of `/api/shorten`). Grants detail, edit, delete and stats of that link.',
    '- Session: a browser signed in at `/login` is authenticated like its API key, for requests from the ' +
      'site’s own pages (a change from another `Origin` is 403 `forbidden`).',
    '- Everything else (creation, bulk, alias check, public stats, public pages) needs no credentials.',
    '',
    '## Limits',
    '',
    `- Creation: ${limits.anonPerHour} per hour and ${limits.anonPerDay} per day per IP anonymously; ` +
      `${limits.keyPerHour} per hour with an API key (rolling windows). Over the limit: 429 with ` +
      '`Retry-After`; creation, bulk and `/api/shorten` send `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`.',
    `- Bulk: at most ${limits.bulkAnonymous} URLs anonymously, ${limits.bulkWithKey} with a key; ` +
      `claim: at most ${limits.claimMax} tokens. Request bodies: at most 1 MiB.`,
    '- Alias: 2-40 characters of a-z, 0-9, `-`, `_`. Title: at most 200 characters. Password: 4-64 characters.',
    '- `expires_in_days`: 0.01 to 3650. `max_clicks`: at least 1. QR PNG `size`: 64-2048 (default 512); `margin`: 0-8.',
    '- Unique visitors are counted over the last 30 days with a daily-salted hash; no IP address is stored.',
    '',
    '## Errors',
    '',
    'Every error is `{"error": {"code": "…", "message": "…"}}` (sometimes with `field`). Messages follow `lang` ' +
      '(`en`, `de`, `fr`, `es`) or `Accept-Language`; act on `code`, never on the message.',
    '',
    `Codes: ${code(ERROR_CODES)}.`,
    '',
    'Statuses: 400 for validation codes, `too_many` and `invalid_request`; 401 `unauthorized`; 403 `forbidden`; ' +
      '404 `not_found`; 409 `idempotency_key_in_use`; 413 `invalid_request` for bodies over 1 MiB; ' +
      '422 `idempotency_key_reused`; 429 `rate_limited`; 500 `internal_error`; ' +
      '503 `unavailable` with `Retry-After` while the database does not answer (cached links still redirect).',
  ];
}

function agents(config: ServiceConfig): string[] {
  const base = config.baseUrl;
  return [
    '## MCP',
    '',
    `Model Context Protocol at \`${base}/mcp\`: stateless Streamable HTTP, JSON-RPC 2.0 over \`POST\` ` +
      '(send `Accept: application/json, text/event-stream`); methods `initialize`, `tools/list`, `tools/call`. ' +
      'An `Authorization: Bearer shk_…` header saves created links to the account.',
    '',
    '- `shorten_url`: url, alias?, domain?, title?, expires_in_days?, starts_at?, max_clicks?, password? → Link.',
    '- `check_alias`: slug, domain? → alias check result.',
    '- `get_link_info`: short_url or slug (+ domain?) → public facts, plus stats when public.',
    '- `qr_code`: short_url or slug (+ domain?), format `png` or `svg`, size? → the image and its URL.',
    '- `list_links`: q?, limit?, cursor? (API key required) → { links, next_cursor }.',
    '- `update_link`: id, edit_token? (or the owning API key), and the PATCH fields → the Link.',
    '- `delete_link`: id, edit_token? (or the owning API key) → { deleted, id }.',
    '- `link_stats`: id, edit_token? (needed for private statistics), days? or from/to?, tz? → the statistics object.',
    '- `tag_stats`: tag, days? or from/to?, tz? (API key required) → the statistics of its links, plus top `links`.',
    '',
    '## Docs',
    '',
    `- [OpenAPI 3.1 document](${base}/openapi.json): every endpoint, schema, status and header.`,
    `- [llms.txt](${base}/llms.txt): this summary.`,
  ];
}

/**
 * Builds `/llms.txt`: a Markdown summary of the service for AI clients, per the llms.txt
 * convention (title, one-line summary, then sections), using the configured base URL, short
 * domains and limits.
 */
export function buildLlmsTxt(config: ServiceConfig): string {
  const sections = [intro(config), endpoints(config), rules(config), agents(config)];
  return `${sections.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}
