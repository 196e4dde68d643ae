import { REDIRECT_STATUSES } from '@shortener/core';
import { ERROR, HTML, header } from '../openapi/openapi-pages.js';
import type { Json } from '../openapi/openapi-schemas.js';

// The pieces of the short domains' pages in `/openapi.json`: a missing or gone link, redirects, images.

/** A page of a short link, or the error object for clients that prefer `application/json` (decisions §4). */
const pageError = (description: string): Json => ({
  description: `${description} HTML page, or the error object when the client prefers application/json.`,
  content: { ...HTML, ...ERROR },
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
      'The destination URL: the first rule that holds picks it, else the split entry the visitor’s daily hash picks (decisions §19), else the link URL; with `forward_query` the visitor’s query parameters are added (the destination’s own win). A 302 of an expired or used-up link goes to its `expired_url`, of an unknown slug to `NOT_FOUND_REDIRECT` (then `Cache-Control: no-store`).',
      { type: 'string', format: 'uri' },
      true,
    ),
    'Cache-Control': header(
      '`private, max-age=0`: every click reaches the server; `private, max-age=3600` with a permanent status (301/308); `no-store` for a dead end sent elsewhere.',
    ),
    'X-Robots-Tag': header('`noindex, nofollow` unless the link is crawlable.'),
  },
});
const STATUS_NOTES: Record<number, string> = { 302: 'The default.', 307: "The link's `redirect_status`." };
/** The statuses a redirect may answer with (decisions §15: the link's `redirect_status`). */
export const redirects = (description: string): Json =>
  Object.fromEntries(
    REDIRECT_STATUSES.map((status) => [
      status,
      redirect(`${description} ${STATUS_NOTES[status] ?? "Permanent (the link's `redirect_status`)."}`),
    ]),
  );
