import { EVENT_TYPES } from '@shortener/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitedBrowser } from './browser-session.js';
import { expectError, jsonOf, startTestServer } from './harness.js';
import type { TestAccount, TestServer } from './harness.js';
import { movedClock } from './file-server.js';
import { startReceiver } from '../../../app/test/webhook-receiver.js';
import type { Receiver } from '../../../app/test/webhook-receiver.js';

// Decisions §16: webhooks of an account, signed as Standard Webhooks, fed from the outbox. The
// receiver is a real HTTP server on a loopback port (hence WEBHOOK_ALLOW_PRIVATE) verifying every
// signature with the `standardwebhooks` package; the server's clock is moved instead of waiting.

let server: TestServer;
let receiver: Receiver;
let alice: TestAccount;
let bob: TestAccount;
const clock = movedClock();

beforeAll(async () => {
  server = await startTestServer(
    { WEBHOOK_ALLOW_PRIVATE: 'true', METRICS: 'true', VISIT_EVENT_SECONDS: '1' },
    { clock },
  );
  receiver = await startReceiver();
  alice = await server.createAccount('alice');
  bob = await server.createAccount('bob');
});

afterAll(async () => {
  await server.close();
  await receiver.close();
});

const stateOf = async (id: string) => {
  const listed = await jsonOf(await server.api('/api/v1/webhooks', { key: alice.key }));
  return listed.webhooks.find((w: { id: string }) => w.id === id);
};

const addWebhook = async (account: TestAccount, url: string, events: readonly string[] = EVENT_TYPES) =>
  jsonOf(await server.api('/api/v1/webhooks', { key: account.key, json: { url, events } }), 201);

