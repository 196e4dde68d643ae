import { LANGUAGES } from '@shortener/core';
import type { ServiceConfig } from '@shortener/core';
import { pagePaths } from './openapi-pages.js';
import { apiPaths, jsonContent, rateLimitHeaders, ref } from './openapi-paths.js';
import { componentSchemas } from './openapi-schemas.js';
import type { Json } from './openapi-schemas.js';

const errorResponse = (description: string, headers?: Json): Json => ({
  description: `${description} Body: the error object; \`code\` says which rule failed.`,
  ...(headers === undefined ? {} : { headers }),
  content: jsonContent(ref('schemas', 'Error')),
});

const integerHeader = (description: string): Json => ({
  description,
  schema: { type: 'integer', minimum: 0 },
});

function components(hosts: readonly string[]): Json {
  return {
    schemas: componentSchemas(hosts),
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
    },
    parameters: {
      lang: {
        name: 'lang',
        in: 'query',
        required: false,
        description: 'Language of error messages; beats `Accept-Language`. English by default.',
        schema: { type: 'string', enum: [...LANGUAGES] },
      },
      linkId: {
        name: 'id',
        in: 'path',
        required: true,
        description: 'The link `id` (uuid) from the Link object.',
        schema: { type: 'string', format: 'uuid' },
      },
      slug: {
        name: 'slug',
        in: 'path',
        required: true,
        description: 'The slug of the short link; resolved in the short domain named by the Host header.',
        schema: { type: 'string' },
      },
    },
    headers: {
      'Retry-After': integerHeader('Seconds to wait before retrying.'),
      'RateLimit-Limit': integerHeader('Requests allowed in the current rolling window.'),
      'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
      'RateLimit-Reset': integerHeader('Seconds until the window has room again.'),
    },
    responses: {
      BadRequest: errorResponse('Invalid input (validation codes, `too_many`, or `invalid_request`).'),
      Unauthorized: errorResponse(
        '`unauthorized`: a bad or revoked API key, or no key where one is required.',
      ),
      Forbidden: errorResponse('`forbidden`: neither the owning API key nor the edit token of this link.'),
      NotFound: errorResponse('`not_found`: no such link.'),
      PayloadTooLarge: errorResponse('`invalid_request`: the body is larger than 1 MiB.'),
      RateLimited: errorResponse('`rate_limited`: wait `Retry-After` seconds.', {
        'Retry-After': ref('headers', 'Retry-After'),
        ...rateLimitHeaders,
      }),
      InternalError: errorResponse('`internal_error`: an unexpected failure; no details are given.'),
    },
  };
}

/**
 * Builds the OpenAPI 3.1.0 document served at `/openapi.json`. Request and response schemas are
 * generated from the core zod schemas (the ones the edges parse with), so the document cannot drift
 * from the code; `domain` fields enumerate the configured short-domain hosts.
 */
export function buildOpenApiDocument(config: ServiceConfig): object {
  const hosts = config.shortDomains.map((d) => d.host);
  return {
    openapi: '3.1.0',
    info: {
      title: 'shortener',
      version: '1.0.0',
      summary: 'Self-hosted URL shortener: short links, QR codes, statistics and an MCP endpoint.',
      description:
        `Turns long http(s) URLs into short links on ${hosts.join(' or ')}. Anonymous use is ` +
        'allowed and rate-limited per IP; an API key saves links to an account. Errors are ' +
        '`{ "error": { "code", "message" } }`. A summary for AI clients is at `/llms.txt`.',
    },
    servers: [{ url: config.baseUrl }],
    tags: [
      { name: 'links', description: 'Create, list, read, edit and delete short links.' },
      { name: 'stats', description: 'Cookie-free click statistics.' },
      { name: 'public', description: 'Redirects, previews and QR codes on the short domains.' },
      { name: 'meta', description: 'Health, this document and the llms.txt summary.' },
      { name: 'mcp', description: 'Model Context Protocol endpoint for AI agents.' },
    ],
    paths: {
      ...apiPaths(hosts),
      ...pagePaths(
        config.shortDomains.map((d) => d.origin),
        hosts,
      ),
    },
    components: components(hosts),
  };
}
