import type { ServiceConfig } from '@shortener/core';
import { jsonContent, operation, pathParameter, ref } from './openapi-paths.js';
import type { Json } from './openapi-schemas.js';
import { sessionSiteOf } from '../account/session.js';

// The pieces of the pages' and forms' operations in `/openapi.json`: HTML answers, redirects, forms.

export const HTML = { 'text/html': { schema: { type: 'string' } } };
/** An HTML answer. */
export const html = (description: string, headers?: Json): Json => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: HTML,
});
/** An HTML page, or the error object. */
export const htmlOrError = (description: string): Json => ({
  description: `${description} (the error object on another host than {base_url}'s).`,
  content: { ...HTML, ...jsonContent(ref('schemas', 'Error')) },
});
export const setCookie = (description: string): Json => ({
  'Set-Cookie': { description, required: true, schema: { type: 'string' } },
});
/** A 303 to the next page. */
export const seeOther = (description: string, cookie?: string): Json => ({
  description,
  headers: {
    Location: { description: 'Where to go next.', required: true, schema: { type: 'string' } },
    ...(cookie === undefined ? {} : setCookie(cookie)),
  },
});
export const json = (description: string, schema: Json): Json => ({
  description,
  content: jsonContent(schema),
});
/** A form of text fields, all required. */
export const form = (fields: Record<string, string>): Json => ({
  type: 'object',
  properties: Object.fromEntries(
    Object.entries(fields).map(([name, description]) => [name, { type: 'string', description }]),
  ),
  required: Object.keys(fields),
});
export const SIGNED_IN = 'The session cookie (HttpOnly, SameSite=Lax, Path=/; Secure over https).';
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
const FAILURE: Json = {
  description: 'Any other failure (the statuses above are all it answers): the error object.',
  content: jsonContent(ref('schemas', 'Error')),
};

/** `done`: after a form's redirect, the action whose confirmation the page shows at its top. */
export const doneParameter = (values: string): Json =>
  query(
    'done',
    `After a form's redirect: the action to confirm at the top of the page (${values}).`,
    'saved',
  );

/** An optional text query parameter of a page (a search, a cursor): at most 200 characters. */
export const query = (name: string, description: string, example: string): Json => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'string', maxLength: 200 },
  example,
});

/** The cookie security scheme: the session of a browser signed in at {base_url} (decisions §10). */
export function sessionSecurityScheme(config: ServiceConfig): Json {
  return {
    type: 'apiKey',
    in: 'cookie',
    name: sessionSiteOf(config.baseUrl).cookieName,
    description:
      'The session of a browser signed in at `/login`. It authenticates every API operation that takes ' +
      'an API key, for requests from {base_url}’s own pages: a change must carry {base_url}’s `Origin` ' +
      '(or `Sec-Fetch-Site: same-origin`), else 403 `forbidden`.',
  };
}

/** `form` with optional text fields besides its required ones. */
export const withOptional = (schema: Json, fields: Record<string, string>): Json => ({
  ...schema,
  properties: {
    ...(schema.properties as Json),
    ...Object.fromEntries(
      Object.entries(fields).map(([name, description]) => [name, { type: 'string', description }]),
    ),
  },
});

/** The path parameter of an invite link's token. */
export const token: Json = pathParameter(
  'token',
  'The token of the invite link (`inv_…`).',
  'inv_4fTq9ZrW2mXb7LcN1vYs8KdJ3hGp6QaE',
);
