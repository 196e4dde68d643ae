import type { ChannelModel, ConfirmChannel } from 'amqplib';
import type { EventPublisher } from '@shortener/core';

/** The exchange every event is published to (decisions §16). */
export const EVENTS_EXCHANGE = 'shortener.events';
/** How long to wait before connecting again after the broker failed. */
const RECONNECT_AFTER_MS = 1000;

/** The publisher of `AMQP_URL`, with what `/healthz` says of the broker. */
export interface AmqpPublisher extends EventPublisher {
  /** True while a channel is open (the last connection attempt succeeded and is not lost). */
  connected(): boolean;
  /**
   * Connects now, declaring the exchange, and again a second after each loss, until closed: `/healthz`
   * tells of the broker from the start, not from the first event published.
   */
  start(): void;
  close(): Promise<void>;
}

/**
 * Publishes events to RabbitMQ: the durable topic exchange {@link EVENTS_EXCHANGE}, routing key = event
 * type, persistent JSON, each publish resolved only once the broker confirmed it (a confirm channel).
 * Connects at start (or on first use) and again after a loss; while the broker is away `publish` rejects,
 * and the dispatcher keeps the event for later. The message id (`messageId`) is the event's id, the same
 * `msg_…` as a webhook's `webhook-id` and the same on every publish of the event: delivery is at least
 * once, and consumers deduplicate on it.
 */
export function createAmqpPublisher(url: string): AmqpPublisher {
  let model: ChannelModel | null = null;
  let channel: Promise<ConfirmChannel> | null = null;
  let open = false;
  let failedAt = 0;
  let closed = false;
  let started = false;
  let retry: NodeJS.Timeout | null = null;
  const connectSoon = () => {
    if (!started || closed || retry !== null) return;
    // a little after the reconnect pause, which channelNow keeps
    retry = setTimeout(() => {
      retry = null;
      channelNow().catch(() => {});
    }, RECONNECT_AFTER_MS + 50);
    retry.unref();
  };
  const lost = () => {
    open = false;
    channel = null;
    model = null;
    failedAt = Date.now();
    connectSoon();
  };
  const start = async (): Promise<ConfirmChannel> => {
    // loaded with the first connection: a server without AMQP_URL does without the client
    const { connect } = await import('amqplib');
    const connection = await connect(url);
    model = connection;
    connection.on('error', () => {});
    connection.on('close', lost);
    const confirm = await connection.createConfirmChannel();
    confirm.on('error', () => {});
    confirm.on('close', lost);
    await confirm.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
    open = true;
    return confirm;
  };
  const channelNow = (): Promise<ConfirmChannel> => {
    if (closed) return Promise.reject(new Error('The publisher is closed.'));
    if (channel === null) {
      if (Date.now() - failedAt < RECONNECT_AFTER_MS) return Promise.reject(new Error('The broker is away.'));
      channel = start().catch((error: unknown) => {
        void model?.close().catch(() => {});
        lost();
        throw error;
      });
    }
    return channel;
  };
  return {
    connected: () => open,
    start() {
      started = true;
      channelNow().catch(() => {});
    },
    async publish(message) {
      await publishConfirmed(await channelNow(), message);
    },
    async close() {
      closed = true;
      if (retry !== null) clearTimeout(retry);
      const current = model;
      lost();
      await current?.close().catch(() => {});
    },
  };
}

/** Publishes an event on a confirm channel: resolves once the broker confirmed it, rejects if it refused. */
function publishConfirmed(
  confirm: ConfirmChannel,
  message: Parameters<EventPublisher['publish']>[0],
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const options = {
      persistent: true,
      contentType: 'application/json',
      messageId: message.id,
      type: message.type,
      timestamp: Math.floor(message.at / 1000),
    };
    confirm.publish(EVENTS_EXCHANGE, message.type, Buffer.from(message.body), options, (error: unknown) =>
      error === null || error === undefined ? resolve() : reject(new Error('The broker refused the event.')),
    );
  });
}
