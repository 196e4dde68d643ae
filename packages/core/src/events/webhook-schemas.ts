import { z } from 'zod';
import { EVENT_TYPES } from './events.js';

/** Output schemas of the webhook API (decisions §16): `/openapi.json` documents them. */

const time = z.iso.datetime();
const events = z.array(z.enum(EVENT_TYPES)).min(1);

/** One delivery attempt. */
export const WebhookAttemptSchema = z
  .object({
    at: time,
    event: z.enum([...EVENT_TYPES, 'ping']),
    event_id: z.string().describe('The `webhook-id` header of the delivery.'),
    attempt: z.number().int().min(1),
    ok: z.boolean(),
    status: z.number().int().nullable().describe('The HTTP status, or null when none came.'),
    response: z.string().nullable().describe('A short excerpt of the answer, or why none came.'),
  })
  .describe('One delivery attempt.')
  .meta({ id: 'WebhookAttempt' });

/** A webhook of the account as listed: never its secret. */
export const WebhookSchema = z
  .object({
    id: z.string(),
    url: z.url(),
    events,
    state: z
      .enum(['active', 'failing', 'disabled'])
      .describe('`disabled` after 5 days of failed deliveries.'),
    created_at: time,
    failing_since: time.nullable(),
    disabled_at: time.nullable(),
    last_delivery: WebhookAttemptSchema.nullable(),
    pending: z
      .number()
      .int()
      .min(0)
      .describe('Deliveries waiting for this endpoint: due, under way or waiting for a retry (its backlog).'),
  })
  .describe('A webhook of the account, never its secret.')
  .meta({ id: 'Webhook' });

/** `GET /api/v1/webhooks`. */
export const WebhookListSchema = z.object({ webhooks: z.array(WebhookSchema) }).meta({ id: 'WebhookList' });

/** The answer of `POST /api/v1/webhooks`: the secret, this once. */
export const CreatedWebhookSchema = z
  .object({
    id: z.string(),
    url: z.url(),
    events,
    secret: z
      .string()
      .regex(/^whsec_/)
      .describe('The signing secret, shown this once.'),
    created_at: time,
  })
  .meta({ id: 'CreatedWebhook' });

/** The answer of `POST /api/v1/webhooks/{id}/test`. */
export const WebhookTestSchema = z
  .object({
    delivered: z.boolean().describe('Whether the endpoint answered 2xx.'),
    status: z.number().int().nullable(),
    response: z.string().nullable(),
  })
  .meta({ id: 'WebhookTest' });
