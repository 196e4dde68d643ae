import {
  CreateWebhookInput,
  createWebhook,
  deleteWebhook,
  listWebhooks,
  requireRecentSignIn,
  TEST_PINGS_PER_MINUTE,
  testWebhook,
  toCreatedWebhookView,
  toWebhookView,
} from '@shortener/core';
import type { WebhookDeps } from '@shortener/core';
import type { HttpDeps } from '../deps.js';
import { signedInOf } from '../server/session.js';
import { sendError, sendResult, setRetryAfter } from '../koa-helpers.js';
import { KEY_OR_SESSION } from '../openapi/openapi-paths.js';
import { WEBHOOK_ID } from '../routes/route-parameters.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { jsonResponse } from './route-kit.js';

/** Served where events are delivered (the server's composition root gives `deps.webhooks`). */
const enabled = (deps: HttpDeps) => deps.webhooks !== undefined;
const webhooksOf = (deps: HttpDeps): WebhookDeps => deps.webhooks as WebhookDeps;

/**
 * `/api/v1/webhooks` (decisions §16): an account's webhooks, by its session or one of its keys. Another
 * account's webhook id is `not_found`.
 */
export const WEBHOOK_ROUTES: readonly AnyRoute[] = [
  route({
    method: 'get',
    path: '/api/v1/webhooks',
    access: 'account',
    does: 'webhooks.manage',
    enabled,
    doc: {
      id: 'listWebhooks',
      summary: 'List the account’s webhooks',
      description: 'Oldest first, with their state and last delivery; never their secrets.',
      tag: 'webhooks',
      security: KEY_OR_SESSION,
      responses: { 200: jsonResponse('The webhooks.', 'WebhookList') },
      errors: [401, 403],
    },
    handle: async (ctx, { deps, caller }) => {
      const all = await listWebhooks(webhooksOf(deps), caller.accountId ?? '');
      ctx.body = { webhooks: all.map(toWebhookView) };
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/webhooks',
    access: 'account',
    does: 'webhooks.manage',
    enabled,
    body: CreateWebhookInput,
    doc: {
      id: 'createWebhook',
      summary: 'Add a webhook',
      description:
        'Events of the account’s links are POSTed to `url`, signed as Standard Webhooks ' +
        '(`webhook-id`, `webhook-timestamp`, `webhook-signature`) with `secret`, shown this once. ' +
        'Failed deliveries are retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h. Made by the ' +
        'session cookie, it needs a password or passkey entered in the last 10 minutes, else 403 `forbidden`.',
      tag: 'webhooks',
      security: KEY_OR_SESSION,
      example: { url: 'https://hooks.example.com/shortener', events: ['link.created', 'link.visited'] },
      responses: { 201: jsonResponse('The new webhook, with `secret`.', 'CreatedWebhook') },
      errors: [401, 403],
    },
    handle: async (ctx, { deps, caller, body }) => {
      // made by the session (no Authorization): a lasting feed needs a recent sign-in (decisions §14)
      const bySession = ctx.get('authorization') === '' ? await signedInOf(deps, ctx) : null;
      const recent = bySession === null ? null : requireRecentSignIn(deps.core, bySession);
      if (recent !== null && !recent.ok) return sendError(ctx, recent.error);
      const created = await createWebhook(webhooksOf(deps), caller.accountId ?? '', body);
      sendResult(ctx, created, toCreatedWebhookView, 201);
    },
  }),
  route({
    method: 'delete',
    path: '/api/v1/webhooks/{id}',
    access: 'account',
    does: 'webhooks.manage',
    enabled,
    doc: {
      id: 'deleteWebhook',
      summary: 'Remove a webhook',
      description: 'Its pending deliveries are dropped. Another account’s webhook is `not_found`.',
      tag: 'webhooks',
      security: KEY_OR_SESSION,
      parameters: [WEBHOOK_ID],
      responses: { 204: { description: 'Removed.' } },
      errors: [401, 403, 404],
    },
    handle: async (ctx, { deps, caller, params }) => {
      const removed = await deleteWebhook(webhooksOf(deps), caller.accountId ?? '', params.id ?? '');
      sendResult(ctx, removed, () => null, 204);
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/webhooks/{id}/test',
    access: 'account',
    does: 'webhooks.manage',
    enabled,
    doc: {
      id: 'testWebhook',
      summary: 'Send a test ping',
      description:
        'POSTs a signed `ping` event now (not retried) and says what the endpoint answered. At most ' +
        `${TEST_PINGS_PER_MINUTE} a minute per account, then 429 \`rate_limited\` with \`Retry-After\`.`,
      tag: 'webhooks',
      security: KEY_OR_SESSION,
      parameters: [WEBHOOK_ID],
      responses: { 200: jsonResponse('What the endpoint answered.', 'WebhookTest') },
      errors: [401, 403, 404, 429],
    },
    handle: async (ctx, { deps, caller, params }) => {
      const sent = await testWebhook(webhooksOf(deps), caller.accountId ?? '', params.id ?? '');
      setRetryAfter(ctx, sent);
      sendResult(ctx, sent, ({ ok, status, excerpt }) => ({ delivered: ok, status, response: excerpt }));
    },
  }),
];
