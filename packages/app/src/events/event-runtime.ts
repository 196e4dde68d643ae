import { createEventDispatcher } from '@shortener/core';
import type { Clock, EventDispatcher, RandomSource, Stores, WebhookDeps } from '@shortener/core';
import type { AppConfig } from '../config.js';
import type { AppLogger } from '../logger.js';
import { createAmqpPublisher } from './amqp-publisher.js';
import type { AmqpPublisher } from './amqp-publisher.js';
import { createHttpWebhookSender } from './webhook-sender.js';
import { serverPacer, yieldToRequests } from '../server-pacer.js';

/** How often the outbox and the due deliveries are looked at, besides right after a local link change. */
export const DISPATCH_EVERY_MS = 250;

/** The delivery of events in `serve`: the dispatcher, its timer, and the broker when `AMQP_URL` is set. */
export interface EventRuntime {
  readonly dispatcher: EventDispatcher;
  /** What the webhook routes and pages run on, but the rate limiter of test pings (the HTTP deps add it). */
  readonly webhooks: WebhookDeps;
  /** Null without `AMQP_URL`; else whether the broker is connected (`/healthz` says so). */
  brokerConnected(): boolean | null;
  /** Runs a round soon (after a flush of visits wrote their events). */
  kick(): void;
  /** Starts dispatching (every {@link DISPATCH_EVERY_MS}, and soon after each local link change). */
  start(): void;
  /**
   * Stops the timer, waits for the round under way and the sends in flight (each ends within the
   * sender's timeout) and closes the broker connection.
   */
  stop(): Promise<void>;
}

/** Wires the dispatcher on the stores, the HTTP sender and the optional broker (the container's binding). */
export function createEventRuntime(
  config: AppConfig,
  stores: Stores,
  clock: Clock,
  random: RandomSource,
  logger: AppLogger,
): EventRuntime {
  const publisher: AmqpPublisher | null =
    config.amqpUrl === null ? null : createAmqpPublisher(config.amqpUrl);
  // rounds tick the dispatcher, and the dispatcher asks for a round when a send ends
  const rounds = createRounds(() => dispatcher.tick(), logger);
  const dispatcher = createEventDispatcher({
    events: stores.events,
    accounts: stores.accounts,
    sender: createHttpWebhookSender(config.service),
    ...(publisher === null ? {} : { publisher }),
    clock,
    config: config.service,
    visitWindowMs: config.visitEventSeconds * 1000,
    // background work (decisions §26): the rounds take what the requests leave, as imports do
    pace: serverPacer(),
    // the attempts of sends that fail together are recorded a few at a time (a burst of timeouts)
    recordTurns: { pace: serverPacer(), gather: yieldToRequests },
    onError: (error) => logger.warn('delivering an event failed', { error: String(error) }),
    // a send that ended leaves room for the deliveries waiting behind it (an endpoint at its cap)
    onSent: () => rounds.soon(),
  });
  let timer: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;
  return {
    dispatcher,
    webhooks: { events: stores.events, clock, random, config: config.service, dispatcher },
    kick: rounds.soon,
    brokerConnected: () => (publisher === null ? null : publisher.connected()),
    start() {
      publisher?.start();
      timer = setInterval(rounds.now, DISPATCH_EVERY_MS);
      timer.unref();
      unsubscribe = stores.links.changes.subscribe(rounds.soon);
    },
    async stop() {
      const stopping = rounds.stop();
      clearInterval(timer);
      unsubscribe?.();
      await stopping;
      await dispatcher.idle();
      await publisher?.close();
    },
  };
}

/**
 * The dispatcher's rounds, one at a time: a round asked for while one runs follows it. A round only
 * claims and starts sends, so it never waits for an endpoint.
 */
function createRounds(tick: () => Promise<number>, logger: AppLogger) {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const round = (): void => {
    if (stopped) return;
    if (running !== null) return void (again = true);
    running = tick()
      .then(
        () => undefined,
        (error: unknown) => logger.warn('delivering events failed', { error: String(error) }),
      )
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          setImmediate(round);
        }
      });
  };
  // the changes of one turn (a batch of creations) ask for one round, not one each
  let soon = false;
  const roundSoon = (): void => {
    if (soon) return;
    soon = true;
    setImmediate(() => {
      soon = false;
      round();
    });
  };
  return {
    now: round,
    soon: roundSoon,
    /** Runs no more rounds; resolves once the round under way has ended. */
    stop: async (): Promise<void> => {
      stopped = true;
      await running;
    },
  };
}
