import { createServer, connect as tcpConnect } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { connect } from 'amqplib';
import type { ChannelModel, ConsumeMessage } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amqpTestUrl } from '../required.js';
import { jsonOf, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

// Decisions §16: with AMQP_URL every event goes to the durable topic exchange `shortener.events`, routing
// key = event type, persistent JSON with publisher confirms; a broker away delays, never loses. The
// RabbitMQ of this machine is used for real; the server reaches it through a TCP relay the test cuts.

const BROKER = amqpTestUrl();

/** A TCP relay to the broker that can be cut (every connection dropped, nothing accepted) and restored. */
async function startRelay(target: URL) {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(Number(target.port || 5672), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => s.destroy());
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `amqp://${target.username}:${target.password}@127.0.0.1:${port}`,
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
    restore: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve())),
  };
}

describe.runIf(BROKER !== null)('RabbitMQ (AMQP_URL)', () => {
  let server: TestServer;
  let consumer: ChannelModel;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  const messages: ConsumeMessage[] = [];

  beforeAll(async () => {
    relay = await startRelay(new URL(BROKER ?? ''));
    consumer = await connect(BROKER ?? '');
    const channel = await consumer.createChannel();
    await channel.assertExchange('shortener.events', 'topic', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true });
    await channel.bindQueue(queue, 'shortener.events', '#');
    await channel.consume(queue, (message) => void (message && messages.push(message)), { noAck: true });
    server = await startTestServer({ AMQP_URL: relay.url, VISIT_EVENT_SECONDS: '1' });
  });

  afterAll(async () => {
    await server?.close();
    await consumer?.close();
    await relay?.cut();
  });

  const published = (match: (body: { type: string; data: { url?: string } }) => boolean) =>
    expect
      .poll(() => messages.find((m) => match(JSON.parse(m.content.toString()))), { timeout: 10_000 })
      .toBeDefined();

  const brokerState = () =>
    expect.poll(async () => (await jsonOf(await server.api('/healthz'))).broker, { timeout: 10_000 });

  it('is connected from the start, before any event is published (issue 38)', async () => {
    expect(messages).toEqual([]);
    await brokerState().toBe('connected');
  });

  it('publishes every event, anonymous links included, persistent, keyed by type', async () => {
    const link = await jsonOf(
      await server.api('/api/v1/links', { json: { url: 'https://example.com/amqp' } }),
      201,
    );
    await published((b) => b.type === 'link.created' && b.data.url === link.url);
    const message = messages.find((m) => m.fields.routingKey === 'link.created')!;
    expect(message.properties).toMatchObject({
      deliveryMode: 2,
      contentType: 'application/json',
      type: 'link.created',
    });
    expect(message.properties.messageId).toMatch(/^msg_[0-9a-f]{32}$/); // the event id (deduplicate on it)
    expect(message.fields.exchange).toBe('shortener.events');
    expect(await jsonOf(await server.api('/healthz'))).toEqual({ status: 'ok', broker: 'connected' });
  });

  it('keeps events while the broker is away, stays healthy, and publishes them once it is back', async () => {
    await relay.cut();
    const link = await jsonOf(
      await server.api('/api/v1/links', { json: { url: 'https://example.com/away' } }),
      201,
    );
    await brokerState().toBe('down');
    expect(messages.some((m) => m.content.toString().includes(link.url))).toBe(false);
    await relay.restore();
    await published((b) => b.type === 'link.created' && b.data.url === link.url);
    expect(messages.filter((m) => m.content.toString().includes(link.url))).toHaveLength(1);
  });

  it('connects again after a loss with nothing to publish (issue 38)', async () => {
    await brokerState().toBe('connected');
    await relay.cut();
    await brokerState().toBe('down');
    await relay.restore();
    await brokerState().toBe('connected');
  });
});
