import { EVENT_TYPES } from '@shortener/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, inviteUrl, sessionCookieOf } from './browser-session.js';
import { eventually, jsonOf, startTestServer } from './harness.js';
import type { TestAccount, TestServer } from './harness.js';
import { movedClock } from './file-server.js';
import { startReceiver } from '../../../app/test/webhook-receiver.js';
import type { Receiver } from '../../../app/test/webhook-receiver.js';

// Issue 38: webhooks follow their account. An operator's reset link removes them (they may be a thief's
// feed of the account's links), and a disabled account's webhooks receive nothing, not even what was
// due to them before it was disabled.

let server: TestServer;
let receiver: Receiver;
let control: Receiver;
const clock = movedClock();

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE: 'true', VISIT_EVENT_SECONDS: '1' }, { clock });
  receiver = await startReceiver();
  control = await startReceiver();
});

afterAll(async () => {
  await server.close();
  await receiver.close();
  await control.close();
});

const addWebhook = async (account: TestAccount, url: string) =>
  jsonOf(await server.api('/api/v1/webhooks', { key: account.key, json: { url, events: EVENT_TYPES } }), 201);
const createLink = async (account: TestAccount, alias: string) =>
  jsonOf(
    await server.api('/api/v1/links', {
      key: account.key,
      json: { url: `https://example.com/${alias}`, alias },
    }),
    201,
  );

describe('webhooks and their account (issue 38)', () => {
  it('removes the webhooks of an account whose reset link is used, as its pages say beforehand', async () => {
    const frank = await server.createAccount('frank');
    await addWebhook(frank, receiver.url);
    await addWebhook(frank, `${receiver.url}/second`);
    const browser = browserOf(server);
    const path = new URL(await inviteUrl(server, 'frank')).pathname;
    const page = await (await browser.send(path)).text();
    expect(page).toMatch(/id="invite-reset">[^<]*webhooks/);
    const used = await browser.post(path, { password: 'frank password' });
    expect(used.status).toBe(303);
    browser.cookie = sessionCookieOf(used);
    const listed = await jsonOf(await server.api('/api/v1/webhooks', { key: frank.key }));
    expect(listed.webhooks).toEqual([]);
    const settings = await (await browser.send('/account/settings')).text();
    expect(settings).toMatch(/id="webhooks-reset-note">[^<]*reset link[^<]*webhook/);
    const from = receiver.received.length;
    await createLink(frank, 'after-reset');
    await new Promise((resolve) => setTimeout(resolve, 600)); // a few dispatcher rounds
    expect(receiver.received.length).toBe(from);
  });

  it("sends a disabled account's webhooks nothing: no event after, none due from before", async () => {
    const gina = await server.createAccount('gina');
    const other = await server.createAccount('hank');
    receiver.secret = (await addWebhook(gina, receiver.url)).secret;
    control.secret = (await addWebhook(other, control.url)).secret;
    // one delivery left waiting for its retry (the endpoint answered 500), then the account is disabled
    receiver.answers.push(500);
    const from = receiver.received.length;
    const link = await createLink(gina, 'gina-link');
    await receiver.next((r) => r.body.type === 'link.created', from);
    await server.cli('accounts', 'disable', 'gina');
    // her link still redirects (a disabled account's links are the operator's to disable): visits are
    // written, and her link changed by the operator, while the retry falls due
    expect((await server.visit(link.short_url)).status).toBe(302);
    await server.cli('links', 'update', link.id, '--title', 'changed');
    clock.offset += 5_000;
    const otherLink = await createLink(other, 'hank-link');
    expect((await server.visit(otherLink.short_url)).status).toBe(302);
    await control.next((r) => r.body.type === 'link.visited');
    await new Promise((resolve) => setTimeout(resolve, 600)); // a few dispatcher rounds more
    expect(receiver.received.length).toBe(from + 1);
    clock.offset -= 5_000;
  });

  it('names the account in every body: a team’s links name the team (decisions §21)', async () => {
    const owner = await server.createAccount('tess');
    await jsonOf(await server.api('/api/v1/teams', { key: owner.key, json: { name: 'hookteam' } }), 201);
    const acting = { 'Shortener-Account': 'hookteam' };
    const own = await startReceiver();
    try {
      await jsonOf(
        await server.api('/api/v1/webhooks', {
          key: owner.key,
          headers: acting,
          json: { url: own.url, events: ['link.created'] },
        }),
        201,
      );
      const made = await jsonOf(
        await server.api('/api/v1/links', {
          key: owner.key,
          headers: acting,
          json: { url: 'https://example.com/team-hook' },
        }),
        201,
      );
      await eventually(async () => expect(own.received).toHaveLength(1));
      expect(own.received[0]?.body).toMatchObject({
        type: 'link.created',
        account: 'hookteam',
        data: { id: made.id, created_by: `key:${owner.key.slice(0, 8)}` },
      });
    } finally {
      await own.close();
    }
  });
});
