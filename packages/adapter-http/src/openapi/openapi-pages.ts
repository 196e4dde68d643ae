import { FORM_TYPE, jsonContent, operation, pathParameter, ref } from './openapi-paths.js';
import type { Json } from './openapi-schemas.js';

const HTML = { 'text/html': { schema: { type: 'string' } } };

const html = (description: string, headers?: Json): Json => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: HTML,
});

/** An HTML page, or the error object for clients that prefer `application/json` (decisions §4). */
const pageError = (description: string): Json => ({
  description: `${description} HTML page, or the error object when the client prefers application/json.`,
  content: { ...HTML, ...jsonContent(ref('schemas', 'Error')) },
});

const header = (description: string, schema: Json = { type: 'string' }, required = false): Json => ({
  description,
  ...(required ? { required } : {}),
  schema,
});

const notFound = pageError('`not_found`: no such link.');
const gone = pageError('The link has expired, reached its click limit or was disabled.');
/** The caching headers of a QR image. */
export const cacheHeaders = {
  ETag: header('Entity tag of the image.', { type: 'string' }, true),
  'Cache-Control': header('`public, max-age=86400`.', { const: 'public, max-age=86400' }, true),
};
/** 304 to a client that has the image (`If-None-Match`). */
export const notModified = {
  description: 'The image is unchanged (`If-None-Match`).',
  headers: cacheHeaders,
};
const redirect = (description: string): Json => ({
  description,
  headers: {
    Location: header(
      'The destination URL: the first rule that holds picks it, else the link URL; with `forward_query` the visitor’s query parameters are added (the destination’s own win).',
      { type: 'string', format: 'uri' },
      true,
    ),
    'Cache-Control': header(
      '`private, max-age=0`: every click reaches the server; `private, max-age=3600` with a permanent status (301/308).',
    ),
    'X-Robots-Tag': header('`noindex, nofollow` unless the link is crawlable.'),
  },
});
/** The statuses a redirect may answer with (decisions §15: the link's `redirect_status`). */
const redirects = (description: string): Json => ({
  301: redirect(`${description} Permanent (the link's \`redirect_status\`).`),
  302: redirect(`${description} The default.`),
  307: redirect(`${description} The link's \`redirect_status\`.`),
  308: redirect(`${description} Permanent (the link's \`redirect_status\`).`),
});
const page = (spec: Parameters<typeof operation>[0]): Json => operation(spec, false);

