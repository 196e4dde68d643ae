import type { ServiceConfig } from '../config.js';
import { shortUrlOf, toLinkView } from '../links/view.js';
import type { AccountStore, Clock } from '../ports.js';
import type { DeliveryAttempt, EventStore, PendingDelivery, Webhook } from './event-ports.js';
import type { OutboxEvent } from './events.js';

/** Waits after failed attempts 1..7 (decisions §16); the 8th failure gives up. */
export const RETRY_DELAYS_MS = [5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6] as const;
/** An endpoint failing this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600e3;
/** A broker delivery that failed waits this long; broker deliveries never give up. */
export const BROKER_RETRY_MS = 5e3;

/** What an endpoint answered. */
export interface SendResult {
  readonly ok: boolean;
  readonly status: number | null;
  readonly excerpt: string | null;
}

/** Signs and POSTs an event to a webhook (Standard Webhooks), checking the address after DNS. */
export interface WebhookSender {
  send(
    webhook: Pick<Webhook, 'url' | 'secret'>,
    message: { id: string; at: number; body: string },
  ): Promise<SendResult>;
}

/**
 * Publishes an event to the operator's broker; resolves once the broker confirmed it. `id` is the
 * event's id (the AMQP `messageId`), the same on every publish of the event: consumers deduplicate on it.
 */
export interface EventPublisher {
  publish(message: { id: string; type: string; at: number; body: string }): Promise<void>;
}

/** Counts since start, for `/metrics`. */
export interface DispatchCounts {
  delivered: number;
  failed: number;
  givenUp: number;
  published: number;
  publishFailed: number;
}

/** What delivering runs on. */
export interface DeliveryDeps {
  readonly events: EventStore;
  readonly sender: WebhookSender;
  readonly publisher?: EventPublisher;
  readonly clock: Clock;
  readonly config: ServiceConfig;
  /** Where the bodies' `account` (the owning account's or team's name, decisions §21) is read; none: null. */
  readonly accounts?: Pick<AccountStore, 'findAccountById'>;
  /**
   * Waits for a failed send's turn to record its attempt and settle its delivery (the dispatcher's, a
   * few at a time): sends that fail together (hanging endpoints timing out at once) are written in
   * paced turns, not in one burst on the event loop, while answered ones go on at once (a healthy
   * endpoint never waits behind a broken one). None: at once.
   */
  readonly turn?: () => Promise<void>;
}

/**
 * The deps and what one dispatcher keeps: its counts, and the deliveries it sent (the broker confirmed,
 * the endpoint answered 2xx) whose settling failed (the store away): claimed again once their hold
 * ends, they are settled, not sent again.
 */
export type Delivering = DeliveryDeps & { readonly counts: DispatchCounts; readonly sent: Set<string> };

/** Sent deliveries remembered at most (a delivery removed meanwhile is never claimed again). */
const REMEMBER_SENT = 100_000;

/** Remembers a sent delivery until it is settled. */
function remember(d: Delivering, deliveryId: string): void {
  if (d.sent.size >= REMEMBER_SENT) d.sent.delete(d.sent.values().next().value ?? '');
  d.sent.add(deliveryId);
}

/** Settles a delivery as done, and forgets it was sent. */
async function done(d: Delivering, deliveryId: string): Promise<void> {
  await d.events.settle(deliveryId, null);
  d.sent.delete(deliveryId);
}

/** The wire body `{ type, timestamp, account, data }` of an event; `account` names its owner, or is null. */
export function eventBody(
  event: OutboxEvent,
  config: ServiceConfig,
  now: number,
  account: string | null = null,
): string {
  return JSON.stringify({
    type: event.type,
    timestamp: new Date(event.at).toISOString(),
    account,
    data: eventData(event, config, now),
  });
}

/** Names never change, so each is read once per dispatcher (a bounded cache). */
const names = new WeakMap<DeliveryDeps, Map<string, string | null>>();
const NAMES_KEPT = 10_000;

