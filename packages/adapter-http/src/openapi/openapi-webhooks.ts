import { EVENT_TYPES } from '@shortener/core';
import { pathParameter } from './openapi-paths.js';
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
