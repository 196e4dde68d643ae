import { createEventDispatcher } from '@shortener/core';
import type { WebhookSender } from '@shortener/core';
import { aLink, anAccount, aServiceConfig, aWebhook } from '@shortener/testkit';
import { describe, expect, it } from 'vitest';
import { DATABASE_URL, freshSchemaName, useFreshSchemas } from './fresh-schema.js';

// Decisions §16 on PostgreSQL: every node dispatches, and each delivery is held by one node at a time
// (FOR UPDATE SKIP LOCKED): three nodes (three pools on one schema) deliver 1,000 events, none twice in
// one attempt and none lost.

const config = aServiceConfig({ shortDomains: [{ origin: 'https://s.example', host: 's.example' }] });

describe.runIf(DATABASE_URL !== null)('PostgreSQL events on three nodes', () => {
  const open = useFreshSchemas();

  it('delivers 1,000 events once each, whichever node takes them', async () => {
    const schema = freshSchemaName();
    const nodes = [await open(schema), await open(schema), await open(schema)];
    const [first] = nodes;
    const account = anAccount();
    await first!.accounts.createAccount(account);
    await first!.events.createWebhook(aWebhook(account.id, { events: ['link.created'] }));
    const links = Array.from({ length: 1000 }, () => aLink({ accountId: account.id }));
    for (let i = 0; i < links.length; i += 100) await first!.links.insertMany(links.slice(i, i + 100));

    const received: { node: number; id: string }[] = [];
    const dispatchers = nodes.map((stores, node) => {
      const sender: WebhookSender = {
        send: async (_webhook, message) => {
          received.push({ node, id: message.id });
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
          return { ok: true, status: 200, excerpt: null };
        },
      };
      return createEventDispatcher({
        events: stores.events,
        sender,
        clock: { now: Date.now },
        config,
        batch: 50,
      });
    });
    // a round starts its sends and the next waits for them; a node whose round found nothing (the
    // webhook at its cap on the others) waits a little, until nothing is left
    const drain = async (index: number) => {
      const dispatcher = dispatchers[index]!;
      for (;;) {
        const started = await dispatcher.tick();
        await dispatcher.idle();
        if (started > 0) continue;
        const left = await first!.events.backlog();
        if (left.events + left.deliveries === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    };
    await Promise.all(nodes.map((_, index) => drain(index)));

    const ids = received.map((r) => r.id);
    expect(ids).toHaveLength(1000);
    expect(new Set(ids).size).toBe(1000);
    expect(await first!.events.backlog()).toEqual({ events: 0, deliveries: 0, windows: 0 });
    await Promise.all(nodes.map((stores) => stores.close()));
  }, 60_000);
});
