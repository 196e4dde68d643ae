import {
  CreateWebhookInput,
  EVENT_TYPES,
  createWebhook,
  deleteWebhook,
  parseInput,
  TEST_PINGS_PER_MINUTE,
  testWebhook,
} from '@shortener/core';
import { sendError, setRetryAfter, stateOf } from '../koa-helpers.js';
import { html, seeOther as seeOtherDoc } from '../openapi/openapi-pages.js';
import { WebhookForm } from './account-forms.js';
import { WEBHOOK_ID } from '../routes/route-parameters.js';
import { webhooksTextOf } from '../pages/account/webhooks-text.js';
import { fill } from '../pages/text.js';
import { route } from '../routes/route-table.js';
import type { AnyRoute } from '../routes/route-table.js';
import { seeOther } from '../server/account-area.js';
import { ROLE_REFUSED, actingAccountOf } from '../server/acting.js';
import { NOT_RECENT, again, recentOrAsked, renderSettings } from './settings-view.js';

/**
 * The webhook forms of `/account/settings` (decisions §16): add (the page shows the secret once),
 * remove (post, redirect, get), send a test ping (the page says what the endpoint answered). Served
 * where events are on.
 */
export const WEBHOOK_SETTINGS_ROUTES: readonly AnyRoute[] = [
  // a lasting feed of the account's links: made by the session, it needs a recent sign-in (decisions §14)
  route({
    method: 'post',
    path: '/account/settings/webhooks',
    area: 'account',
    access: 'signed-in',
    does: 'webhooks.manage',
    body: WebhookForm,
    form: true,
    enabled: (deps) => deps.webhooks !== undefined,
    doc: {
      id: 'addWebhookByForm',
      summary: 'Add a webhook',
      description:
        'The settings page with the new webhook’s secret in `#new-webhook-secret`, shown this once. ' +
        'Each event type is a checkbox named after it (`link.created=on`, …). Needs a recent sign-in.',
      example: { url: 'https://hooks.example.com/shortener', 'link.created': 'on' },
      responses: { 201: html('Added: the page showing the secret.'), 400: again, ...NOT_RECENT },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn: me, body }) => {
      const webhooks = deps.webhooks;
      if (me === null || webhooks === undefined || !(await recentOrAsked(ctx, deps, me))) return;
      const events = EVENT_TYPES.filter((type) => (body[type] ?? '') !== '');
      const input = parseInput(CreateWebhookInput, { url: body.url ?? '', events });
      const created = input.ok ? await createWebhook(webhooks, actingAccountOf(ctx, me), input.value) : input;
      if (!created.ok)
        return renderSettings(ctx, deps, me, 400, { notice: { error: true, text: created.error.message } });
      const { url, secret } = created.value;
      await renderSettings(ctx, deps, me, 201, { webhookCreated: { url, secret } });
    },
  }),
  route({
    method: 'post',
    path: '/account/settings/webhooks/{id}/delete',
    area: 'account',
    access: 'signed-in',
    does: 'webhooks.manage',
    enabled: (deps) => deps.webhooks !== undefined,
    doc: {
      id: 'deleteWebhookByForm',
      summary: 'Remove a webhook',
      description: 'Its pending deliveries are dropped.',
      parameters: [WEBHOOK_ID],
      responses: {
        ...ROLE_REFUSED,
        303: seeOtherDoc('Removed: to `/account/settings?done=webhook-removed`.'),
      },
      errors: [401],
    },
    handle: async (ctx, { deps, signedIn: me, params }) => {
      if (me === null || deps.webhooks === undefined) return;
      const removed = await deleteWebhook(deps.webhooks, actingAccountOf(ctx, me), params.id ?? '');
      if (!removed.ok) return sendError(ctx, removed.error);
      seeOther(ctx, '/account/settings?done=webhook-removed');
    },
  }),
  route({
    method: 'post',
    path: '/account/settings/webhooks/{id}/test',
    area: 'account',
    access: 'signed-in',
    does: 'webhooks.manage',
    enabled: (deps) => deps.webhooks !== undefined,
    doc: {
      id: 'testWebhookByForm',
      summary: 'Send a test ping',
      description: `POSTs a signed \`ping\` now; the page says what the endpoint answered. At most ${TEST_PINGS_PER_MINUTE} a minute per account, then 429.`,
      parameters: [WEBHOOK_ID],
      responses: { ...ROLE_REFUSED, 200: html('The page with what the endpoint answered.') },
      errors: [401, 429],
    },
    handle: async (ctx, { deps, signedIn: me, params }) => {
      const webhooks = deps.webhooks;
      if (me === null || webhooks === undefined) return;
      const id = params.id ?? '';
      const sent = await testWebhook(webhooks, actingAccountOf(ctx, me), id);
      setRetryAfter(ctx, sent);
      if (!sent.ok) return sendError(ctx, sent.error);
      const webhook = await webhooks.events.findWebhook(id);
      const t = webhooksTextOf(stateOf(ctx).language);
      const { ok, status, excerpt } = sent.value;
      const result = status === null ? `${t.noAnswer} (${excerpt ?? ''})` : String(status);
      const text = fill(t.tested, { url: webhook?.url ?? '', result });
      await renderSettings(ctx, deps, me, 200, { notice: { error: !ok, text } });
    },
  }),
];
