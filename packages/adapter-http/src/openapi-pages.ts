import { QrPngQuery, QrSvgQuery } from '@shortener/core';
import { jsonContent, operation, ref } from './openapi-paths.js';
import type { Json } from './openapi-schemas.js';
import { queryParameters } from './openapi-schemas.js';

const html = (description: string, headers?: Json): Json => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: { 'text/html': { schema: { type: 'string' } } },
});

/** An HTML page, or the error object for clients that send `Accept: application/json`. */
const pageError = (description: string): Json => ({
  description: `${description} HTML page, or the error object when the client prefers application/json.`,
  content: { 'text/html': { schema: { type: 'string' } }, ...jsonContent(ref('schemas', 'Error')) },
});

const header = (description: string, format?: string): Json => ({
  description,
  schema: { type: 'string', ...(format === undefined ? {} : { format }) },
});

const notFound = pageError('`not_found`: no such link.');
const qrHeaders = {
  ETag: header('Entity tag of the image.'),
  'Cache-Control': header('`public, max-age=86400`.'),
};
const jsonRpc = (description: string): Json => ({
  description,
  content: jsonContent(ref('schemas', 'JsonRpcResponse')),
});

function slugPaths(): Json {
  const slug = ref('parameters', 'slug');
  return {
    '/{slug}': {
      parameters: [slug],
      get: operation(
        {
          id: 'followLink',
          summary: 'Follow a short link',
          description:
            'Redirects to the destination and counts a click (bots are redirected but counted apart). A ' +
            'password-protected link answers a password form instead.',
          tag: 'public',
          responses: {
            200: html('The password form of a protected link.'),
            302: {
              description: 'Redirect to the destination.',
              headers: {
                Location: header('The destination URL.', 'uri'),
                'Cache-Control': header('`private, max-age=0`.'),
              },
            },
            404: notFound,
            410: pageError('The link has expired or was disabled.'),
          },
        },
        false,
      ),
      post: operation(
        {
          id: 'unlockLink',
          summary: 'Submit the password of a protected link',
          description:
            'Form post of the password page. The right password redirects (a click); 10 wrong tries per IP and ' +
            'link in 15 minutes lock further tries.',
          tag: 'public',
          responses: {
            302: {
              description: 'Right password: redirect.',
              headers: { Location: header('Destination.', 'uri') },
            },
            401: html('Wrong password: the form again, with an error.'),
            404: notFound,
            410: pageError('The link has expired or was disabled.'),
            429: ref('responses', 'RateLimited'),
          },
        },
        false,
      ),
    },
    '/{slug}+': {
      parameters: [slug],
      get: operation(
        {
          id: 'previewLink',
          summary: 'Preview a short link',
          description:
            'Shows destination, creation date and public statistics without redirecting or counting.',
          tag: 'public',
          responses: { 200: html('The preview page (no destination for a protected link).'), 404: notFound },
        },
        false,
      ),
    },
    '/{slug}.json': {
      parameters: [slug],
      get: operation(
        {
          id: 'getPublicLink',
          summary: 'Public facts of a short link',
          description:
            '`url` is omitted for a password-protected link; `clicks` appears only with public stats.',
          tag: 'public',
          responses: {
            200: { description: 'The public link.', content: jsonContent(ref('schemas', 'PublicLink')) },
            404: ref('responses', 'NotFound'),
          },
        },
        false,
      ),
    },
    '/{slug}.png': {
      parameters: [slug],
      get: operation(
        {
          id: 'getQrPng',
          summary: 'QR code as PNG',
          description: 'A QR code of the short URL. Colors are `#rgb`, `#rrggbb` or `#rrggbbaa`.',
          tag: 'public',
          parameters: queryParameters(QrPngQuery, []),
          responses: {
            200: { description: 'The PNG.', headers: qrHeaders, content: { 'image/png': {} } },
            400: ref('responses', 'BadRequest'),
            404: notFound,
          },
        },
        false,
      ),
    },
    '/{slug}.svg': {
      parameters: [slug],
      get: operation(
        {
          id: 'getQrSvg',
          summary: 'QR code as SVG',
          description: 'A QR code of the short URL. Colors are `#rgb`, `#rrggbb` or `#rrggbbaa`.',
          tag: 'public',
          parameters: queryParameters(QrSvgQuery, []),
          responses: {
            200: { description: 'The SVG.', headers: qrHeaders, content: { 'image/svg+xml': {} } },
            400: ref('responses', 'BadRequest'),
            404: notFound,
          },
        },
        false,
      ),
    },
  };
}

