import { createServer } from 'node:net';
import { EVENT_TYPES, SENDS_PER_WEBHOOK } from '@shortener/core';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, startTestServer } from './harness.js';
import type { TestAccount, TestServer } from './harness.js';
import { startReceiver } from '../../../app/test/webhook-receiver.js';
import type { Receiver } from '../../../app/test/webhook-receiver.js';

// Issue 38: a receiver that accepts and never answers held every other endpoint's deliveries for its
// 10 s timeout per round. Here 50 of them, over 3 accounts (the healthy endpoint's own among them), sit
// beside one healthy endpoint whose delivery latency is measured before and among them.

let server: TestServer;
let healthy: Receiver;
let accounts: TestAccount[];
const sockets = new Set<Socket>();
const hanging = createServer((socket) => {
  sockets.add(socket); // accepted, read, never answered
  socket.on('close', () => sockets.delete(socket));
});

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  healthy = await startReceiver();
  await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
  accounts = [await server.createAccount('alice'), await server.createAccount('bob')];
  accounts.push(await server.createAccount('carol'));
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy(); // the sends in flight end now, not at their timeout
  await new Promise((resolve) => hanging.close(resolve));
  await server.close();
  await healthy.close();
});

const addWebhook = async (account: TestAccount, url: string) =>
  jsonOf(await server.api('/api/v1/webhooks', { key: account.key, json: { url, events: EVENT_TYPES } }), 201);

/** Creates a link of `account`; resolves with the ms until the healthy endpoint received its event. */
async function latencyOfOne(account: TestAccount): Promise<number> {
  const from = healthy.received.length;
  const start = performance.now();
  const link = await jsonOf(
    await server.api('/api/v1/links', { key: account.key, json: { url: 'https://example.com/x' } }),
    201,
  );
  const got = await healthy.next((r) => r.body.type === 'link.created' && r.body.data.id === link.id, from);
  return got.at - start;
}

describe('deliveries to different endpoints (issue 38)', () => {
  it("keeps a healthy endpoint's latency beside 50 receivers that accept and never answer", async () => {
    const [alice, bob, carol] = accounts as [TestAccount, TestAccount, TestAccount];
    healthy.secret = (await addWebhook(alice, healthy.url)).secret;
    const before: number[] = [];
    for (let i = 0; i < 10; i++) before.push(await latencyOfOne(alice));

    const { port } = hanging.address() as AddressInfo;
    for (let i = 0; i < 50; i++)
      await addWebhook([alice, bob, carol][i % 3]!, `http://127.0.0.1:${port}/h${i}`);
    const among: number[] = [];
    for (let i = 0; i < 25; i++) {
      // every account's links keep each hanging endpoint's backlog growing
      await jsonOf(
        await server.api('/api/v1/links', { key: bob.key, json: { url: 'https://example.com/b' } }),
        201,
      );
      await jsonOf(
        await server.api('/api/v1/links', { key: carol.key, json: { url: 'https://example.com/c' } }),
        201,
      );
      among.push(await latencyOfOne(alice));
    }
    expect(sockets.size).toBeGreaterThanOrEqual(50); // each hanging endpoint holds sends in flight
    expect(sockets.size).toBeLessThanOrEqual(50 * SENDS_PER_WEBHOOK.healthy); // but no more than its cap
    const worst = (list: number[]) => Math.max(...list);
    expect(worst(among), `before: ${before.join(', ')}; among: ${among.join(', ')}`).toBeLessThan(
      worst(before) + 1000,
    );
  }, 60_000);
});
