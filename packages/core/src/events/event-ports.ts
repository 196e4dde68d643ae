import type { EventType, OutboxEvent } from './events.js';

/** A webhook of an account. The secret is kept as is: signing needs it (decisions §16, docs/events.md). */
export interface Webhook {
  readonly id: string;
  readonly accountId: string;
  readonly url: string;
  readonly events: readonly EventType[];
  /** `whsec_` + base64 key, shown once at creation. */
  readonly secret: string;
  readonly createdAt: number;
  /** Since when every attempt failed; null after a success. */
  readonly failingSince: number | null;
  /** When it was disabled for failing 5 days; null while enabled. */
  readonly disabledAt: number | null;
}

/** One attempt to deliver an event to a webhook (the last 20 are kept per webhook). */
export interface DeliveryAttempt {
  readonly at: number;
  readonly eventId: string;
  readonly eventType: EventType | 'ping';
  /** 1 for the first try. */
  readonly attempt: number;
  readonly ok: boolean;
  /** The HTTP status, or null when none came (timeout, refused, blocked address). */
  readonly status: number | null;
  /** A short excerpt of the answer's body, or the reason no answer came. */
  readonly excerpt: string | null;
}

/** A delivery waiting for its next attempt: to a webhook, or to the broker (`webhook` null). */
export interface PendingDelivery {
  readonly id: string;
  readonly webhook: Webhook | null;
  readonly event: OutboxEvent;
  /** Attempts made so far. */
  readonly attempts: number;
}

/** A webhook with its health and last attempts, as listings show it. */
export interface WebhookWithAttempts extends Webhook {
  readonly attempts: readonly DeliveryAttempt[];
}

/**
 * The outbox and the webhooks. Link changes and written visit batches add their events to the outbox
 * in their own transaction (by the stores themselves) when someone takes them: the broker, or an
 * enabled webhook of the link's account that wants the event's type. This port moves them on.
 */
export interface EventStore {
  /**
   * Whether a broker takes every event of every account (`AMQP_URL`), for every process writing to the
   * store: `serve` says so at start. Events of changes made while it was off are not written.
   */
  setBroker(on: boolean): Promise<void>;
  /**
   * Takes up to `limit` events from the outbox and, in one transaction, adds a delivery per enabled
   * webhook of the event's account (when the account is not disabled) that wants its type, plus one for the broker when `broker`; the
   * events leave the outbox. Returns how many events were taken.
   */
  fanOut(now: number, broker: boolean, limit: number): Promise<number>;
  /**
   * Claims up to `limit` deliveries due at `now`, none held by another claimer, and holds them until
   * `holdUntil` (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so each is claimed by one node at a time), oldest
   * due first. A webhook never has more than `perWebhook.healthy` deliveries held at once, those held
   * already (by any claimer) included, or `perWebhook.failing` while it is failing: one busy endpoint's
   * backlog cannot fill a claim. Broker deliveries have no such cap. Due deliveries to a disabled
   * webhook, or to the webhooks of a disabled account, are dropped, never returned.
   */
  claimDue(
    now: number,
    holdUntil: number,
    limit: number,
    perWebhook: { readonly healthy: number; readonly failing: number },
  ): Promise<PendingDelivery[]>;
  /** Done (`nextAt` null): the delivery is removed. Otherwise it waits until `nextAt`, one more attempt made. */
  settle(deliveryId: string, nextAt: number | null): Promise<void>;
  /** Records an attempt on a webhook (keeping its last 20) and its health after it. */
  recordAttempt(
    webhookId: string,
    attempt: DeliveryAttempt,
    health: Pick<Webhook, 'failingSince' | 'disabledAt'>,
  ): Promise<void>;
  createWebhook(webhook: Webhook): Promise<void>;
  findWebhook(id: string): Promise<Webhook | null>;
  /** The account's webhooks (every account's when null), oldest first, with their last 20 attempts. */
  listWebhooks(accountId: string | null): Promise<WebhookWithAttempts[]>;
  /** Removes a webhook and its deliveries; false when there was none. */
  deleteWebhook(id: string): Promise<boolean>;
  /** Events still in the outbox plus deliveries waiting (metrics, tests). */
  backlog(): Promise<{ readonly events: number; readonly deliveries: number }>;
}
