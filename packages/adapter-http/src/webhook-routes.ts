import type Router from '@koa/router';
import {
  CreateWebhookInput,
  createWebhook,
  deleteWebhook,
  listWebhooks,
  parseInput,
  testWebhook,
  toCreatedWebhookView,
  toWebhookView,
} from '@shortener/core';
import type { WebhookDeps } from '@shortener/core';
import { accountOfRequest } from './account-of-request.js';
import type { HttpDeps } from './deps.js';
import { sendError, sendResult } from './koa-helpers.js';
import { readBody } from './request.js';

/**
 * `/api/v1/webhooks` (decisions §16): an account's webhooks, by its session or one of its keys. Another
 * account's webhook id is `not_found`. Registered only where events are delivered (`deps.webhooks`).
 */
export function addWebhookRoutes(router: Router, deps: HttpDeps): void {
  const webhooks: WebhookDeps | undefined = deps.webhooks;
  if (webhooks === undefined) return;

  router.get('/api/v1/webhooks', async (ctx) => {
    const accountId = await accountOfRequest(deps, ctx);
    if (accountId === null) return;
    ctx.body = { webhooks: (await listWebhooks(webhooks, accountId)).map(toWebhookView) };
  });

  router.post('/api/v1/webhooks', async (ctx) => {
    const accountId = await accountOfRequest(deps, ctx);
    if (accountId === null) return;
    const input = parseInput(CreateWebhookInput, await readBody(ctx.req));
    if (!input.ok) return sendError(ctx, input.error);
    sendResult(ctx, await createWebhook(webhooks, accountId, input.value), toCreatedWebhookView, 201);
  });

  router.delete('/api/v1/webhooks/:id', async (ctx) => {
    const accountId = await accountOfRequest(deps, ctx);
    if (accountId === null) return;
    sendResult(ctx, await deleteWebhook(webhooks, accountId, ctx.params.id ?? ''), () => null, 204);
  });

  router.post('/api/v1/webhooks/:id/test', async (ctx) => {
    const accountId = await accountOfRequest(deps, ctx);
    if (accountId === null) return;
    const sent = await testWebhook(webhooks, accountId, ctx.params.id ?? '');
    sendResult(ctx, sent, ({ ok, status, excerpt }) => ({ delivered: ok, status, response: excerpt }));
  });
}
