import { attemptOnce, deliver } from './deliveries.js';
import type { Delivering, DeliveryDeps, DispatchCounts, SendResult } from './deliveries.js';
import type { Webhook } from './event-ports.js';

/**
 * How long a claimed delivery is held: the 10 s timeout with a margin; then another node (or this one,
 * restarted after a crash) retries it.
 */
export const HOLD_MS = 30e3;
/**
 * Sends to one webhook at once at most, over every node (held deliveries count): a slow endpoint ties up
 * this many, never the others'. One while it is failing, so a broken endpoint is tried one at a time.
 */
export const SENDS_PER_WEBHOOK = { healthy: 8, failing: 1 } as const;
/** Sends in flight at once in one dispatcher, webhooks and broker together. */
export const SENDS_AT_MOST = 1000;
/** Events taken from the outbox per statement, and statements per tick at most. */
const FAN_OUT_BATCH = 1000;
const FAN_OUT_ROUNDS = 10;

/** Delivers the outbox: fan-out, then each due delivery once per claim. */
export interface EventDispatcher {
  /**
   * One round: moves new events into deliveries, claims the due ones and starts their sends without
   * waiting for them (a slow endpoint holds up nothing else). Returns how many sends it started.
   */
  tick(): Promise<number>;
  /** Resolves once every send started so far has ended (each is bounded by the sender's timeout). */
  idle(): Promise<void>;
  /** Sends a `ping` to a webhook now (not retried) and records the attempt. */
  ping(webhook: Webhook): Promise<SendResult>;
  readonly counts: Readonly<DispatchCounts>;
}

/** What the dispatcher works with. */
interface DispatcherDeps extends DeliveryDeps {
  /** Claims per round at most. */
  readonly batch?: number;
  /** Told of a send that threw (the store away while settling it): the delivery is retried after its hold. */
  readonly onError?: (error: unknown) => void;
  /** Told when a send ended, so another round may start the deliveries waiting behind it. */
  readonly onSent?: () => void;
}

/** One round: fans the outbox out, claims what is due within the caps and starts each send. */
async function tick(d: Delivering & DispatcherDeps, inFlight: Set<Promise<void>>): Promise<number> {
  const { events } = d;
  const now = d.clock.now();
  // a flush of a long tail of links writes thousands of link.visited events at once: fan them out
  // in rounds (most have no webhook and simply leave the outbox), a bounded number per tick
  for (let round = 0; round < FAN_OUT_ROUNDS; round++) {
    if ((await events.fanOut(now, d.publisher !== undefined, FAN_OUT_BATCH)) < FAN_OUT_BATCH) break;
  }
  const room = Math.min(d.batch ?? 100, SENDS_AT_MOST - inFlight.size);
  if (room <= 0) return 0;
  const due = await events.claimDue(now, now + HOLD_MS, room, SENDS_PER_WEBHOOK);
  for (const delivery of due) {
    const send: Promise<void> = deliver(d, delivery)
      .catch((error: unknown) => d.onError?.(error))
      .finally(() => {
        inFlight.delete(send);
        d.onSent?.();
      });
    inFlight.add(send);
  }
  return due.length;
}

/** Creates the dispatcher. `publisher` only with `AMQP_URL`. */
export function createEventDispatcher(deps: DispatcherDeps): EventDispatcher {
  const counts: DispatchCounts = { delivered: 0, failed: 0, givenUp: 0, published: 0, publishFailed: 0 };
  const d = { ...deps, counts, sent: new Set<string>() };
  const inFlight = new Set<Promise<void>>();
  return {
    counts,
    tick: () => tick(d, inFlight),
    async idle() {
      while (inFlight.size > 0) await Promise.all(inFlight);
    },
    async ping(webhook) {
      const at = deps.clock.now();
      const id = `msg_ping_${webhook.id}_${at}`;
      return attemptOnce(d, webhook, { id, type: 'ping', accountId: webhook.accountId, at }, 1);
    },
  };
}