function slugPaths(): Json {
  const slug = ref('parameters', 'slug');
  return {
    '/{slug}': {
      parameters: [slug],
      get: page({
        id: 'followLink',
        summary: 'Follow a short link',
        description:
          'Redirects to the destination and counts a click (bots are redirected but counted apart). A ' +
          'password-protected link answers a password form instead. Served before the web framework: the ' +
          'query string is read only for `lang`, redirect rules on `query` and `forward_query`.',
        tag: 'public',
        responses: {
          200: html('The password form of a protected link.'),
          ...redirects('Redirect to the destination.'),
          404: notFound,
          410: gone,
        },
        errors: [500],
        common: false,
      }),
      post: page({
        id: 'unlockLink',
        summary: 'Submit the password of a protected link',
        description:
          'Form post of the password page (a JSON body `{ "password" }` works too). The right password ' +
          'redirects (a click); 10 wrong tries per IP and link in 15 minutes lock further tries. A link ' +
          'without a password just redirects.',
        tag: 'public',
        body: {
          type: 'object',
          properties: { password: { type: 'string', description: 'The link’s password.' } },
          required: ['password'],
        },
        example: { password: 'correct horse' },
        bodyTypes: [FORM_TYPE, 'application/json'],
        responses: {
          ...redirects('Right password: redirect.'),
          401: html('Wrong or missing password: the form again, with an error.'),
          404: notFound,
          410: gone,
          default: {
            description: 'Any other failure (the statuses above are all it answers): the error object.',
            content: jsonContent(ref('schemas', 'Error')),
          },
        },
        errors: [429],
      }),
    },
    '/{slug}+': {
      parameters: [slug],
      get: page({
        id: 'previewLink',
        summary: 'Preview a short link',
        description:
          'Shows destination, creation date and public statistics without redirecting or counting.',
        tag: 'public',
        responses: { 200: html('The preview page (no destination for a protected link).'), 404: notFound },
      }),
    },
    '/{slug}.json': {
      parameters: [slug],
      get: page({
        id: 'getPublicLink',
        summary: 'Public facts of a short link',
        description:
          '`url` is omitted for a password-protected link; `clicks` appears only with public stats.',
        tag: 'public',
        responses: {
          200: {
            description: 'The public link.',
            headers: { 'Cache-Control': header('`no-cache`.', { const: 'no-cache' }, true) },
            content: jsonContent(ref('schemas', 'PublicLink')),
          },
        },
        errors: [404],
      }),
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

/** The fields of the link form (the home page's and the account page's), as posted. */
export function linkFormSchema(hosts: readonly string[]): Json {
  const field = (name: string): Json =>
    name === 'domain' ? { type: 'string', enum: [...hosts] } : { type: 'string' };
  return { type: 'object', properties: Object.fromEntries(FORM_FIELDS.map((name) => [name, field(name)])) };
}

/** The web form at `/`: the page, and its post for browsers without JavaScript. */
function homePaths(hosts: readonly string[]): Json {
  const form = linkFormSchema(hosts);
  const retry = { 'Retry-After': ref('headers', 'Retry-After') };
  return {
    '/': {
      get: page({
        id: 'homePage',
        summary: 'The web form',
        description: 'Creates links in the browser (through `POST /api/v1/links`).',
        tag: 'public',
        responses: { 200: html('The form.') },
      }),
      post: page({
        id: 'createLinkFromForm',
        summary: 'Create a link from the form without JavaScript',
        description:
          'The fields of CreateLink as form strings; empty ones are left out, `private_stats` sets ' +
          '`public_stats` false, and an `expires_at` without a zone is read as UTC. Limited like anonymous ' +
          'creation. A missing `url` is answered with the form again (400). Signed in on {base_url} (the ' +
          "session cookie, from its own pages), the link is the account's and has no edit token.",
        tag: 'public',
        body: form,
        example: { url: 'https://example.com/a/long/path', alias: 'summer-sale' },
        bodyTypes: [FORM_TYPE, 'application/json'],
        responses: {
          201: html('The new link, its QR code and the edit token (shown once).'),
          400: {
            description:
              'The form again, with what was typed and the error (HTML); the error object for a body that ' +
              'is not valid JSON or more than 100 query parameters.',
            content: { ...HTML, ...jsonContent(ref('schemas', 'Error')) },
          },
          403: html('The form again: signed in by cookie, but posted from another site (decisions §10).'),
          429: html('The form again: the creation limit is reached.', retry),
        },
      }),
    },
  };
}

function assetPaths(): Json {
  const types = ['text/css', 'text/javascript', 'image/svg+xml'];
  return {
    '/assets/{file}': {
      get: page({
        id: 'getAsset',
        summary: 'A static file of the pages',
        description: 'Stylesheet, script and icon of the pages; the name carries a content hash.',
        tag: 'public',
        parameters: [
          pathParameter('file', 'The hashed file name, as the pages link it.', 'app.1a2b3c4d5e.css'),
        ],
        responses: {
          200: {
            description: 'The file, cacheable for a year.',
            headers: { ETag: header('Content hash.', { type: 'string' }, true) },
            content: Object.fromEntries(types.map((type) => [type, { schema: { type: 'string' } }])),
          },
          304: { description: 'Unchanged (`If-None-Match`).' },
          404: ref('responses', 'NotFound'),
        },
      }),
    },
  };
}

/** The public pages on the short domains, plus the web form and its assets. */
export function pagePaths(origins: readonly string[], hosts: readonly string[]): Json {
  const servers = origins.map((url) => ({ url }));
  const pages = Object.entries(slugPaths()).map(([path, item]) => [path, { servers, ...(item as Json) }]);
  return { ...homePaths(hosts), ...assetPaths(), ...Object.fromEntries(pages) };
}
