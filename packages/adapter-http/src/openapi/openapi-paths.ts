import { CheckAliasInput, CreateLinkInput, ListLinksQuery, StatsQuery } from '@shortener/core';
import { queryParameters } from './openapi-schemas.js';
import type { Json } from './openapi-schemas.js';

/** A `$ref` to a component of the document, e.g. `ref('schemas', 'Link')`. */
export const ref = (section: string, name: string): Json => ({ $ref: `#/components/${section}/${name}` });

/** `{ 'application/json': { schema } }`. */
export const jsonContent = (schema: Json): Json => ({ 'application/json': { schema } });

/** The `RateLimit-*` headers of creation, bulk and plain-text shortening. */
export const rateLimitHeaders: Json = {
  'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
  'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
  'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
};

/** The error statuses of decisions §6 and their reusable responses in `components.responses`. */
const ERROR_RESPONSES = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  413: 'PayloadTooLarge',
  415: 'UnsupportedMediaType',
  429: 'RateLimited',
  500: 'InternalError',
  503: 'Unavailable',
} as const;
type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** Security requirements: `{}` makes credentials optional. */
const NONE: Json = {};
const KEY: Json = { apiKey: [] };
const TOKEN: Json = { editToken: [] };

interface OperationSpec {
  readonly id: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: string;
  /** Who may call; public operations say so with an empty list. */
  readonly security?: readonly Json[];
  readonly parameters?: readonly Json[];
  /** The request body's schema, and an example of it. */
  readonly body?: Json;
  readonly example?: unknown;
  /** The body's media types: JSON (the default), or a form that also takes JSON. */
  readonly bodyTypes?: readonly string[];
  readonly responses: Json;
  /** The error statuses this operation can answer with. */
  readonly errors?: readonly ErrorStatus[];
  /**
   * Whether 400 (more than 100 query parameters, as on every path), 500 and 503 (the database away)
   * are added when not given; true unless the operation describes its own.
   */
  readonly common?: boolean;
}

/** An OpenAPI operation object; API operations (under `/api/`) also take `lang`. */
export function operation(spec: OperationSpec, api = true): Json {
  const parameters = [...(spec.parameters ?? []), ...(api ? [ref('parameters', 'lang')] : [])];
  const errors = new Set<ErrorStatus>([
    ...(spec.errors ?? []),
    ...(spec.common === false ? [] : ([400, 500, 503] as const)),
  ]);
  if (spec.body !== undefined) errors.add(413).add(415);
  // an edit token spends from the token guess limit (decisions §14)
  if (spec.security?.includes(TOKEN) === true) errors.add(429);
  const responses: Json = { ...spec.responses };
  for (const status of [...errors].sort())
    if (!(status in responses)) responses[status] = ref('responses', ERROR_RESPONSES[status]);
  const types = spec.bodyTypes ?? ['application/json'];
  const content = Object.fromEntries(
    types.map((type) => [type, { schema: spec.body, example: spec.example }]),
  );
  return {
    operationId: spec.id,
    summary: spec.summary,
    description: spec.description,
    tags: [spec.tag],
    security: [...(spec.security ?? [])],
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(spec.body === undefined ? {} : { requestBody: { required: true, content } }),
    responses,
  };
}

/** The media type of a form post. */
export const FORM_TYPE = 'application/x-www-form-urlencoded';

const EDIT_TOKEN = 'et_4fTq9ZrW2mXb7LcN1vYs8KdJ3hGp6QaE';

const jsonResponse = (description: string, schema: string, headers?: Json): Json => ({
  description,
  ...(headers === undefined ? {} : { headers }),
  content: jsonContent(ref('schemas', schema)),
});