/** The name of the account an event belongs to (a person's or a team's), or null. */
async function accountNameOf(d: DeliveryDeps, event: OutboxEvent): Promise<string | null> {
  if (event.accountId === null || d.accounts === undefined) return null;
  let known = names.get(d);
  if (known === undefined) names.set(d, (known = new Map()));
  if (known.has(event.accountId)) return known.get(event.accountId) ?? null;
  const name = (await d.accounts.findAccountById(event.accountId))?.name ?? null;
  if (known.size >= NAMES_KEPT) known.clear();
  known.set(event.accountId, name);
  return name;
}

function eventData(event: OutboxEvent, config: ServiceConfig, now: number): unknown {
  if (event.link !== undefined) return toLinkView(event.link, config, now);
  if (event.data !== undefined) return event.data;
  if (event.visits !== undefined) {
    const { domain, slug, link_id, ...counts } = event.visits;
    return { link_id, short_url: shortUrlOf({ domain, slug }, config), ...counts };
  }
  return {};
}

/** Attempts one claimed delivery: to its webhook, or to the broker (dropped when none runs here). */
export function deliver(d: Delivering, delivery: PendingDelivery): Promise<void> {
  if (d.sent.has(delivery.id)) return done(d, delivery.id);
  if (delivery.webhook !== null) return toWebhook(d, delivery, delivery.webhook);
  if (d.publisher === undefined) return d.events.settle(delivery.id, null);
  return toBroker(d, d.publisher, delivery);
}

/** Publishes a broker delivery; a failure waits {@link BROKER_RETRY_MS}, never giving up. */
async function toBroker(d: Delivering, publisher: EventPublisher, delivery: PendingDelivery): Promise<void> {
  const { event } = delivery;
  try {
    await publisher.publish({
      id: event.id,
      type: event.type,
      at: event.at,
      body: eventBody(event, d.config, d.clock.now(), await accountNameOf(d, event)),
    });
  } catch {
    d.counts.publishFailed += 1;
    await d.turn?.();
    return d.events.settle(delivery.id, d.clock.now() + BROKER_RETRY_MS);
  }
  d.counts.published += 1;
  remember(d, delivery.id);
  await done(d, delivery.id);
}

/** Attempts a webhook delivery, then settles it: done, given up, or due again after its delay. */
async function toWebhook(d: Delivering, delivery: PendingDelivery, webhook: Webhook): Promise<void> {
  if (webhook.disabledAt !== null) return d.events.settle(delivery.id, null);
  const attempt = delivery.attempts + 1;
  const result = await attemptOnce(d, webhook, delivery.event, attempt, delivery.id);
  const delay = RETRY_DELAYS_MS[attempt - 1];
  if (result.ok) d.counts.delivered += 1;
  else if (delay === undefined) d.counts.givenUp += 1;
  else d.counts.failed += 1;
  if (result.ok || delay === undefined) return done(d, delivery.id);
  await d.events.settle(delivery.id, d.clock.now() + delay);
}

/**
 * Sends one attempt and records it, with the endpoint's failing-since and, after 5 days, its disabling.
 * A delivery (`deliveryId`; a ping has none) answered 2xx is remembered as sent before anything is written.
 */
export async function attemptOnce(
  d: Delivering,
  webhook: Webhook,
  event: OutboxEvent,
  attempt: number,
  deliveryId?: string,
): Promise<SendResult> {
  const account = await accountNameOf(d, event);
  const now = d.clock.now();
  const result = await d.sender.send(webhook, {
    id: event.id,
    at: now,
    body: eventBody(event, d.config, now, account),
  });
  if (result.ok && deliveryId !== undefined) remember(d, deliveryId);
  // failures come in bursts (endpoints timing out together): they take turns; an answer goes on at once
  if (!result.ok) await d.turn?.();
  const at = d.clock.now();
  const record: DeliveryAttempt = { at, eventId: event.id, eventType: event.type, attempt, ...result };
  const failingSince = result.ok ? null : (webhook.failingSince ?? at);
  const disabledAt = failingSince !== null && at - failingSince >= DISABLE_AFTER_MS ? at : null;
  await d.events.recordAttempt(webhook.id, record, { failingSince, disabledAt });
  return result;
}
