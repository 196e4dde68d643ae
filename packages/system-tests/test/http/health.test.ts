import { connect } from 'amqplib';
import type { ChannelModel } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amqpTestUrl } from '../required.js';
import { startSite } from './destination-site.js';
import type { Site } from './destination-site.js';
import { eventually, jsonOf, startTestServer } from './harness.js';
import type { TestAccount, TestServer } from './harness.js';
import { startReceiver } from '../../../app/test/webhook-receiver.js';
import type { Receiver, Received } from '../../../app/test/webhook-receiver.js';

// Decisions §23: link health through the whole server. The destinations are real servers on the
// loopback (ALLOW_PRIVATE_HOSTS lets links point there); the probe's own cases (hangs, resets, TLS, DNS,
// rebinding) are in health-probe.test.ts.

let server: TestServer;
let site: Site;
let receiver: Receiver;
let owner: TestAccount;

beforeAll(async () => {
  site = await startSite();
  receiver = await startReceiver();
  server = await startTestServer({
    ALLOW_PRIVATE_HOSTS: 'true',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    HEALTH_HOST_GAP_MS: '100',
  });
  owner = await server.createAccount('health-owner');
  const hook = await jsonOf(
    await server.api('/api/v1/webhooks', {
      key: owner.key,
      json: { url: receiver.url, events: ['link.health_changed'] },
    }),
    201,
  );
  receiver.secret = hook.secret;
});

afterAll(async () => {
  await server.close();
  await site.close();
  await receiver.close();
});

const create = async (account: TestAccount, url: string) =>
  jsonOf(await server.api('/api/v1/links', { key: account.key, json: { url } }), 201);
const check = (account: TestAccount, id: string) =>
  server.api(`/api/v1/links/${id}/check`, { key: account.key, method: 'POST' });

