import { jsonContent, ref } from './openapi-paths.js';
import type { Json } from './openapi-schemas.js';

/** An HTML page's content. */
export const HTML = { 'text/html': { schema: { type: 'string' } } };

/** A response that is an HTML page. */
export const html = (description: string, headers?: Json): Json => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: HTML,
});

/** An HTML page, or the error object for clients that prefer `application/json` (decisions §4). */
const pageError = (description: string): Json => ({
  description: `${description} HTML page, or the error object when the client prefers application/json.`,
  content: { ...HTML, ...jsonContent(ref('schemas', 'Error')) },
});

/** A response header. */
export const header = (description: string, schema: Json = { type: 'string' }, required = false): Json => ({
  description,
  ...(required ? { required } : {}),
  schema,
});

/** `not_found` as a page, or the error object. */
export const notFound = pageError('`not_found`: no such link.');
/** A link's 410 as a page, or the error object. */
export const gone = pageError('The link has expired, reached its click limit or was disabled.');
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
export const redirects = (description: string): Json => ({
  301: redirect(`${description} Permanent (the link's \`redirect_status\`).`),
  302: redirect(`${description} The default.`),
  307: redirect(`${description} The link's \`redirect_status\`.`),
  308: redirect(`${description} Permanent (the link's \`redirect_status\`).`),
});
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
