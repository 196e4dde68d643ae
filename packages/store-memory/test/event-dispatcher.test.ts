import {
  createEventDispatcher,
  DISABLE_AFTER_MS,
  HOLD_MS,
  RECORDS_PER_TURN,
  RETRY_DELAYS_MS,
  SEND_COST_MS,
  SENDS_PER_WEBHOOK,
} from '@shortener/core';
import type { EventDispatcher, EventPublisher, SendResult, WebhookSender } from '@shortener/core';
import { aLink, anAccount, aServiceConfig, aWebhook, createFakeClock } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { createMemoryStores } from '../src/index.js';

// The dispatcher of core on the memory stores, with the fake clock: the §16 schedule without waiting.

const config = aServiceConfig({ shortDomains: [{ origin: 'https://s.example', host: 's.example' }] });

/** A sender answering from `answers` (then 200), recording when each attempt came. */
function scriptedSender(clock: { now(): number }, answers: number[]) {
  const attempts: { at: number; id: string; body: string }[] = [];
  const sender: WebhookSender = {
    send: async (_webhook, message): Promise<SendResult> => {
      attempts.push({ at: clock.now(), id: message.id, body: message.body });
      const status = answers.shift() ?? 200;
      return { ok: status < 300, status, excerpt: null };
    },
  };
  return { sender, attempts };
}

/** A round, and every send it started. */
async function roundOf(dispatcher: EventDispatcher): Promise<void> {
  await dispatcher.tick();
  await dispatcher.idle();
}

async function setUp(answers: number[], publisher?: EventPublisher) {
  const stores = createMemoryStores();
  const clock = createFakeClock();
  const account = anAccount();
  await stores.accounts.createAccount(account);
  const webhook = aWebhook(account.id, { events: ['link.created'] });
  await stores.events.createWebhook(webhook);
  const { sender, attempts } = scriptedSender(clock, answers);
  const dispatcher = createEventDispatcher({
    events: stores.events,
    sender,
    clock,
    config,
    ...(publisher ? { publisher } : {}),
  });
  await stores.links.insert(aLink({ accountId: account.id, domain: 's.example', slug: 'abc' }));
  return { stores, clock, dispatcher, attempts, webhook };
}

