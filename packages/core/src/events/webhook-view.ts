import type { DeliveryAttempt, Webhook, WebhookWithAttempts } from './event-ports.js';

const iso = (ms: number): string => new Date(ms).toISOString();
const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/** `active`, `failing` (its last attempts failed; disabled after 5 days of it) or `disabled`. */
export type WebhookState = 'active' | 'failing' | 'disabled';

/** The state of a webhook. */
export function webhookState(webhook: Webhook): WebhookState {
  if (webhook.disabledAt !== null) return 'disabled';
  return webhook.failingSince === null ? 'active' : 'failing';
}

/** An attempt as the API shows it. */
export function toAttemptView(attempt: DeliveryAttempt) {
  return {
    at: iso(attempt.at),
    event: attempt.eventType,
    event_id: attempt.eventId,
    attempt: attempt.attempt,
    ok: attempt.ok,
    status: attempt.status,
    response: attempt.excerpt,
  };
}

/** A webhook as `GET /api/v1/webhooks` lists it: never its secret. */
export function toWebhookView(webhook: WebhookWithAttempts) {
  const last = webhook.attempts[0];
  return {
    id: webhook.id,
    url: webhook.url,
    events: [...webhook.events],
    state: webhookState(webhook),
    created_at: iso(webhook.createdAt),
    failing_since: isoOrNull(webhook.failingSince),
    disabled_at: isoOrNull(webhook.disabledAt),
    last_delivery: last === undefined ? null : toAttemptView(last),
    pending: webhook.pending,
  };
}

/** The answer of `POST /api/v1/webhooks`: the secret, this once. */
export function toCreatedWebhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    url: webhook.url,
    events: [...webhook.events],
    secret: webhook.secret,
    created_at: iso(webhook.createdAt),
  };
}
