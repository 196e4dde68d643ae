import { jsonContent, operation, pathParameter, ref } from './openapi-paths.js';
import type { Json } from './openapi-schemas.js';
import type { RouteDoc } from '../routes/route-table.js';

// The pieces of the pages' and forms' operations in `/openapi.json`: HTML answers, redirects, forms.

/** An HTML page's content. */
export const HTML = { 'text/html': { schema: { type: 'string' } } };
/** The error object's content. */
export const ERROR = jsonContent(ref('schemas', 'Error'));

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
/** `q`: the search of a page of links, e.g. `search('summer')`. */
export const search = (example: string): Json =>
  query('q', 'Shows the links whose slug, title or URL contains it.', example);
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
