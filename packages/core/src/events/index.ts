// The events of decisions §16: the outbox's types, the dispatcher, webhooks and their views.
export {
  BROKER_RETRY_MS,
  createEventDispatcher,
  DISABLE_AFTER_MS,
  eventBody,
  HOLD_MS,
  RETRY_DELAYS_MS,
} from './dispatcher.js';
export type {
  DispatchCounts,
  EventDispatcher,
  EventPublisher,
  SendResult,
  WebhookSender,
} from './dispatcher.js';
export type {
  DeliveryAttempt,
  EventStore,
  PendingDelivery,
  Webhook,
  WebhookWithAttempts,
} from './event-ports.js';
export { EVENT_TYPES, summarizeVisitBatch } from './events.js';
export type { EventType, OutboxEvent, VisitSummary } from './events.js';
export {
  createWebhook,
  CreateWebhookInput,
  deleteWebhook,
  generateWebhookSecret,
  listWebhooks,
  MAX_WEBHOOKS_PER_ACCOUNT,
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
