import type Router from '@koa/router';
import type { Caller, LinkRecord } from '@shortener/core';
import {
  BulkInput,
  CheckAliasInput,
  ClaimInput,
  CreateLinkInput,
  ListLinksQuery,
  StatsQuery,
  UpdateLinkInput,
  bulkLimit,
  bulkUrls,
  checkAlias,
  claimLinks,
  createLink,
  createLinks,
  deleteLink,
  domainError,
  getLink,
  getStats,
  listLinks,
  parseInput,
  toLinkView,
  updateLink,
} from '@shortener/core';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { HttpDeps } from './deps.js';
import { errorBody } from './errors.js';
import { buildLlmsTxt } from './llms-txt.js';
import { buildOpenApiDocument } from './openapi.js';
import { sendError, sendResult, setHeaders, stateOf } from './koa-helpers.js';
import { consumeCreations, rateLimitHeaders } from './rate-limit.js';
import { callerOf, queryOf, readBody } from './request.js';
import { withSession } from './session.js';

/** Query of `GET /api/shorten`. */
export const ShortenQuery = CreateLinkInput.pick({ url: true, alias: true, domain: true }).meta({
  id: 'ShortenQuery',
});

/** The JSON API under `/api/v1` and the plain-text `/api/shorten` (interface §4). */
export function addApiRoutes(router: Router, deps: HttpDeps): void {
  const { core } = deps;
  const view = (link: LinkRecord, editToken?: string | null) =>
    toLinkView(link, core.config, core.clock.now(), editToken ?? undefined);

  const authenticate = async (ctx: Context): Promise<Caller | null> => {
    const key = await callerOf(deps, ctx.req);
    const caller = key.ok ? await withSession(deps, ctx, key.value) : key;
    if (caller.ok) return caller.value;
    sendError(ctx, caller.error);
    return null;
  };
  const parse = <S extends z.ZodType>(ctx: Context, schema: S, raw: unknown): z.output<S> | null => {
    const parsed = parseInput(schema, raw);
    if (parsed.ok) return parsed.value;
    sendError(ctx, parsed.error);
    return null;
  };
  const admit = async (ctx: Context, caller: Caller, cost: number): Promise<boolean> => {
    const decision = await consumeCreations(deps, caller, stateOf(ctx).ip, cost);
    setHeaders(ctx, rateLimitHeaders(decision));
    if (!decision.allowed) sendError(ctx, domainError('rate_limited'));
    return decision.allowed;
  };

  router.post('/api/v1/links', async (ctx) => {
    const caller = await authenticate(ctx);
    const input = caller && parse(ctx, CreateLinkInput, await readBody(ctx.req));
    if (!caller || !input || !(await admit(ctx, caller, 1))) return;
    const created = await createLink(core, input, caller);
    if (sendResult(ctx, created, (c) => view(c.link, c.editToken), 201) && created.ok) {
      ctx.set('Location', view(created.value.link).stats_url.replace(/\/stats$/, ''));
    }
  });

  router.get('/api/v1/links', async (ctx) => {
    const caller = await authenticate(ctx);
    const query = caller && parse(ctx, ListLinksQuery, queryOf(ctx.query));
    if (!caller || !query) return;
    sendResult(ctx, await listLinks(core, query, caller), (page) => ({
      links: page.links.map((l) => view(l)),
      next_cursor: page.nextCursor,
    }));
  });

  router.post('/api/v1/links/claim', async (ctx) => {
    const caller = await authenticate(ctx);
    if (caller?.accountId === null)
      return sendError(ctx, domainError('unauthorized', 'An API key is required.'));
    const input = caller && parse(ctx, ClaimInput, await readBody(ctx.req));
    if (!caller || !input) return;
    sendResult(ctx, await claimLinks(core, input.edit_tokens, caller), (claimed) => ({ claimed }));
  });

  router.get('/api/v1/links/:id', async (ctx) => {
    const caller = await authenticate(ctx);
    if (!caller) return;
    sendResult(ctx, await getLink(core, ctx.params.id ?? '', caller), (l) => view(l));
  });

  router.patch('/api/v1/links/:id', async (ctx) => {
    const caller = await authenticate(ctx);
    const input = caller && parse(ctx, UpdateLinkInput, await readBody(ctx.req));
    if (!caller || !input) return;
    const updated = await updateLink(core, ctx.params.id ?? '', input, caller);
    sendResult(ctx, updated, (l) => view(l));
  });

  router.delete('/api/v1/links/:id', async (ctx) => {
    const caller = await authenticate(ctx);
    if (!caller) return;
    const deleted = await deleteLink(core, ctx.params.id ?? '', caller);
    sendResult(ctx, deleted, () => null, 204);
  });

  router.get('/api/v1/links/:id/stats', async (ctx) => {
    const caller = await authenticate(ctx);
    const query = caller && parse(ctx, StatsQuery, queryOf(ctx.query));
    if (!caller || !query) return;
    sendResult(ctx, await getStats(core, ctx.params.id ?? '', query, caller), (s) => s);
  });

  router.get('/api/v1/check', async (ctx) => {
    // needs no credentials, but a bad or revoked key is refused here too (decisions §6)
    const caller = await authenticate(ctx);
    const input = caller && parse(ctx, CheckAliasInput, queryOf(ctx.query));
    if (input) sendResult(ctx, await checkAlias(core, input), (c) => c);
  });

  router.post('/api/v1/bulk', async (ctx) => {
    const caller = await authenticate(ctx);
    const input = caller && parse(ctx, BulkInput, await readBody(ctx.req));
    if (!caller || !input) return;
    const count = bulkUrls(input.urls).length;
    const max = bulkLimit(core, caller);
    if (count > max)
      return sendError(ctx, domainError('too_many', `At most ${max} URLs per request.`, 'urls'));
    if (count > 0 && !(await admit(ctx, caller, count))) return;
    const language = stateOf(ctx).language;
    const created = await createLinks(core, input, caller);
    sendResult(ctx, created, (items) => ({
      results: items.map((item) =>
        item.ok
          ? {
              index: item.index,
              input: item.input,
              ok: true,
              link: view(item.created.link, item.created.editToken),
            }
          : { index: item.index, input: item.input, ok: false, error: errorBody(item.error, language).error },
      ),
    }));
  });

  router.get('/api/shorten', async (ctx) => {
    const caller = await authenticate(ctx);
    const input = caller && parse(ctx, ShortenQuery, queryOf(ctx.query));
    if (!caller || !input || !(await admit(ctx, caller, 1))) return;
    const created = await createLink(core, input, caller);
    if (!created.ok) return sendError(ctx, created.error);
    if (created.value.editToken !== null) ctx.set('X-Edit-Token', created.value.editToken);
    ctx.status = 201;
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = view(created.value.link).short_url;
  });

  const metrics = deps.metrics?.exposition !== undefined;
  const openApi = JSON.stringify(buildOpenApiDocument(core.config, { metrics }));
  const llmsTxt = buildLlmsTxt(core.config);
  router.get('/openapi.json', (ctx) => {
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = openApi;
  });
  router.get('/llms.txt', (ctx) => {
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.body = llmsTxt;
  });

  router.get('/healthz', async (ctx) => {
    const health = await deps
      .health()
      .catch(() => ({ ok: false, reason: 'the health check failed' }) as const);
    ctx.status = health.ok ? 200 : 503;
    const broker = health.ok && health.broker !== undefined ? { broker: health.broker } : {};
    ctx.body = health.ok ? { status: 'ok', ...broker } : { status: 'unavailable', reason: health.reason };
  });
}
