// The events of decisions §16: the outbox's types, the dispatcher, webhooks and their views.
export { BROKER_RETRY_MS, DISABLE_AFTER_MS, eventBody, RETRY_DELAYS_MS } from './deliveries.js';
export type { DispatchCounts, EventPublisher, SendResult, WebhookSender } from './deliveries.js';
export {
  createEventDispatcher,
  createSendTurns,
  HOLD_MS,
  RECORDS_PER_TURN,
  SEND_COST_MS,
  SENDS_AT_MOST,
  SENDS_PER_WEBHOOK,
  VISIT_EVENT_SECONDS,
} from './dispatcher.js';
export type { EventDispatcher, RecordTurns } from './dispatcher.js';
export type {
  DeliveryAttempt,
  EventBacklog,
  EventStore,
  PendingDelivery,
  Webhook,
  WebhookWithAttempts,
} from './event-ports.js';
export { EVENT_TYPES, carriesData, mergeVisitSummaries, summarizeVisitBatch } from './events.js';
export type { DomainEventData, EventType, OutboxEvent, VisitSummary } from './events.js';
export {
  createWebhook,
  CreateWebhookInput,
  deleteWebhook,
  generateWebhookSecret,
  listWebhooks,
  MAX_WEBHOOKS_PER_ACCOUNT,
  TEST_PINGS_PER_MINUTE,
  testWebhook,
  validateWebhookUrl,
} from './webhooks.js';
export type { WebhookDeps } from './webhooks.js';
export { toAttemptView, toCreatedWebhookView, toWebhookView, webhookState } from './webhook-view.js';
export type { WebhookState } from './webhook-view.js';
export {
  CreatedWebhookSchema,
  WebhookAttemptSchema,
  WebhookListSchema,
  WebhookSchema,
  WebhookTestSchema,
} from './webhook-schemas.js';
