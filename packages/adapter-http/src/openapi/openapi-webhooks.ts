import { EVENT_TYPES } from '@shortener/core';
import { form, html, htmlOrError, page, seeOther, withOptional } from './openapi-forms.js';
import { FORM_TYPE, pathParameter } from './openapi-paths.js';
import type { Json } from './openapi-schemas.js';

// The webhooks of an account in `/openapi.json` (decisions §16).

const TIME: Json = { type: 'string', format: 'date-time' };
/** The path parameter of one webhook. */
export const WEBHOOK_ID = pathParameter('id', 'The webhook’s `id`.', '0b9a6c1e-2f4d-4c8a-9e7b-5d3f1a2c4b6e');
const EVENTS: Json = { type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] }, minItems: 1 };

/** The component schemas of webhooks. */
export function webhookSchemas(): Record<string, Json> {
  const attempt: Json = {
    type: 'object',
    description: 'One delivery attempt.',
    properties: {
      at: TIME,
      event: { type: 'string', enum: [...EVENT_TYPES, 'ping'] },
      event_id: { type: 'string', description: 'The `webhook-id` header of the delivery.' },
      attempt: { type: 'integer', minimum: 1 },
      ok: { type: 'boolean' },
      status: { type: ['integer', 'null'], description: 'The HTTP status, or null when none came.' },
      response: { type: ['string', 'null'], description: 'A short excerpt of the answer, or why none came.' },
    },
    required: ['at', 'event', 'event_id', 'attempt', 'ok', 'status', 'response'],
    additionalProperties: false,
  };
  const webhook: Json = {
    type: 'object',
    description: 'A webhook of the account, never its secret.',
    properties: {
      id: { type: 'string' },
      url: { type: 'string', format: 'uri' },
      events: EVENTS,
      state: {
        type: 'string',
        enum: ['active', 'failing', 'disabled'],
        description: '`disabled` after 5 days of failed deliveries.',
      },
      created_at: TIME,
      failing_since: { type: ['string', 'null'], format: 'date-time' },
      disabled_at: { type: ['string', 'null'], format: 'date-time' },
      last_delivery: { anyOf: [{ $ref: '#/components/schemas/WebhookAttempt' }, { type: 'null' }] },
    },
    required: ['id', 'url', 'events', 'state', 'created_at', 'failing_since', 'disabled_at', 'last_delivery'],
    additionalProperties: false,
  };
  return {
    WebhookAttempt: attempt,
    Webhook: webhook,
    WebhookList: {
      type: 'object',
      properties: { webhooks: { type: 'array', items: { $ref: '#/components/schemas/Webhook' } } },
      required: ['webhooks'],
      additionalProperties: false,
    },
    CreateWebhookRequest: {
      type: 'object',
      properties: {
        url: {
          type: 'string',
          maxLength: 4096,
          description: 'A public http(s) URL, checked as link URLs are.',
        },
        events: EVENTS,
      },
      required: ['url', 'events'],
      additionalProperties: false,
    },
    CreatedWebhook: {
      type: 'object',
      properties: {
        id: { type: 'string' },
        url: { type: 'string', format: 'uri' },
        events: EVENTS,
        secret: { type: 'string', pattern: '^whsec_', description: 'The signing secret, shown this once.' },
        created_at: TIME,
      },
      required: ['id', 'url', 'events', 'secret', 'created_at'],
      additionalProperties: false,
    },
    WebhookTest: {
      type: 'object',
      properties: {
        delivered: { type: 'boolean', description: 'Whether the endpoint answered 2xx.' },
        status: { type: ['integer', 'null'] },
        response: { type: ['string', 'null'] },
      },
      required: ['delivered', 'status', 'response'],
      additionalProperties: false,
    },
  };
}

/** The webhook forms of `/account/settings`, authenticated by the session cookie. */
export function webhookSettingsPaths(): Json {
  const again = htmlOrError('The page again with the error');
  return {
    '/account/settings/webhooks': {
      post: page({
        id: 'addWebhookByForm',
        summary: 'Add a webhook',
        description:
          'The settings page with the new webhook’s secret in `#new-webhook-secret`, shown this once. ' +
          'Each event type is a checkbox named after it (`link.created=on`, …). Needs a recent sign-in.',
        body: withOptional(
          form({ url: 'The endpoint, a public http(s) URL.' }),
          Object.fromEntries(EVENT_TYPES.map((type) => [type, `\`on\` to send \`${type}\` events.`])),
        ),
        example: { url: 'https://hooks.example.com/shortener', 'link.created': 'on' },
        bodyTypes: [FORM_TYPE],
        responses: {
          201: html('Added: the page showing the secret.'),
          400: again,
          403: htmlOrError(
            'No password or passkey entered in this session in the last 10 minutes: the page asking for it',
          ),
        },
        errors: [401],
      }),
    },
    '/account/settings/webhooks/{id}/delete': {
      parameters: [WEBHOOK_ID],
      post: page({
        id: 'deleteWebhookByForm',
        summary: 'Remove a webhook',
        description: 'Its pending deliveries are dropped.',
        responses: { 303: seeOther('Removed: to `/account/settings?done=webhook-removed`.') },
        errors: [401],
      }),
    },
    '/account/settings/webhooks/{id}/test': {
      parameters: [WEBHOOK_ID],
      post: page({
        id: 'testWebhookByForm',
        summary: 'Send a test ping',
        description: 'POSTs a signed `ping` now; the page says what the endpoint answered.',
        responses: { 200: html('The page with what the endpoint answered.') },
        errors: [401],
      }),
    },
  };
}