const FORM_FIELDS = [
  'url',
  'alias',
  'domain',
  'title',
  'expires_in_days',
  'expires_at',
  'max_clicks',
  'password',
  'private_stats',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
];

/** The web form at `/`: the page, and its post for browsers without JavaScript. */
function homePaths(hosts: readonly string[]): Json {
  const field = (name: string): Json =>
    name === 'domain' ? { type: 'string', enum: [...hosts] } : { type: 'string' };
  const form = {
    type: 'object',
    required: ['url'],
    properties: Object.fromEntries(FORM_FIELDS.map((name) => [name, field(name)])),
  };
  const page = (id: string, summary: string, description: string, responses: Json): Json =>
    operation({ id, summary, description, tag: 'public', responses }, false);
  return {
    '/': {
      get: page('homePage', 'The web form', 'Creates links in the browser (through `POST /api/v1/links`).', {
        200: html('The form.'),
      }),
      post: {
        ...page(
          'createLinkFromForm',
          'Create a link from the form without JavaScript',
          'The fields of CreateLink as form strings; empty ones are left out, `private_stats` sets ' +
            '`public_stats` false, and an `expires_at` without a zone is read as UTC. Limited like anonymous ' +
            'creation.',
          {
            201: html('The new link, its QR code and the edit token (shown once).'),
            400: html('The form again, with what was typed and the error.'),
            429: html('The form again: the creation limit is reached.', {
              'Retry-After': ref('headers', 'Retry-After'),
            }),
          },
        ),
        requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: form } } },
      },
    },
  };
}

function metaPaths(): Json {
  const meta = (id: string, summary: string, description: string, responses: Json): Json =>
    operation({ id, summary, description, tag: 'meta', responses }, false);
  const status = (value: string): Json => ({ type: 'object', properties: { status: { const: value } } });
  return {
    '/healthz': {
      get: meta('getHealth', 'Health check', 'Whether the service and its store answer.', {
        200: { description: 'Healthy.', content: jsonContent(status('ok')) },
        503: { description: 'The store does not answer.' },
      }),
    },
    '/openapi.json': {
      get: meta('getOpenApi', 'This document', 'The OpenAPI 3.1 description of the service.', {
        200: { description: 'The OpenAPI document.', content: jsonContent({ type: 'object' }) },
      }),
    },
    '/llms.txt': {
      get: meta('getLlmsTxt', 'Summary for AI clients', 'Markdown per the llms.txt convention.', {
        200: { description: 'The summary.', content: { 'text/markdown': { schema: { type: 'string' } } } },
      }),
    },
  };
}

function mcpPaths(): Json {
  const notAllowed = (id: string, method: string): Json =>
    operation(
      {
        id,
        summary: `${method} is not supported`,
        description: 'The endpoint is stateless: no server-sent event stream and no sessions to delete.',
        tag: 'mcp',
        responses: { 405: jsonRpc('Method not allowed.') },
      },
      false,
    );
  return {
    '/mcp': {
      post: operation(
        {
          id: 'mcp',
          summary: 'Model Context Protocol (Streamable HTTP, stateless)',
          description:
            'JSON-RPC 2.0: `initialize`, `tools/list`, `tools/call` with the tools `shorten_url`, ' +
            '`check_alias`, `get_link_info` and `qr_code`. Send `Accept: application/json, text/event-stream`. ' +
            'An API key saves created links to the account.',
          tag: 'mcp',
          security: [{}, { apiKey: [] }],
          body: ref('schemas', 'JsonRpcRequest'),
          responses: {
            200: jsonRpc('The JSON-RPC response.'),
            202: { description: 'A notification was accepted (no body).' },
            400: jsonRpc('Malformed JSON-RPC.'),
            406: jsonRpc('The Accept header does not allow application/json and text/event-stream.'),
          },
          errors: [401, 413],
        },
        false,
      ),
      get: notAllowed('mcpGet', 'GET'),
      delete: notAllowed('mcpDelete', 'DELETE'),
    },
  };
}

/** The public pages on the short domains, plus `/healthz`, `/openapi.json`, `/llms.txt` and `/mcp`. */
export function pagePaths(origins: readonly string[], hosts: readonly string[]): Json {
  const servers = origins.map((url) => ({ url }));
  const pages = Object.entries(slugPaths()).map(([path, item]) => [path, { servers, ...(item as Json) }]);
  return { ...homePaths(hosts), ...metaPaths(), ...mcpPaths(), ...Object.fromEntries(pages) };
}