describe('link health through the API (decisions §23)', () => {
  it('starts unknown, and a check finds ok with the status, politely named', async () => {
    const link = await create(owner, `${site.url}/ok`);
    expect(link.health).toStrictEqual({
      state: 'unknown',
      status: null,
      reason: null,
      final_url: null,
      checked_at: null,
      since: null,
    });
    const checked = await jsonOf(await check(owner, link.id));
    expect(checked.health).toMatchObject({ state: 'ok', status: 200, reason: null, final_url: null });
    expect(Date.parse(checked.health.checked_at)).toBeGreaterThan(Date.now() - 60_000);
    const asked = site.seen.filter((s) => s.path === '/ok');
    expect(asked.at(-1)?.method).toBe('HEAD');
    expect(asked.at(-1)?.agent).toMatch(new RegExp(`^shortener-health/\\S+ \\(\\+${server.baseUrl}\\)$`));
    // the link as read afterwards has it too
    expect(
      (await jsonOf(await server.api(`/api/v1/links/${link.id}`, { key: owner.key }))).health.state,
    ).toBe('ok');
  });

  it('shows where a redirected destination ended, never rewriting the link', async () => {
    const link = await create(owner, `${site.url}/moved`);
    const checked = await jsonOf(await check(owner, link.id));
    expect(checked.health).toMatchObject({ state: 'redirected', status: 200, final_url: `${site.url}/ok` });
    expect(checked.url).toBe(`${site.url}/moved`);
  });

  it('turns broken at the third failure in a row, sends one event, and ok again at the first pass', async () => {
    site.answer['/flaky'] = 404;
    const link = await create(owner, `${site.url}/flaky`);
    const ofLink = (r: Received) => r.body.type === 'link.health_changed' && r.body.data.link.id === link.id;
    const first = await jsonOf(await check(owner, link.id));
    expect(first.health).toMatchObject({ state: 'unknown', status: 404, reason: 'http_4xx' });
    site.answer['/flaky'] = 500;
    const second = await jsonOf(await check(owner, link.id));
    expect(second.health).toMatchObject({ state: 'unknown', status: 500, reason: 'http_5xx' });
    expect(receiver.received.filter(ofLink)).toHaveLength(0);
    const third = await jsonOf(await check(owner, link.id));
    expect(third.health).toMatchObject({ state: 'broken', status: 500, reason: 'http_5xx' });
    expect(third.health.since).toBe(third.health.checked_at);
    const broke = await receiver.next(ofLink, 0, 10_000);
    expect((broke.body as { account?: string }).account).toBe('health-owner');
    expect(broke.body.data).toMatchObject({ from: 'unknown', to: 'broken' });
    expect(broke.body.data.link).toMatchObject({
      id: link.id,
      health: { state: 'broken', reason: 'http_5xx' },
    });

    const listed = await jsonOf(await server.api('/api/v1/links?health=broken', { key: owner.key }));
    expect(listed.links.map((l: { id: string }) => l.id)).toStrictEqual([link.id]);

    delete site.answer['/flaky'];
    const healed = await jsonOf(await check(owner, link.id));
    expect(healed.health).toMatchObject({ state: 'ok', status: 200, reason: null });
    const back = await receiver.next((r) => ofLink(r) && r.body.data.to === 'ok', 0, 10_000);
    expect(back.body.data).toMatchObject({ from: 'broken', to: 'ok' });
    expect(receiver.received.filter(ofLink)).toHaveLength(2);
    expect(await jsonOf(await server.api('/api/v1/links?health=broken', { key: owner.key }))).toMatchObject({
      links: [],
    });
    // a health change is no change of the link: no link.updated, same updated_at
    expect(healed.updated_at).toBe(link.updated_at);
  });

  it('allows 10 checks a minute per account, then 429 with Retry-After, whoever asks', async () => {
    const busy = await server.createAccount('health-busy');
    const link = await create(busy, `${site.url}/ok`);
    const answers = await Promise.all(Array.from({ length: 12 }, () => check(busy, link.id)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
  });

  it("refuses another account's link as reading it is refused, and a bad health filter", async () => {
    const link = await create(owner, `${site.url}/ok`);
    const stranger = await server.createAccount('health-stranger');
    const read = await server.api(`/api/v1/links/${link.id}`, { key: stranger.key });
    expect((await check(stranger, link.id)).status).toBe(read.status);
    expect(read.status).toBe(403);
    const bad = await server.api('/api/v1/links?health=sick', { key: owner.key });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_request', field: 'health' } });
  });
});

describe.runIf(amqpTestUrl() !== null)('link.health_changed on RabbitMQ', () => {
  let brokered: TestServer;
  let consumer: ChannelModel;
  const messages: { key: string; body: { type: string; account: string | null; data: any } }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any

  beforeAll(async () => {
    const broker = amqpTestUrl() ?? '';
    consumer = await connect(broker);
    const channel = await consumer.createChannel();
    await channel.assertExchange('shortener.events', 'topic', { durable: true });
    const { queue } = await channel.assertQueue('', { exclusive: true });
    await channel.bindQueue(queue, 'shortener.events', 'link.health_changed');
    await channel.consume(
      queue,
      (m) => void (m && messages.push({ key: m.fields.routingKey, body: JSON.parse(m.content.toString()) })),
      { noAck: true },
    );
    brokered = await startTestServer({
      AMQP_URL: broker,
      ALLOW_PRIVATE_HOSTS: 'true',
      HEALTH_HOST_GAP_MS: '100',
    });
  });

  afterAll(async () => {
    await brokered?.close();
    await consumer?.close();
  });

  it("publishes an anonymous link's change, checked with its edit token", async () => {
    site.answer['/anon-gone'] = 410;
    const link = await jsonOf(
      await brokered.api('/api/v1/links', { json: { url: `${site.url}/anon-gone` } }),
      201,
    );
    for (let i = 0; i < 3; i += 1) {
      const checked = await brokered.api(`/api/v1/links/${link.id}/check`, {
        method: 'POST',
        token: link.edit_token,
      });
      expect(checked.status).toBe(200);
    }
    await expect
      .poll(() => messages.find((m) => m.body.data.link.id === link.id), { timeout: 10_000 })
      .toMatchObject({
        key: 'link.health_changed',
        body: { type: 'link.health_changed', account: null, data: { from: 'unknown', to: 'broken' } },
      });
    // without the token, nobody may ask: as reading the link is refused
    const read = await brokered.api(`/api/v1/links/${link.id}`);
    expect(read.status).toBe(403);
    expect((await brokered.api(`/api/v1/links/${link.id}/check`, { method: 'POST' })).status).toBe(
      read.status,
    );
  });
});

describe('background checks (decisions §23)', () => {
  let polite: TestServer;
  let host: Site;

  beforeAll(async () => {
    host = await startSite();
    polite = await startTestServer({
      ALLOW_PRIVATE_HOSTS: 'true',
      HEALTH_CHECKS: 'on',
      HEALTH_HOST_GAP_MS: '150',
    });
  });

  afterAll(async () => {
    await polite.close();
    await host.close();
  });

  it('check 50 links on one host one request at a time, never closer than the gap', async () => {
    const account = await polite.createAccount('polite');
    const urls = Array.from({ length: 50 }, (_, i) => `${host.url}/page-${i}`);
    const bulk = await polite.api('/api/v1/bulk', { key: account.key, json: { urls } });
    expect(bulk.status).toBe(200);
    await eventually(async () => {
      const listed = await jsonOf(
        await polite.api('/api/v1/links?health=ok&limit=200', { key: account.key }),
      );
      expect(listed.links).toHaveLength(50);
    }, 60_000);
    const requests = host.seen.filter((s) => s.path.startsWith('/page-'));
    expect(requests).toHaveLength(50);
    expect(requests.every((r) => r.method === 'HEAD')).toBe(true);
    const sorted = [...requests].sort((a, b) => a.at - b.at);
    for (let i = 1; i < sorted.length; i += 1) {
      // the next request starts no sooner than the gap after the last answer ended (1 ms of clock slack)
      expect(sorted[i]!.at - sorted[i - 1]!.ended).toBeGreaterThanOrEqual(149);
    }
  }, 90_000);
});
