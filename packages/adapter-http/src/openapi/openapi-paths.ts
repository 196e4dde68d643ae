import type { Json } from './openapi-schemas.js';

/** A `$ref` to a component of the document, e.g. `ref('schemas', 'Link')`. */
export const ref = (section: string, name: string): Json => ({ $ref: `#/components/${section}/${name}` });

/** A required string path parameter, e.g. `pathParameter('id', 'The key `id`.', '0b9a…')`. */
export const pathParameter = (name: string, description: string, example: string): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
  example,
});

/** `{ 'application/json': { schema } }`. */
export const jsonContent = (schema: Json): Json => ({ 'application/json': { schema } });

/** `{ [mediaType]: { schema: { type: 'string' } } }`: a body of text (plain, Markdown, CSV, HTML). */
export const textContent = (mediaType: string): Json => ({ [mediaType]: { schema: { type: 'string' } } });

/** The `RateLimit-*` headers of creation, bulk and plain-text shortening. */
export const rateLimitHeaders: Json = {
  'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
  'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
  'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
};

const RETRY_AFTER = { 'Retry-After': ref('headers', 'Retry-After') };
/**
 * The error statuses of decisions §6: their reusable responses in `components.responses` (name, what
 * they mean, headers).
 */
const ERROR_RESPONSES = {
  400: [
    'BadRequest',
    'Invalid input: a validation code, `too_many`, or `invalid_request` (malformed JSON, a wrong type, ' +
      'a value out of range, an unknown field, more than 100 query parameters).',
  ],
  401: ['Unauthorized', '`unauthorized`: a bad or revoked API key, or no key where one is required.'],
  403: ['Forbidden', '`forbidden`: neither the owning API key nor the edit token of this link.'],
  404: ['NotFound', '`not_found`: no such link.'],
  409: [
    'Conflict',
    '`idempotency_key_in_use`: the first request with this `Idempotency-Key` is still running; try again shortly.',
  ],
  413: [
    'PayloadTooLarge',
    '`invalid_request`: the body is larger than 1 MiB.',
    { Connection: { description: '`close`: the rest of the body is not read.', schema: { const: 'close' } } },
  ],
  415: [
    'UnsupportedMediaType',
    '`invalid_request`: the body is neither `application/json` nor a URL-encoded form.',
  ],
  422: [
    'UnprocessableContent',
    '`idempotency_key_reused`: this `Idempotency-Key` was used with another body; send a new key.',
  ],
  429: [
    'RateLimited',
    '`rate_limited`: wait `Retry-After` seconds.',
    { ...RETRY_AFTER, ...rateLimitHeaders },
  ],
  500: ['InternalError', '`internal_error`: an unexpected failure; no details are given.'],
  503: [
    'Unavailable',
    '`unavailable`: the database does not answer (or cannot write); the message names the cause. Wait `Retry-After` seconds.',
    RETRY_AFTER,
  ],
} as const satisfies Record<number, readonly [string, string, Json?]>;

/** `components.responses`: the error object, with what each status means. */
export const errorResponses = (): Json =>
  Object.fromEntries(
    Object.values(ERROR_RESPONSES).map(([name, description, headers]: readonly [string, string, Json?]) => [
      name,
      {
        description: `${description} Body: the error object; \`code\` says which rule failed.`,
        ...(headers === undefined ? {} : { headers }),
        content: jsonContent(ref('schemas', 'Error')),
      },
    ]),
  );
export type ErrorStatus = keyof typeof ERROR_RESPONSES;

/** Security requirements: `{}` makes credentials optional. */
const NONE: Json = {};
const KEY: Json = { apiKey: [] };
const TOKEN: Json = { editToken: [] };
/** The security requirements operations name (`none` makes credentials optional); compared by identity. */
export const SECURITY = { none: NONE, key: KEY, token: TOKEN } as const;
/** An API key or the session cookie of {base_url}'s pages: the account's own API (keys, webhooks, imports). */
export const KEY_OR_SESSION: readonly Json[] = [KEY, { session: [] }];

export interface OperationSpec {
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

/**
 * An OpenAPI operation object; API operations (under `/api/`) also take `lang`, and the session where
 * they take an API key.
 */
export function operation(spec: OperationSpec, api = true): Json {
  // a person's key or session may act for a team (decisions §21): one they are not in is 404
  const acts = api && spec.security?.some((s) => 'apiKey' in s) === true;
  const parameters = [
    ...(spec.parameters ?? []),
    ...(api ? [ref('parameters', 'lang')] : []),
    ...(acts ? [ref('parameters', 'account')] : []),
  ];
  const errors = new Set<ErrorStatus>([
    ...(spec.errors ?? []),
    ...(spec.common === false ? [] : ([400, 500, 503] as const)),
    ...(acts ? ([404] as const) : []),
  ]);
  if (spec.body !== undefined) errors.add(413).add(415);
  // an edit token spends from the token guess limit (decisions §14)
  if (spec.security?.includes(TOKEN) === true) errors.add(429);
  const responses: Json = { ...spec.responses };
  for (const status of [...errors].sort())
    if (!(status in responses)) responses[status] = ref('responses', ERROR_RESPONSES[status][0]);
  // the session cookie authenticates the API for {base_url}'s pages wherever an API key does
  const security = [...(spec.security ?? [])];
  if (api && security.some((s) => 'apiKey' in s)) {
    if (!security.some((s) => 'session' in s)) security.push({ session: [] });
    responses[403] ??= {
      description: '`forbidden`: a change signed in by the session cookie, sent from another site.',
      content: jsonContent(ref('schemas', 'Error')),
    };
  }
  const types = spec.bodyTypes ?? ['application/json'];
  const content = Object.fromEntries(
    types.map((type) => [type, { schema: spec.body, example: spec.example }]),
  );
  return {
    operationId: spec.id,
    summary: spec.summary,
    description: spec.description,
    tags: [spec.tag],
    security,
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(spec.body === undefined ? {} : { requestBody: { required: true, content } }),
    responses,
  };
}

/** The media type of a form post. */
export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** The media type of a file upload. */
export const MULTIPART_TYPE = 'multipart/form-data';
