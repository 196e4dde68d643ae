import type { Budgeted, BudgetedDeps, CreatedLink, LinkView, Result } from '@shortener/core';
import {
  BulkInput,
  CheckAliasInput,
  CreateLinkInput,
  checkAlias,
  createLinkWithinBudget,
  createLinksWithinBudget,
} from '@shortener/core';
import { errorBody } from '../errors.js';
import { sendError, sendResult, setHeaders, stateOf } from '../koa-helpers.js';
import { budgetedCoreOf } from '../deps.js';
import type { HttpDeps } from '../deps.js';
import type { Context } from 'koa';
import { rateLimitHeaders as rateLimitHeaderValues } from '../server/rate-limit.js';
import { SECURITY, rateLimitHeaders } from '../openapi/openapi-paths.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { jsonResponse, view } from './route-kit.js';

/** Query of `GET /api/shorten`. */
export const ShortenQuery = CreateLinkInput.pick({ url: true, alias: true, domain: true }).meta({
  id: 'ShortenQuery',
});

const { none, key } = SECURITY;

/** A structured-field string (RFC 8941 §3.3.3): `"…"` with `\"` and `\\` escaped inside. */
const SF_STRING = /^"((?:[^"\\]|\\["\\])*)"$/;

/**
 * The `Idempotency-Key` header of a creation, if sent: the IETF draft makes it a structured-field string
 * (`"…"`), many clients send it bare; both are the same key (decisions §25).
 */
const idempotencyKeyOf = (ctx: Context): string | undefined => {
  const sent = ctx.get('idempotency-key').trim();
  if (sent === '') return undefined;
  const quoted = SF_STRING.exec(sent);
  return quoted === null ? sent : quoted[1]!.replace(/\\(["\\])/g, '$1');
};

/** The header as documented on both creations. */
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe (the IETF httpapi draft): the same key with the same body within 24 hours ' +
    'answers as the first request did (the same links, ids, slugs and edit tokens), even when its answer ' +
    'was lost, creates nothing more and spends no rate limit. The same key with another body is 422 ' +
    '`idempotency_key_reused`; while the first request with it still runs, 409 `idempotency_key_in_use`; ' +
    'a first answer of 4xx leaves the key free. Send a random UUID (16-255 visible ASCII characters), ' +
    'quoted (`"…"`, a structured-field string) or bare, the same key; keys are scoped to the API key’s account.',
  schema: { type: 'string', minLength: 16, maxLength: 255, pattern: '^[!-~]+$' },
  example: '4b0e1cf6-1c39-4c5e-9e3a-0e5f6b8f7d21',
};

/** Runs a budgeted core use case for this request's client, answering with its `RateLimit-*` headers. */
async function createWithinBudget<T>(
  ctx: Context,
  deps: HttpDeps,
  create: (budgeted: BudgetedDeps, ip: string) => Promise<Budgeted<T>>,
): Promise<Result<T>> {
  const { decision, result } = await create(budgetedCoreOf(deps), stateOf(ctx).ip);
  if (decision !== null) setHeaders(ctx, rateLimitHeaderValues(decision));
  return result;
}

/** Creating links: `POST /api/v1/links`, `/api/v1/bulk`, the plain-text `/api/shorten`, and the alias check. */
export const CREATE_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'post',
    path: '/api/v1/links',
    access: 'caller',
    does: 'links.create',
    body: CreateLinkInput,
    doc: {
      id: 'createLink',
      summary: 'Create a short link',
      description:
        'Shortens `url`. Without an API key the link is anonymous: the response carries `edit_token` once; ' +
        'keep it to edit or delete the link. Omitting `alias` picks a random 6-character slug. `tags`, ' +
        '`rules` (each rule URL passes every URL check and gets the UTM parameters), `forward_query`, ' +
        '`redirect_status` and `crawlable` organise and route the link (decisions §15); `split` shares the ' +
        'visitors no rule matches among 2-5 URLs by weight, by their daily visitor hash (decisions §19).',
      tag: 'links',
      security: [none, key],
      example: { url: 'https://example.com/a/long/path', alias: 'summer-sale', expires_in_days: 30 },
      parameters: [IDEMPOTENCY_KEY],
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
      errors: [401, 409, 422, 429],
    },
    handle: async (ctx, { deps, caller, body }) => {
      const { core } = deps;
      const created = await createWithinBudget(ctx, deps, (budgeted, ip) =>
        createLinkWithinBudget(budgeted, body, caller, ip, idempotencyKeyOf(ctx)),
      );
      let rendered: LinkView | undefined;
      const render = (c: CreatedLink) => (rendered = view(core, c.link, c.editToken));
      if (sendResult(ctx, created, render, 201) && rendered !== undefined)
        ctx.set('Location', rendered.stats_url.replace(/\/stats$/, ''));
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/check',
    // needs no credentials, but a bad or revoked key is refused here too (decisions §6)
    access: 'caller',
    query: CheckAliasInput,
    doc: {
      id: 'checkAlias',
      summary: 'Check whether an alias is free',
      description:
        'Answers `free`, `taken`, `reserved` or `invalid` for the alias on the domain (default: the first ' +
        'short domain), and the other domain where it is free as `alternative`.',
      tag: 'links',
      security: [none, key],
      responses: { 200: jsonResponse('The alias check result.', 'AliasCheck') },
      errors: [401],
    },
    handle: async (ctx, { deps: { core }, query }) => {
      sendResult(ctx, await checkAlias(core, query), (c) => c);
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/bulk',
    access: 'caller',
    does: 'links.create',
    body: BulkInput,
    doc: {
      id: 'bulkCreateLinks',
      summary: 'Create many short links',
      description:
        'One result per input URL, in input order (`ok` true with `link`, or false with `error`). At most 20 ' +
        'URLs anonymously, 200 with a key (`too_many` otherwise); each URL uses one unit of the rate limit.',
      tag: 'links',
      security: [none, key],
      example: { urls: ['https://example.com/a', 'https://example.com/b'], expires_in_days: 7 },
      parameters: [IDEMPOTENCY_KEY],
      responses: { 200: jsonResponse('Per-URL results.', 'BulkResponse', rateLimitHeaders) },
      errors: [401, 409, 422, 429],
    },
    // too many URLs are refused before anything is spent; then one unit per URL, refused whole
    handle: async (ctx, { deps, caller, body }) => {
      const { core } = deps;
      const language = stateOf(ctx).language;
      const created = await createWithinBudget(ctx, deps, (budgeted, ip) =>
        createLinksWithinBudget(budgeted, body, caller, ip, idempotencyKeyOf(ctx)),
      );
      sendResult(ctx, created, (items) => ({
        results: items.map((item) =>
          item.ok
            ? {
                index: item.index,
                input: item.input,
                ok: true,
                link: view(core, item.created.link, item.created.editToken),
              }
            : {
                index: item.index,
                input: item.input,
                ok: false,
                error: errorBody(item.error, language).error,
              },
        ),
      }));
    },
  }),
  route({
    method: 'get',
    path: '/api/shorten',
    access: 'caller',
    does: 'links.create',
    query: ShortenQuery,
    doc: {
      id: 'shortenPlainText',
      summary: 'Shorten a URL, answer in plain text',
      description:
        'For scripts: `curl "…/api/shorten?url=example.com"` prints only the short URL. An anonymous ' +
        'link’s edit token comes in the `X-Edit-Token` response header.',
      tag: 'links',
      security: [none, key],
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
    },
    handle: async (ctx, { deps, caller, query }) => {
      const { core } = deps;
      const created = await createWithinBudget(ctx, deps, (budgeted, ip) =>
        createLinkWithinBudget(budgeted, query, caller, ip),
      );
      if (!created.ok) return sendError(ctx, created.error);
      if (created.value.editToken !== null) ctx.set('X-Edit-Token', created.value.editToken);
      ctx.status = 201;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = view(core, created.value.link).short_url;
    },
  }),
];