describe('/api/v1/webhooks (decisions §16)', () => {
  it('adds a webhook with its secret shown once, lists it without, and removes it', async () => {
    const created = await addWebhook(alice, 'https://hooks.example/in', ['link.created']);
    expect(Object.keys(created).sort()).toEqual(['created_at', 'events', 'id', 'secret', 'url']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    const listed = await jsonOf(await server.api('/api/v1/webhooks', { key: alice.key }));
    expect(listed.webhooks).toEqual([
      expect.objectContaining({
        id: created.id,
        state: 'active',
        last_delivery: null,
        events: ['link.created'],
      }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const other = await jsonOf(await server.api('/api/v1/webhooks', { key: bob.key }));
    expect(other.webhooks).toEqual([]);
    await expectError(
      await server.api(`/api/v1/webhooks/${created.id}`, { method: 'DELETE', key: bob.key }),
      404,
      'not_found',
    );
    expect(
      (await server.api(`/api/v1/webhooks/${created.id}`, { method: 'DELETE', key: alice.key })).status,
    ).toBe(204);
    await expectError(await server.api('/api/v1/webhooks'), 401, 'unauthorized');
  });

  it('refuses destinations that are no public http(s) URL', async () => {
    const strict = await startTestServer();
    try {
      const carol = await strict.createAccount('carol');
      const add = (url: string) =>
        strict.api('/api/v1/webhooks', { key: carol.key, json: { url, events: EVENT_TYPES } });
      await expectError(await add('http://127.0.0.1:9/hook'), 400, 'private_host');
      await expectError(await add('http://[::1]/hook'), 400, 'private_host');
      await expectError(await add('ftp://hooks.example/'), 400, 'unsupported_scheme');
      await expectError(
        await strict.api('/api/v1/webhooks', {
          key: carol.key,
          json: { url: 'https://a.example', events: ['nope'] },
        }),
        400,
        'invalid_request',
      );
    } finally {
      await strict.close();
    }
  });
});

describe('/account/settings (no script: plain form posts)', () => {
  it('adds a webhook showing its secret once, sends a test, lists deliveries, and removes it', async () => {
    const browser = await invitedBrowser(server, 'dora', 'dora password');
    const added = await browser.post('/account/settings/webhooks', {
      url: receiver.url,
      'link.created': 'on',
    });
    expect(added.status).toBe(201);
    const secret =
      /<code id="new-webhook-secret" class="secret">(whsec_[^<]+)<\/code>/.exec(await added.text())?.[1] ??
      '';
    expect(secret).toMatch(/^whsec_/);
    receiver.secret = secret;
    const page = await (await browser.send('/account/settings')).text();
    expect(page).not.toContain(secret);
    const id = /data-id="([^"]+)"/.exec(page)?.[1] ?? '';
    const tested = await browser.post(`/account/settings/webhooks/${id}/test`, {});
    expect(tested.status).toBe(200);
    expect(await tested.text()).toMatch(/Test sent to .*: 200\./);
    expect(receiver.received.at(-1)).toMatchObject({ verified: true, body: { type: 'ping' } });
    const listed = await (await browser.send('/account/settings')).text();
    expect(listed).toMatch(/<code>ping<\/code>\s*<span>attempt 1<\/span>\s*<strong>200<\/strong>/);
    // a failed delivery waits for its retry: the page shows the webhook's backlog (decisions §26)
    receiver.answers.push(500);
    const from = receiver.received.length;
    const made = await browser.send('/api/v1/links', { json: { url: 'https://example.com/backlog' } });
    expect(made.status).toBe(201);
    await receiver.next((r) => r.body.type === 'link.created', from);
    await expect
      .poll(async () =>
        (await (await browser.send('/account/settings')).text()).includes('Waiting to be delivered: 1'),
      )
      .toBe(true);
    const removed = await browser.post(`/account/settings/webhooks/${id}/delete`, {});
    expect(removed.status).toBe(303);
    expect(removed.headers.get('location')).toBe('/account/settings?done=webhook-removed');
    const after = await (await browser.send('/account/settings?done=webhook-removed')).text();
    expect(after).toContain('Webhook removed.');
    expect(after).not.toContain(`data-id="${id}"`);
    expect((await browser.post(`/account/settings/webhooks/${id}/delete`, {})).status).toBe(404);

    // a lasting feed of the account's links: a session signed in over 10 minutes ago must confirm first
    clock.offset += 11 * 60_000;
    const late = { url: receiver.url, 'link.created': 'on' };
    expect((await browser.post('/account/settings/webhooks', late)).status).toBe(403);
    const byApi = await browser.send('/api/v1/webhooks', {
      json: { url: receiver.url, events: ['link.created'] },
    });
    await expectError(byApi, 403, 'forbidden');
    clock.offset -= 11 * 60_000; // back: receivers refuse signatures more than 5 minutes off their clock
  });
});

describe('shortener webhooks (the operator)', () => {
  it('adds, lists and removes an account’s webhooks on the database', async () => {
    const added = await server.cli(
      'webhooks',
      'add',
      'bob',
      'https://hooks.example/ops',
      '--events',
      'link.deleted',
    );
    expect(added).toMatchObject({ url: 'https://hooks.example/ops', events: ['link.deleted'] });
    expect(added.secret).toMatch(/^whsec_/);
    const listed = await server.cli('webhooks', 'list', 'bob');
    expect(listed).toEqual([
      expect.objectContaining({ id: added.id, state: 'active', account_id: bob.accountId }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(added.secret);
    const api = await jsonOf(await server.api('/api/v1/webhooks', { key: bob.key }));
    expect(api.webhooks.map((w: { id: string }) => w.id)).toEqual([added.id]);
    expect(await server.cli('webhooks', 'remove', added.id)).toEqual({ id: added.id, removed: true });
    expect(await server.cli('webhooks', 'list', 'bob')).toEqual([]);
    await expect(server.cli('webhooks', 'add', 'bob', 'http://10.0.0.1/')).rejects.toThrow(/private_host/);
  });
});

describe('delivery', () => {
  it("delivers each change of the account's links, signed, and never another account's", async () => {
    const hook = await addWebhook(alice, receiver.url);
    receiver.secret = hook.secret;
    const bobs = await startReceiver();
    bobs.secret = (await addWebhook(bob, bobs.url)).secret;
    const from = receiver.received.length;
    const link = await jsonOf(
      await server.api('/api/v1/links', {
        key: alice.key,
        json: { url: 'https://example.com/a', alias: 'hooked' },
      }),
      201,
    );
    const created = await receiver.next((r) => r.body.type === 'link.created', from);
    expect(created.verified).toBe(true);
    expect(created.body.data).toMatchObject({ id: link.id, short_url: link.short_url, url: link.url });
    expect(Date.parse(created.body.timestamp)).toBeGreaterThan(0);

    await jsonOf(
      await server.api(`/api/v1/links/${link.id}`, {
        method: 'PATCH',
        key: alice.key,
        json: { title: 'Hooked' },
      }),
    );
    const updated = await receiver.next((r) => r.body.type === 'link.updated', from);
    expect(updated.body.data.title).toBe('Hooked');

    expect(
      (await server.visit(link.short_url, { headers: { 'user-agent': 'Mozilla/5.0 Firefox/140.0' } })).status,
    ).toBe(302);
    const visited = await receiver.next((r) => r.body.type === 'link.visited', from);
    expect(visited.body.data).toMatchObject({
      link_id: link.id,
      short_url: link.short_url,
      visits: 1,
      humans: 1,
      bots: 0,
    });
    expect(visited.raw).not.toMatch(/127\.0\.0\.1|Mozilla/);

    expect((await server.api(`/api/v1/links/${link.id}`, { method: 'DELETE', key: alice.key })).status).toBe(
      204,
    );
    const deleted = await receiver.next((r) => r.body.type === 'link.deleted', from);
    expect(deleted.body.data.id).toBe(link.id);
    expect(receiver.received.slice(from).every((r) => r.verified)).toBe(true);
    expect(bobs.received).toEqual([]);
    await bobs.close();
    await server.api(`/api/v1/webhooks/${hook.id}`, { method: 'DELETE', key: alice.key });
  });

  it('sends the changes made after a webhook was added, none from before it (issue 29)', async () => {
    const erin = await server.createAccount('erin');
    const create = async (alias: string) =>
      jsonOf(
        await server.api('/api/v1/links', {
          key: erin.key,
          json: { url: `https://example.com/${alias}`, alias },
        }),
        201,
      );
    const before = await create('before-hook');
    const erins = await startReceiver();
    erins.secret = (await addWebhook(erin, erins.url)).secret;
    const after = await create('after-hook');
    await server.api(`/api/v1/links/${before.id}`, { method: 'DELETE', key: erin.key });
    await erins.next((r) => r.body.type === 'link.deleted');
    await new Promise((resolve) => setTimeout(resolve, 300)); // a dispatcher round more
    expect(erins.received.map((r) => `${r.body.type} ${r.body.data.id}`).sort()).toEqual([
      `link.created ${after.id}`,
      `link.deleted ${before.id}`,
    ]);
    await erins.close();
  });

  it('sends a signed ping on test, and records it', async () => {
    const hook = await addWebhook(alice, receiver.url, ['link.created']);
    receiver.secret = hook.secret;
    const answer = await jsonOf(
      await server.api(`/api/v1/webhooks/${hook.id}/test`, { method: 'POST', key: alice.key }),
    );
    expect(answer).toEqual({ delivered: true, status: 200, response: 'thanks' });
    expect(receiver.received.at(-1)).toMatchObject({ verified: true, body: { type: 'ping' } });
    const listed = await jsonOf(await server.api('/api/v1/webhooks', { key: alice.key }));
    const mine = listed.webhooks.find((w: { id: string }) => w.id === hook.id);
    expect(mine.last_delivery).toMatchObject({ event: 'ping', attempt: 1, ok: true, status: 200 });
    await server.api(`/api/v1/webhooks/${hook.id}`, { method: 'DELETE', key: alice.key });
  });

  it('retries a failed delivery on the schedule, with the same webhook-id, and disables an endpoint failing for 5 days', async () => {
    const hook = await addWebhook(alice, receiver.url, ['link.created']);
    receiver.secret = hook.secret;
    receiver.answers.push(500);
    const from = receiver.received.length;
    await jsonOf(
      await server.api('/api/v1/links', { key: alice.key, json: { url: 'https://example.com/r' } }),
      201,
    );
    const first = await receiver.next(() => true, from);
    await expect.poll(async () => (await stateOf(hook.id)).state).toBe('failing');
    await new Promise((resolve) => setTimeout(resolve, 600)); // a few rounds: nothing is due before 5 s
    expect(receiver.received.length).toBe(from + 1);
    // the retry waits in the store: the webhook's backlog and the metrics say so (decisions §26)
    expect((await stateOf(hook.id)).pending).toBe(1);
    const waiting = await (await server.api('/metrics')).text();
    const deliveries = /shortener_event_backlog\{kind="deliveries"\} (\d+)/.exec(waiting)?.[1];
    expect(Number(deliveries)).toBeGreaterThanOrEqual(1);
    clock.offset += 5_000;
    const second = await receiver.next(() => true, from + 1);
    expect(second.id).toBe(first.id);
    // recorded once the answer is in: the receiver may see the request first
    await expect.poll(async () => (await stateOf(hook.id)).state).toBe('active');
    expect((await stateOf(hook.id)).last_delivery).toMatchObject({ attempt: 2, ok: true, status: 200 });

    // failing from now on: its retry, 5 days after the first failure, disables the endpoint
    receiver.answers.push(500, 500);
    await jsonOf(
      await server.api('/api/v1/links', { key: alice.key, json: { url: 'https://example.com/s' } }),
      201,
    );
    const s = await receiver.next(() => true, from + 2);
    await expect.poll(async () => (await stateOf(hook.id)).last_delivery?.event_id).toBe(s.id); // recorded
    clock.offset += 5 * 24 * 3600e3;
    await receiver.next(() => true, from + 3);
    await expect.poll(async () => (await stateOf(hook.id)).state).toBe('disabled');

    const metrics = await (await server.api('/metrics')).text();
    const count = (outcome: string) =>
      Number(
        new RegExp(`shortener_webhook_deliveries_total\\{outcome="${outcome}"\\} (\\d+)`).exec(metrics)?.[1],
      );
    expect(count('delivered')).toBeGreaterThanOrEqual(5);
    expect(count('failed')).toBe(4); // three here, one on the settings page's backlog above
  });
});
