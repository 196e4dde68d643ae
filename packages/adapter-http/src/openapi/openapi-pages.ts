import { jsonContent, operation, pathParameter, ref } from './openapi-paths.js';
import type { Json } from './openapi-schemas.js';
import type { RouteDoc } from '../routes/route-table.js';

// The pieces of the pages' and forms' operations in `/openapi.json`: HTML answers, redirects, forms.

/** An HTML page's content. */
export const HTML = { 'text/html': { schema: { type: 'string' } } };
const ERROR = jsonContent(ref('schemas', 'Error'));

/** A response that is an HTML page. */
export const html = (description: string, headers?: Json): Json => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: HTML,
});
/** A JSON response of `schema`. */
export const json = (description: string, schema: Json): Json => ({
  description,
  content: jsonContent(schema),
});
/** An account page, or the error object on another host than {base_url}'s. */
export const htmlOrError = (description: string): Json => ({
  description: `${description} (the error object on another host than {base_url}'s).`,
  content: { ...HTML, ...ERROR },
});
/** A page of a short link, or the error object for clients that prefer `application/json` (decisions §4). */
const pageError = (description: string): Json => ({
  description: `${description} HTML page, or the error object when the client prefers application/json.`,
  content: { ...HTML, ...ERROR },
});
/** What an operation answers besides the statuses it lists: the error object. */
export const FAILURE: Json = {
  description: 'Any other failure (the statuses above are all it answers): the error object.',
  content: ERROR,
};

/** A response header. */
export const header = (description: string, schema: Json = { type: 'string' }, required = false): Json => ({
  description,
  ...(required ? { required } : {}),
  schema,
});
export const setCookie = (description: string): Json => ({
  'Set-Cookie': header(description, undefined, true),
});
export const SIGNED_IN = 'The session cookie (HttpOnly, SameSite=Lax, Path=/; Secure over https).';
/** A 303 to the next page. */
export const seeOther = (description: string, cookie?: string): Json => ({
  description,
  headers: {
    Location: header('Where to go next.', undefined, true),
    ...(cookie === undefined ? {} : setCookie(cookie)),
  },
});

/** An operation of the account area: 403 from another site, 404 on another host than {base_url}'s. */
export const page = (spec: Omit<Parameters<typeof operation>[0], 'tag'>): Json => {
  const success = Object.keys(spec.responses).some((status) => status.startsWith('2'));
  // a form's success is a redirect; `default` keeps the failures described for linters that want a 2XX
  const responses = success ? spec.responses : { ...spec.responses, default: FAILURE };
  return operation(
    { ...spec, responses, tag: 'accounts', errors: [403, 404, ...(spec.errors ?? [])] },
    false,
  );
};

/** An optional text query parameter of a page (a search, a cursor): at most 200 characters. */
export const query = (name: string, description: string, example: string): Json => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'string', maxLength: 200 },
  example,
});
/** `done`: after a form's redirect, the action whose confirmation the page shows at its top. */
export const doneParameter = (values: string): Json =>
  query(
    'done',
    `After a form's redirect: the action to confirm at the top of the page (${values}).`,
    'saved',
  );

/** The path parameter of an invite link's token. */
export const token: Json = pathParameter(
  'token',
  'The token of the invite link (`inv_…`).',
  'inv_4fTq9ZrW2mXb7LcN1vYs8KdJ3hGp6QaE',
);

/** A button's post on the settings page: an empty form, a 303 back, 404 for an id the account does not have. */
export const buttonDoc = (
  id: string,
  summary: string,
  description: string,
  target: Json,
  done = 'Done: to `/account/settings`.',
  extra: Json = {},
): RouteDoc => ({
  id,
  summary,
  description,
  parameters: [target],
  responses: { 303: seeOther(done), ...extra },
  errors: [401],
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
