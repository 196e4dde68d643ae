import { LANGUAGES } from '@shortener/core';
import type { ServiceConfig } from '@shortener/core';
import type { z } from 'zod';
import { sessionSiteOf } from '../server/session.js';
import { errorResponses, pathParameter } from './openapi-paths.js';
import { query } from './openapi-pages.js';
import { componentSchemas } from './openapi-schemas.js';
import { WEBHOOK_SIGNATURE_SCHEME, inMatchOrder, webhookDocs } from './openapi-webhooks.js';
import type { Json } from './openapi-schemas.js';

const LINK_ID = '3f2b8c1e-6a4d-4f7b-9c2e-8d1a5b6c7e90';

const integerHeader = (description: string): Json => ({
  description,
  schema: { type: 'integer', minimum: 0 },
});

function parameters(): Json {
  return {
    lang: {
      ...query('lang', 'Language of error messages; beats `Accept-Language`. English by default.', 'de'),
      schema: { type: 'string', enum: [...LANGUAGES] },
    },
    account: {
      name: 'Shortener-Account',
      in: 'header',
      required: false,
      description:
        'The account to act for (decisions §21): a team the person of the key or session belongs to, with ' +
        'their role there (a key’s role and limits still apply). Absent: their own account. A team they are ' +
        'not in is 404 `not_found`; a role too low for the operation 403 `forbidden`, naming the role needed.',
      schema: { type: 'string' },
      example: 'acme',
    },
    linkId: {
      ...pathParameter('id', 'The link’s `id`.', LINK_ID),
      schema: { type: 'string', format: 'uuid' },
    },
    slug: {
      ...pathParameter(
        'slug',
        'The slug of the short link; resolved in the short domain named by the Host header.',
        'summer-sale',
      ),
      schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
    },
  };
}

function components(config: ServiceConfig, bodies: readonly z.ZodType[]): Json {
  return {
    schemas: componentSchemas(config, bodies),
    securitySchemes: {
      apiKey: {
        type: 'http',
        scheme: 'bearer',
        description:
          'API key issued by the operator (`shortener keys create ACCOUNT`), sent as ' +
          '`Authorization: Bearer shk_…` (`shk_` + 32 base62 characters). Saves links to the account ' +
          'and raises the rate limit; required to list and claim links.',
      },
      editToken: {
        type: 'apiKey',
        in: 'header',
        name: 'X-Edit-Token',
        description:
          'Edit token `et_…` returned once when an anonymous link is created (`edit_token` field, or ' +
          'the `X-Edit-Token` header of `/api/shorten`). Grants detail, edit, delete and stats of that one link.',
      },
      session: {
        type: 'apiKey',
        in: 'cookie',
        name: sessionSiteOf(config.baseUrl).cookieName,
        description:
          'The session of a browser signed in at `/login`. It authenticates every API operation that takes ' +
          'an API key, for requests from {base_url}’s own pages: a change must carry {base_url}’s `Origin` ' +
          '(or `Sec-Fetch-Site: same-origin`), else 403 `forbidden`.',
      },
      webhookSignature: WEBHOOK_SIGNATURE_SCHEME,
    },
    parameters: parameters(),
    headers: {
      'Retry-After': { ...integerHeader('Seconds to wait before retrying.'), required: true },
      'RateLimit-Limit': integerHeader('Requests allowed in the current rolling window.'),
      'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
      'RateLimit-Reset': integerHeader('Seconds until the window has room again.'),
    },
    responses: errorResponses(),
  };
}

const DESCRIPTION = [
  'Turns long http(s) URLs into short links on HOSTS. Anonymous use is allowed and rate-limited per IP; ',
  'an API key saves links to an account. Errors are `{ "error": { "code", "message", "field"? } }`. ',
  'A summary for AI clients is at `/llms.txt`.\n\n',
  'Methods: `HEAD` is answered wherever `GET` is, without a body. `OPTIONS` answers 204 with `Allow`. ',
  'Any method a path does not list here answers 405 with `Allow` and the error object (`invalid_request`); ',
  'a path not listed here answers 404 with the error object (`not_found`).\n\n',
  'Connections: a request that is not valid HTTP/1.1 answers 400, headers over the size limit 431, a ',
  'request that takes too long to arrive 408, each with the error object and `Connection: close`; ',
  'connections over the server’s limits are closed without an answer.',
].join('');

/**
 * Builds the OpenAPI 3.1.0 document served at `/openapi.json`. Request and response schemas are
 * generated from the core zod schemas (the ones the edges parse with), so the document cannot drift
 * from the code; `domain` fields enumerate the configured short-domain hosts. `paths` and `bodies` are
 * the route tables' (`routePaths`, `bodySchemasOf`).
 */
export function openApiDocument(
  config: ServiceConfig,
  paths: Record<string, Json>,
  bodies: readonly z.ZodType[],
): object {
  const hosts = config.shortDomains.map((d) => d.host);
  return {
    openapi: '3.1.0',
    info: {
      title: 'shortener',
      version: '1.0.0',
      summary: 'Self-hosted URL shortener: short links, QR codes, statistics and an MCP endpoint.',
      description: DESCRIPTION.replace('HOSTS', hosts.join(' or ')),
      contact: { name: 'The operator of this service', url: config.baseUrl },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: config.baseUrl }],
    tags: [
      { name: 'links', description: 'Create, list, read, edit and delete short links.' },
      { name: 'stats', description: 'Cookie-free click statistics.' },
      { name: 'public', description: 'Redirects, previews and QR codes on the short domains.' },
      { name: 'meta', description: 'Health, this document and the llms.txt summary.' },
      { name: 'mcp', description: 'Model Context Protocol endpoint for AI agents.' },
      { name: 'accounts', description: 'Signing in at {base_url}, and the account’s API keys.' },
      { name: 'webhooks', description: 'Signed events of the account’s links, POSTed to its endpoints.' },
      { name: 'imports', description: 'Links brought in from Shlink, Kutt, Bitly or a CSV file.' },
      {
        name: 'domains',
        description: 'The account’s own domains: verified in DNS, served with HTTPS on demand.',
      },
      { name: 'teams', description: 'Teams people act for, their members, roles and invite links.' },
    ],
    paths: inMatchOrder(paths),
    webhooks: webhookDocs(),
    components: components(config, bodies),
  };
}