function linkPaths(hosts: readonly string[]): Json {
  const id = ref('parameters', 'linkId');
  const keyOrToken = [KEY, TOKEN];
  return {
    '/api/v1/links': {
      post: operation({
        id: 'createLink',
        summary: 'Create a short link',
        description:
          'Shortens `url`. Without an API key the link is anonymous: the response carries `edit_token` once; ' +
          'keep it to edit or delete the link. Omitting `alias` picks a random 6-character slug.',
        tag: 'links',
        security: [NONE, KEY],
        body: ref('schemas', 'CreateLink'),
        example: { url: 'https://example.com/a/long/path', alias: 'summer-sale', expires_in_days: 30 },
        responses: {
          201: jsonResponse('The created link.', 'Link', {
            Location: {
              description: 'The link’s URL in this API.',
              required: true,
              schema: { type: 'string' },
            },
            ...rateLimitHeaders,
          }),
        },
        errors: [401, 429],
      }),
      get: operation({
        id: 'listLinks',
        summary: 'List the account’s links',
        description:
          'The links of the API key’s account, newest first. Pass `next_cursor` as `cursor` for the next page; ' +
          '`next_cursor` is null on the last page.',
        tag: 'links',
        security: [KEY],
        parameters: queryParameters(ListLinksQuery, hosts),
        responses: { 200: jsonResponse('One page of links.', 'LinkList') },
        errors: [401],
      }),
    },
    '/api/v1/links/{id}': {
      parameters: [id],
      get: operation({
        id: 'getLink',
        summary: 'Get a link',
        description: 'Reads one link with the owning account’s API key or the link’s edit token.',
        tag: 'links',
        security: keyOrToken,
        responses: { 200: jsonResponse('The link.', 'Link') },
        errors: [401, 403, 404],
      }),
      patch: operation({
        id: 'updateLink',
        summary: 'Edit a link',
        description:
          'Changes the given fields; `null` removes an expiry, click cap, title or password (an empty ' +
          'password removes it too). Moving the expiry into the future or raising the cap reactivates the link.',
        tag: 'links',
        security: keyOrToken,
        body: ref('schemas', 'UpdateLink'),
        example: { title: 'Summer sale, extended', expires_in_days: 60, max_clicks: null },
        responses: { 200: jsonResponse('The updated link.', 'Link') },
        errors: [401, 403, 404],
      }),
      delete: operation({
        id: 'deleteLink',
        summary: 'Delete a link',
        description: 'Deletes the link and its statistics. The slug becomes free again.',
        tag: 'links',
        security: keyOrToken,
        responses: { 204: { description: 'Deleted.' } },
        errors: [401, 403, 404],
      }),
    },
    '/api/v1/links/{id}/stats': {
      parameters: [id],
      get: operation({
        id: 'getLinkStats',
        summary: 'Get click statistics',
        description:
          'Statistics of the last `days` days: `by_day` lists every day (oldest first), the other lists the ' +
          'top 20 plus `other`. Public statistics need no credentials; private ones need the key or edit token.',
        tag: 'stats',
        security: [NONE, KEY, TOKEN],
        parameters: queryParameters(StatsQuery, hosts),
        responses: { 200: jsonResponse('The statistics.', 'Stats') },
        errors: [401, 403, 404],
      }),
    },
  };
}

/** The JSON API under `/api/v1` and the plain-text `/api/shorten`. */
export function apiPaths(hosts: readonly string[]): Json {
  return {
    ...linkPaths(hosts),
    '/api/v1/check': {
      get: operation({
        id: 'checkAlias',
        summary: 'Check whether an alias is free',
        description:
          'Answers `free`, `taken`, `reserved` or `invalid` for the alias on the domain (default: the first ' +
          'short domain), and the other domain where it is free as `alternative`.',
        tag: 'links',
        security: [NONE, KEY],
        parameters: queryParameters(CheckAliasInput, hosts),
        responses: { 200: jsonResponse('The alias check result.', 'AliasCheck') },
        errors: [401],
      }),
    },
    '/api/v1/bulk': {
      post: operation({
        id: 'bulkCreateLinks',
        summary: 'Create many short links',
        description:
          'One result per input URL, in input order (`ok` true with `link`, or false with `error`). At most 20 ' +
          'URLs anonymously, 200 with a key (`too_many` otherwise); each URL uses one unit of the rate limit.',
        tag: 'links',
        security: [NONE, KEY],
        body: ref('schemas', 'BulkRequest'),
        example: { urls: ['https://example.com/a', 'https://example.com/b'], expires_in_days: 7 },
        responses: { 200: jsonResponse('Per-URL results.', 'BulkResponse', rateLimitHeaders) },
        errors: [401, 429],
      }),
    },
    '/api/v1/links/claim': {
      post: operation({
        id: 'claimLinks',
        summary: 'Attach anonymous links to the account',
        description:
          'Moves the links of the given edit tokens (at most 1000) to the API key’s account; unknown or ' +
          'already-claimed tokens are skipped. A claimed link’s edit token stops working.',
        tag: 'links',
        security: [KEY],
        body: ref('schemas', 'ClaimRequest'),
        example: { edit_tokens: [EDIT_TOKEN] },
        responses: { 200: jsonResponse('How many links were claimed.', 'ClaimResult') },
        errors: [401],
      }),
    },
    '/api/shorten': {
      get: operation({
        id: 'shortenPlainText',
        summary: 'Shorten a URL, answer in plain text',
        description:
          'For scripts: `curl "…/api/shorten?url=example.com"` prints only the short URL. An anonymous ' +
          'link’s edit token comes in the `X-Edit-Token` response header.',
        tag: 'links',
        security: [NONE, KEY],
        parameters: queryParameters(CreateLinkInput.pick({ url: true, alias: true, domain: true }), hosts),
        responses: {
          201: {
            description: 'The short URL, nothing else.',
            headers: {
              'X-Edit-Token': {
                description: 'The edit token (`et_…`) of an anonymous link, returned only here.',
                schema: { type: 'string', pattern: '^et_[A-Za-z0-9]{32}$' },
              },
              ...rateLimitHeaders,
            },
            content: { 'text/plain': { schema: { type: 'string', format: 'uri' } } },
          },
        },
        errors: [401, 429],
      }),
    },
  };
}
