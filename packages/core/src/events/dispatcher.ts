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

/** What the dispatcher works with. */
interface DispatcherDeps {
  readonly events: EventStore;
  readonly sender: WebhookSender;
  readonly publisher?: EventPublisher;
  readonly clock: Clock;
  readonly config: ServiceConfig;
  readonly batch?: number;
}

/** The deps and the counts one dispatcher keeps. */
type Dispatch = DispatcherDeps & { readonly counts: DispatchCounts };

/** Publishes a broker delivery; a failure waits {@link BROKER_RETRY_MS}, never giving up. */
async function toBroker(d: Dispatch, publisher: EventPublisher, delivery: PendingDelivery): Promise<void> {
  const { event } = delivery;
  try {
    await publisher.publish({
      id: event.id,
      type: event.type,
      at: event.at,
      body: eventBody(event, d.config, d.clock.now()),
    });
    d.counts.published += 1;
    await d.events.settle(delivery.id, null);
  } catch {
    d.counts.publishFailed += 1;
    await d.events.settle(delivery.id, d.clock.now() + BROKER_RETRY_MS);
  }
}

/** Attempts a webhook delivery, then settles it: done, given up, or due again after its delay. */
async function toWebhook(d: Dispatch, delivery: PendingDelivery, webhook: Webhook): Promise<void> {
  if (webhook.disabledAt !== null) return d.events.settle(delivery.id, null);
  const attempt = delivery.attempts + 1;
  const result = await attemptOnce(d, webhook, delivery.event, attempt);
  const delay = RETRY_DELAYS_MS[attempt - 1];
  if (result.ok) d.counts.delivered += 1;
  else if (delay === undefined) d.counts.givenUp += 1;
  else d.counts.failed += 1;
  await d.events.settle(delivery.id, result.ok || delay === undefined ? null : d.clock.now() + delay);
}

/** Sends one attempt and records it, with the endpoint's failing-since and, after 5 days, its disabling. */
async function attemptOnce(
  d: Dispatch,
  webhook: Webhook,
  event: OutboxEvent,
  attempt: number,
): Promise<SendResult> {
  const now = d.clock.now();
  const result = await d.sender.send(webhook, {
    id: event.id,
    at: now,
    body: eventBody(event, d.config, now),
  });
  const at = d.clock.now();
  const record: DeliveryAttempt = { at, eventId: event.id, eventType: event.type, attempt, ...result };
  const failingSince = result.ok ? null : (webhook.failingSince ?? at);
  const disabledAt = failingSince !== null && at - failingSince >= DISABLE_AFTER_MS ? at : null;
  await d.events.recordAttempt(webhook.id, record, { failingSince, disabledAt });
  return result;
}

/** One round: fans the outbox out, claims what is due and attempts each; returns how many. */
async function tick(d: Dispatch): Promise<number> {
  const { events, publisher } = d;
  const now = d.clock.now();
  // a flush of a long tail of links writes thousands of link.visited events at once: fan them out
  // in rounds (most have no webhook and simply leave the outbox), a bounded number per tick
  for (let round = 0; round < FAN_OUT_ROUNDS; round++) {
    if ((await events.fanOut(now, publisher !== undefined, FAN_OUT_BATCH)) < FAN_OUT_BATCH) break;
  }
  const due = await events.claimDue(now, now + HOLD_MS, d.batch ?? 100);
  await Promise.all(
    due.map((delivery) =>
      delivery.webhook === null
        ? publisher === undefined
          ? events.settle(delivery.id, null)
          : toBroker(d, publisher, delivery)
        : toWebhook(d, delivery, delivery.webhook),
    ),
  );
  return due.length;
}

/** Creates the dispatcher. `publisher` only with `AMQP_URL`. */
export function createEventDispatcher(deps: DispatcherDeps): EventDispatcher {
  const counts: DispatchCounts = { delivered: 0, failed: 0, givenUp: 0, published: 0, publishFailed: 0 };
  const d: Dispatch = { ...deps, counts };
  return {
    counts,
    tick: () => tick(d),
    async ping(webhook) {
      const at = deps.clock.now();
      const id = `msg_ping_${webhook.id}_${at}`;
      return attemptOnce(d, webhook, { id, type: 'ping', accountId: webhook.accountId, at }, 1);
    },
  };
}
