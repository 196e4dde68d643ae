// What openapi.test.ts checks the document against, and how it walks it.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Every path of `/openapi.json` with its methods: what the document must describe, exactly. */
export const DOCUMENTED_PATHS: Readonly<Record<string, readonly string[]>> = {
  '/': ['get', 'post'],
  '/api/v1/links': ['get', 'post'],
  '/api/v1/links/{id}': ['delete', 'get', 'patch'],
  '/api/v1/links/{id}/stats': ['get'],
  '/api/v1/check': ['get'],
  '/api/v1/bulk': ['post'],
  '/api/v1/imports': ['post'],
  '/api/v1/imports/{id}': ['delete', 'get'],
  '/api/v1/imports/{id}/report': ['get'],
  '/api/v1/links/claim': ['post'],
  '/api/v1/tags': ['get'],
  '/api/v1/tags/{tag}/stats': ['get'],
  '/api/v1/stats': ['get'],
  '/api/v1/admin/orphan-visits': ['get'],
  '/api/shorten': ['get'],
  '/assets/{file}': ['get'],
  '/healthz': ['get'],
  '/metrics': ['get'],
  '/openapi.json': ['get'],
  '/docs': ['get'],
  '/llms.txt': ['get'],
  '/robots.txt': ['get'],
  '/.well-known/apple-app-site-association': ['get'],
  '/.well-known/assetlinks.json': ['get'],
  '/{slug}': ['get', 'post'],
  '/{slug}+': ['get'],
  '/{slug}.json': ['get'],
  '/{slug}.png': ['get'],
  '/{slug}.svg': ['get'],
  '/mcp': ['post'],
  '/api/v1/keys': ['get', 'post'],
  '/api/v1/keys/{id}': ['delete'],
  '/api/v1/webhooks': ['get', 'post'],
  '/api/v1/domains': ['get', 'post'],
  '/api/v1/domains/{id}': ['delete', 'get', 'patch'],
  '/api/v1/domains/{id}/verify': ['post'],
  '/api/v1/teams': ['get', 'post'],
  '/api/v1/teams/{name}/members': ['get'],
  '/api/v1/teams/{name}/invites': ['post'],
  '/api/v1/teams/{name}/members/{member}': ['delete', 'patch'],
  '/join/{token}': ['post'],
  '/tls/allowed': ['get'],
  '/api/v1/webhooks/{id}': ['delete'],
  '/api/v1/webhooks/{id}/test': ['post'],
  '/account/settings/webhooks': ['post'],
  '/account/settings/webhooks/{id}/delete': ['post'],
  '/account/settings/webhooks/{id}/test': ['post'],
  '/login': ['get', 'post'],
  '/login/passkey/options': ['post'],
  '/login/passkey': ['post'],
  '/logout': ['post'],
  '/account': ['get'],
  '/account/links': ['post'],
  '/account/claim': ['post'],
  '/account/links/{id}': ['get', 'post'],
  '/account/links/{id}/edit': ['post'],
  '/account/links/{id}/delete': ['post'],
  '/admin': ['get'],
  '/admin/orphans': ['get'],
  '/admin/links/{id}/disable': ['post'],
  '/admin/links/{id}/enable': ['post'],
  '/admin/links/{id}/delete': ['post'],
  '/admin/accounts/{id}/disable': ['post'],
  '/admin/accounts/{id}/enable': ['post'],
  '/admin/accounts/{id}/reset': ['post'],
  '/admin/invites': ['post'],
  '/account/signup': ['get', 'post'],
  '/account/invite/{token}': ['get', 'post'],
  '/account/invite/{token}/passkey/options': ['post'],
  '/account/invite/{token}/passkey': ['post'],
  '/account/passkeys/options': ['post'],
  '/account/passkeys': ['post'],
  '/account/password': ['post'],
  '/account/settings': ['get'],
  '/account/import': ['get', 'post'],
  '/account/import/{id}': ['get'],
  '/account/import/{id}/cancel': ['post'],
  '/account/domains': ['get', 'post'],
  '/account/domains/{id}/verify': ['post'],
  '/account/domains/{id}/settings': ['post'],
  '/account/domains/{id}/remove': ['post'],
  '/account/settings/confirm': ['post'],
  '/account/settings/keys': ['post'],
  '/account/settings/keys/{id}/revoke': ['post'],
  '/account/settings/password': ['post'],
  '/account/settings/sessions/{id}/end': ['post'],
  '/account/settings/passkeys/{id}/rename': ['post'],
  '/account/settings/passkeys/{id}/delete': ['post'],
};

/** The methods an OpenAPI path item may have. */
export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every schema reachable in the document with a `domain` property, and every `domain` parameter. */
export function domainSchemas(node: unknown, found: Json[] = []): Json[] {
  if (Array.isArray(node)) for (const item of node) domainSchemas(item, found);
  else if (typeof node === 'object' && node !== null) {
    const object = node as Json;
    if (object.properties?.domain) found.push(object.properties.domain);
    if (object.in === 'query' && object.name === 'domain') found.push(object.schema);
    for (const value of Object.values(object)) domainSchemas(value, found);
  }
  return found;
}
