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

/** A webhook with its health, last attempts and backlog, as listings show it. */
export interface WebhookWithAttempts extends Webhook {
  readonly attempts: readonly DeliveryAttempt[];
  /** Deliveries waiting for it: due, under way or waiting for a retry (decisions §26). */
  readonly pending: number;
}

/** What waits in the store to go out: the backlog of `/metrics` and the webhooks' settings page. */
export interface EventBacklog {
  /** Events in the outbox, not yet fanned out to deliveries. */
  readonly events: number;
  /** Deliveries waiting (due, held or waiting for a retry). */
  readonly deliveries: number;
  /** Links whose `link.visited` window is open (visits summed, event not yet written). */
  readonly windows: number;
}

/**
 * The outbox and the webhooks. Link changes add their events to the outbox in their own transaction
 * (by the stores themselves) when someone takes them: the broker, or an enabled webhook of the link's
 * account that wants the event's type. Written visit batches add their counts to the link's running
 * `link.visited` sum in their transaction (decisions §26), which {@link EventStore.closeVisitWindows}
 * turns into one event per link and window. This port moves them on.
 */
export interface EventStore {
  /**
   * Whether a broker takes every event of every account (`AMQP_URL`), for every process writing to the
   * store: `serve` says so at start. Events of changes made while it was off are not written.
   */
  setBroker(on: boolean): Promise<void>;
  /**
   * Closes the `link.visited` windows opened at or before `openedBy` (epoch ms: now less
   * `VISIT_EVENT_SECONDS`), oldest first, up to `limit` links: in one transaction each link's running sum
   * becomes one `link.visited` event in the outbox (with the link's account, domain and slug as they are
   * now; none for a link deleted since) and leaves the sums, so the link's next visits open a new window.
   * On PostgreSQL each window is closed by one node (`SKIP LOCKED`). Returns how many windows it closed.
   */
  closeVisitWindows(openedBy: number, limit: number): Promise<number>;
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
  /**
   * Adds an event that is no link change (`domain.verified`, `domain.suspended`,
   * `link.health_changed`) to the outbox, when someone takes it (the broker, or an enabled webhook of
   * `accountId` that wants its type; null: an anonymous link's, the broker's only).
   */
  addEvent(type: EventType, accountId: string | null, data: unknown): Promise<void>;
  /** Removes a webhook and its deliveries; false when there was none. */
  deleteWebhook(id: string): Promise<boolean>;
  /** What waits to go out (metrics, the settings page, tests). */
  backlog(): Promise<EventBacklog>;
}