describe('the event dispatcher', () => {
  it('sends the link object as { type, timestamp, data }', async () => {
    const { dispatcher, attempts } = await setUp([]);
    await roundOf(dispatcher);
    const body = JSON.parse(attempts[0]!.body);
    expect(body).toMatchObject({
      type: 'link.created',
      data: { slug: 'abc', short_url: 'https://s.example/abc' },
    });
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
  });

  it('retries after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then gives up', async () => {
    const { clock, dispatcher, attempts, stores } = await setUp(Array(20).fill(500));
    const start = clock.now();
    await roundOf(dispatcher);
    for (const delay of RETRY_DELAYS_MS) {
      clock.advance(delay - 1);
      await roundOf(dispatcher);
      const before = attempts.length;
      clock.advance(1);
      await roundOf(dispatcher);
      expect(attempts.length).toBe(before + 1);
    }
    expect(attempts.map((a) => a.at - start)).toEqual(
      RETRY_DELAYS_MS.reduce<number[]>((at, delay) => [...at, at.at(-1)! + delay], [0]),
    );
    expect(new Set(attempts.map((a) => a.id)).size).toBe(1);
    expect(dispatcher.counts).toMatchObject({ failed: 7, givenUp: 1, delivered: 0 });
    expect(await stores.events.backlog()).toEqual({ events: 0, deliveries: 0, windows: 0 });
  });

  it('delivers on the retry that succeeds, and records each attempt', async () => {
    const { clock, dispatcher, attempts, stores, webhook } = await setUp([500]);
    await roundOf(dispatcher);
    clock.advance(5_000);
    await roundOf(dispatcher);
    expect(attempts).toHaveLength(2);
    const [listed] = await stores.events.listWebhooks(webhook.accountId);
    expect(listed?.attempts.map((a) => [a.attempt, a.status])).toEqual([
      [2, 200],
      [1, 500],
    ]);
    expect(listed?.failingSince).toBeNull();
  });

  it('disables an endpoint failing for 5 days, and sends it nothing more', async () => {
    const { clock, dispatcher, attempts, stores, webhook } = await setUp(Array(20).fill(500));
    await roundOf(dispatcher);
    clock.advance(DISABLE_AFTER_MS);
    await stores.links.insert(aLink({ accountId: webhook.accountId }));
    await roundOf(dispatcher);
    const [listed] = await stores.events.listWebhooks(webhook.accountId);
    expect(listed?.disabledAt).toBe(clock.now());
    const sent = attempts.length;
    await stores.links.insert(aLink({ accountId: webhook.accountId }));
    clock.advance(RETRY_DELAYS_MS[0]);
    await roundOf(dispatcher);
    expect(attempts.length).toBe(sent);
  });

  it('keeps broker events while the broker fails, and publishes each once it confirms', async () => {
    const published: string[] = [];
    let up = false;
    const publisher: EventPublisher = {
      publish: async ({ id }) => {
        if (!up) throw new Error('away');
        published.push(id);
      },
    };
    const { clock, dispatcher, stores } = await setUp([], publisher);
    await roundOf(dispatcher);
    clock.advance(3600e3);
    await roundOf(dispatcher);
    expect(published).toEqual([]);
    expect((await stores.events.backlog()).deliveries).toBe(1);
    up = true;
    clock.advance(5_000);
    await roundOf(dispatcher);
    await roundOf(dispatcher);
    expect(published).toHaveLength(1);
    expect(await stores.events.backlog()).toEqual({ events: 0, deliveries: 0, windows: 0 });
  });

  it('starts the sends of a round without waiting: a hanging endpoint holds up no other', async () => {
    const stores = createMemoryStores();
    const clock = createFakeClock();
    const account = anAccount();
    await stores.accounts.createAccount(account);
    const hanging = aWebhook(account.id, { url: 'https://hang.example/', events: ['link.created'] });
    const healthy = aWebhook(account.id, { url: 'https://ok.example/', events: ['link.created'] });
    await stores.events.createWebhook(hanging);
    await stores.events.createWebhook(healthy);
    const release: (() => void)[] = [];
    const delivered: string[] = [];
    const sender: WebhookSender = {
      send: (webhook, message) => {
        if (webhook.url === healthy.url) delivered.push(message.id);
        const answer = { ok: true, status: 200, excerpt: null };
        if (webhook.url === healthy.url) return Promise.resolve(answer);
        return new Promise((resolve) => release.push(() => resolve(answer)));
      },
    };
    const dispatcher = createEventDispatcher({ events: stores.events, sender, clock, config });
    for (let i = 0; i < 20; i++) await stores.links.insert(aLink({ accountId: account.id }));
    for (let round = 0; round < 3; round++) {
      await dispatcher.tick();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(delivered).toHaveLength(20);
    expect(release).toHaveLength(SENDS_PER_WEBHOOK.healthy); // the hanging one: at its cap, no more
    let idle = false; // what the runtime's stop() waits for: the sends in flight
    const idled = dispatcher.idle().then(() => (idle = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(false);
    for (const answer of release.splice(0)) answer();
    await idled;
    await dispatcher.tick(); // room again: the next ones of its backlog
    expect(release).toHaveLength(SENDS_PER_WEBHOOK.healthy);
    for (const answer of release.splice(0)) answer();
    await dispatcher.idle();
  });

  it.each(['broker', 'webhook'])(
    'sends a %s delivery once when settling it failed: claimed again, it is settled, not sent again',
    async (to) => {
      const published: string[] = [];
      const publisher: EventPublisher = { publish: async ({ id }) => void published.push(id) };
      const { clock, stores, webhook } = await setUp([]); // one link.created in the outbox
      if (to === 'broker') await stores.events.deleteWebhook(webhook.id);
      const { sender, attempts } = scriptedSender(clock, []);
      // the store goes away between the send and its settling (once)
      let away = true;
      const events = {
        ...stores.events,
        settle: async (id: string, nextAt: number | null) => {
          if (away) throw new Error('the database is away');
          return stores.events.settle(id, nextAt);
        },
      };
      const errors: unknown[] = [];
      const dispatcher = createEventDispatcher({
        events,
        sender,
        clock,
        config,
        onError: (error) => errors.push(error),
        ...(to === 'broker' ? { publisher } : {}),
      });
      await roundOf(dispatcher);
      expect(errors).toHaveLength(1);
      away = false;
      clock.advance(HOLD_MS);
      await roundOf(dispatcher);
      expect(await stores.events.backlog()).toEqual({ events: 0, deliveries: 0, windows: 0 });
      expect(to === 'broker' ? published : attempts).toHaveLength(1);
    },
  );
});

describe('recording the attempts of sends that fail together (issue 59)', () => {
  it('records them in paced turns of RECORDS_PER_TURN, never all in one go, and an answer at once', async () => {
    const stores = createMemoryStores();
    const clock = createFakeClock();
    const account = anAccount();
    await stores.accounts.createAccount(account);
    const failing = Array.from({ length: 5 }, (_, i) =>
      aWebhook(account.id, { url: `https://hang${i}.example/`, events: ['link.created'] }),
    );
    const healthy = aWebhook(account.id, { url: 'https://ok.example/', events: ['link.created'] });
    for (const webhook of [...failing, healthy]) await stores.events.createWebhook(webhook);
    const release: (() => void)[] = [];
    const sender: WebhookSender = {
      send: (webhook) =>
        new Promise((resolve) => {
          const ok = webhook.url === healthy.url;
          release.push(() => resolve({ ok, status: ok ? 200 : 504, excerpt: null }));
        }),
    };
    // a pace that holds each turn until the test lets it go, noting how many records it counted
    const turns: number[] = [];
    const paused: (() => void)[] = [];
    const pace = (laterMs = 0) => {
      turns.push(laterMs / SEND_COST_MS);
      return new Promise<void>((resolve) => paused.push(resolve));
    };
    const gather = () => new Promise<void>((resolve) => setImmediate(resolve));
    const recordTurns = { pace, gather };
    const dispatcher = createEventDispatcher({ events: stores.events, sender, clock, config, recordTurns });
    for (let i = 0; i < 10; i++) await stores.links.insert(aLink({ accountId: account.id }));
    await dispatcher.tick();
    expect(release).toHaveLength(6 * SENDS_PER_WEBHOOK.healthy); // 40 sends to fail, 8 to be answered
    const attempts = async (ok: boolean) =>
      (await stores.events.listWebhooks(account.id)).flatMap((w) => w.attempts.filter((a) => a.ok === ok));
    for (const answer of release.splice(0)) answer(); // every endpoint times out at once, one answers
    const settle = async () => {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    await settle();
    expect(turns).toEqual([RECORDS_PER_TURN]);
    expect(await attempts(false)).toHaveLength(RECORDS_PER_TURN);
    expect(await attempts(true)).toHaveLength(SENDS_PER_WEBHOOK.healthy); // never behind the failures
    paused.shift()!();
    await settle();
    expect(await attempts(false)).toHaveLength(2 * RECORDS_PER_TURN);
    expect(turns).toEqual([RECORDS_PER_TURN, RECORDS_PER_TURN]);
    paused.shift()!();
    await dispatcher.idle();
    expect(await attempts(false)).toHaveLength(40);
  });
});
