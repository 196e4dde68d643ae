import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { aServiceConfig } from '@shortener/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpWebhookSender, INCOMPLETE } from '../src/events/webhook-sender.js';
import type { Resolve } from '../src/events/webhook-sender.js';
import { startReceiver } from './webhook-receiver.js';
import type { Receiver } from './webhook-receiver.js';

// Decisions §16: destinations are checked again at delivery, after DNS resolution, and the connection
// goes to the address checked. The name service is the test's (a name rebinding to loopback); the
// receiver is real, on loopback, and verifies the signature with the `standardwebhooks` package.

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver('/in');
  receiver.secret = SECRET;
});
afterAll(() => receiver.close());

const resolvingTo =
  (address: string): Resolve =>
  async () => [{ address, family: 4 }];
const message = () => ({ id: `msg_${Date.now()}`, at: Date.now(), body: '{"type":"ping","data":{}}' });
const hookOn = (host: string) => ({ url: receiver.url.replace('127.0.0.1', host), secret: SECRET });

describe('the webhook sender', () => {
  it('refuses a public-looking name that resolves to a private address, sending nothing', async () => {
    const sender = createHttpWebhookSender(aServiceConfig(), resolvingTo('127.0.0.1'));
    const before = receiver.received.length;
    const result = await sender.send(hookOn('hooks.example'), message());
    expect(result).toEqual({
      ok: false,
      status: null,
      excerpt: 'refused: the name resolves to a private address',
    });
    expect(receiver.received.length).toBe(before);
  });

  it('refuses private literals and local names before resolving', async () => {
    const sender = createHttpWebhookSender(aServiceConfig(), resolvingTo('93.184.216.34'));
    expect((await sender.send(hookOn('127.0.0.1'), message())).excerpt).toBe('refused: private_host');
    expect((await sender.send(hookOn('printer.local'), message())).excerpt).toBe('refused: private_host');
  });

  it('connects to the address it checked, signed, with WEBHOOK_ALLOW_PRIVATE', async () => {
    const sender = createHttpWebhookSender(
      aServiceConfig({ webhookAllowPrivate: true }),
      resolvingTo('127.0.0.1'),
    );
    const sent = message();
    const result = await sender.send(hookOn('hooks.example'), sent);
    expect(result).toEqual({ ok: true, status: 200, excerpt: 'thanks' });
    expect(receiver.received.at(-1)).toMatchObject({ id: sent.id, verified: true, body: { type: 'ping' } });
  });

  it('keeps the error code, never an address, when nothing answers', async () => {
    const sender = createHttpWebhookSender(
      aServiceConfig({ webhookAllowPrivate: true }),
      resolvingTo('127.0.0.1'),
    );
    const result = await sender.send({ url: 'http://hooks.example:9/in', secret: SECRET }, message());
    expect(result).toEqual({ ok: false, status: null, excerpt: 'ECONNREFUSED' });
  });

  it.each([
    ['a length it does not send', 'Content-Length: 100\r\n\r\npartial'],
    ['chunks without the last', 'Transfer-Encoding: chunked\r\n\r\n7\r\npartial\r\n'],
  ])('counts a 200 whose connection closes mid-body (%s) as a failure', async (_name, rest) => {
    const server = createServer((socket) => {
      socket.once('data', () => socket.end(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n${rest}`));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const sender = createHttpWebhookSender(
        aServiceConfig({ webhookAllowPrivate: true }),
        resolvingTo('127.0.0.1'),
      );
      const { port } = server.address() as AddressInfo;
      const result = await sender.send({ url: `http://hooks.example:${port}/in`, secret: SECRET }, message());
      expect(result).toEqual({ ok: false, status: 200, excerpt: INCOMPLETE });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
