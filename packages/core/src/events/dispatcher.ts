import type { ServiceConfig } from '../config.js';
import { shortUrlOf, toLinkView } from '../links/view.js';
import type { Clock } from '../ports.js';
import type { DeliveryAttempt, EventStore, PendingDelivery, Webhook } from './event-ports.js';
import type { OutboxEvent } from './events.js';

/** Waits after failed attempts 1..7 (decisions §16); the 8th failure gives up. */
export const RETRY_DELAYS_MS = [5e3, 3e5, 18e5, 72e5, 18e6, 36e6, 36e6] as const;
/** An endpoint failing this long is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600e3;
/**
 * How long a claimed delivery is held: the 10 s timeout with a margin; then another node (or this one,
 * restarted after a crash) retries it.
 */
export const HOLD_MS = 30e3;
/** Events taken from the outbox per statement, and statements per tick at most. */
const FAN_OUT_BATCH = 1000;
const FAN_OUT_ROUNDS = 10;
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

/** Publishes an event to the operator's broker; resolves once the broker confirmed it. */
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

/** Delivers the outbox: fan-out, then each due delivery once per claim. */
export interface EventDispatcher {
  /** One round: moves new events into deliveries and attempts every due one. Returns attempts made. */
  tick(): Promise<number>;
  /** Sends a `ping` to a webhook now (not retried) and records the attempt. */
  ping(webhook: Webhook): Promise<SendResult>;
  readonly counts: Readonly<DispatchCounts>;
}

/** The wire body `{ type, timestamp, data }` of an event. */
export function eventBody(event: OutboxEvent, config: ServiceConfig, now: number): string {
  return JSON.stringify({
    type: event.type,
    timestamp: new Date(event.at).toISOString(),
    data: eventData(event, config, now),
  });
}

function eventData(event: OutboxEvent, config: ServiceConfig, now: number): unknown {
  if (event.link !== undefined) return toLinkView(event.link, config, now);
  if (event.visits !== undefined) {
    const { domain, slug, link_id, ...counts } = event.visits;
    return { link_id, short_url: shortUrlOf({ domain, slug }, config), ...counts };
  }
  return {};
}

/** Creates the dispatcher. `publisher` only with `AMQP_URL`. */
export function createEventDispatcher(deps: {
  readonly events: EventStore;
  readonly sender: WebhookSender;
  readonly publisher?: EventPublisher;
  readonly clock: Clock;
  readonly config: ServiceConfig;
  readonly batch?: number;
}): EventDispatcher {
  const { events, sender, publisher, clock, config } = deps;
  const batch = deps.batch ?? 100;
  const counts: DispatchCounts = { delivered: 0, failed: 0, givenUp: 0, published: 0, publishFailed: 0 };

  const toBroker = async (delivery: PendingDelivery): Promise<void> => {
    const { event } = delivery;
    try {
      await publisher!.publish({
        id: event.id,
        type: event.type,
        at: event.at,
        body: eventBody(event, config, clock.now()),
      });
      counts.published += 1;
      await events.settle(delivery.id, null);
    } catch {
      counts.publishFailed += 1;
      await events.settle(delivery.id, clock.now() + BROKER_RETRY_MS);
    }
  };

  const toWebhook = async (delivery: PendingDelivery, webhook: Webhook): Promise<void> => {
    if (webhook.disabledAt !== null) return events.settle(delivery.id, null);
    const attempt = delivery.attempts + 1;
    const result = await attempt1(webhook, delivery.event, attempt);
    const delay = RETRY_DELAYS_MS[attempt - 1];
    if (result.ok) counts.delivered += 1;
    else if (delay === undefined) counts.givenUp += 1;
    else counts.failed += 1;
    await events.settle(delivery.id, result.ok || delay === undefined ? null : clock.now() + delay);
  };

  const attempt1 = async (webhook: Webhook, event: OutboxEvent, attempt: number): Promise<SendResult> => {
    const now = clock.now();
    const result = await sender.send(webhook, { id: event.id, at: now, body: eventBody(event, config, now) });
    const at = clock.now();
    const record: DeliveryAttempt = { at, eventId: event.id, eventType: event.type, attempt, ...result };
    const failingSince = result.ok ? null : (webhook.failingSince ?? at);
    const disabledAt = failingSince !== null && at - failingSince >= DISABLE_AFTER_MS ? at : null;
    await events.recordAttempt(webhook.id, record, { failingSince, disabledAt });
    return result;
  };

  return {
    counts,
    async tick() {
      const now = clock.now();
      // a flush of a long tail of links writes thousands of link.visited events at once: fan them out
      // in rounds (most have no webhook and simply leave the outbox), a bounded number per tick
      for (let round = 0; round < FAN_OUT_ROUNDS; round++) {
        if ((await events.fanOut(now, publisher !== undefined, FAN_OUT_BATCH)) < FAN_OUT_BATCH) break;
      }
      const due = await events.claimDue(now, now + HOLD_MS, batch);
      await Promise.all(
        due.map((delivery) =>
          delivery.webhook === null
            ? publisher === undefined
              ? events.settle(delivery.id, null)
              : toBroker(delivery)
            : toWebhook(delivery, delivery.webhook),
        ),
      );
      return due.length;
    },
    async ping(webhook) {
      const at = clock.now();
      const id = `msg_ping_${webhook.id}_${at}`;
      return attempt1(webhook, { id, type: 'ping', accountId: webhook.accountId, at }, 1);
    },
  };
}
