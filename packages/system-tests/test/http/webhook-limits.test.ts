import { MAX_WEBHOOKS_PER_ACCOUNT, TEST_PINGS_PER_MINUTE } from '@shortener/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, jsonOf, startTestServer } from './harness.js';
import type { TestAccount, TestServer } from './harness.js';
import { startReceiver } from '../../../app/test/webhook-receiver.js';
import type { Receiver } from '../../../app/test/webhook-receiver.js';

// Issue 38: test pings are limited per account (each is a request to a URL the caller chose), and the
// webhook routes speak of webhooks, naming their limit.

let server: TestServer;
let receiver: Receiver;
let ivy: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  receiver = await startReceiver();
  ivy = await server.createAccount('ivy');
});

afterAll(async () => {
  await server.close();
  await receiver.close();
});

const addWebhook = (account: TestAccount, url: string) =>
  server.api('/api/v1/webhooks', { key: account.key, json: { url, events: ['link.created'] } });

describe('test pings (issue 38)', () => {
  it(`sends ${TEST_PINGS_PER_MINUTE} of 100 concurrent test pings of an account and refuses the rest`, async () => {
    const hook = await jsonOf(await addWebhook(ivy, receiver.url), 201);
    receiver.secret = hook.secret;
    const from = receiver.received.length;
    const test = () => server.api(`/api/v1/webhooks/${hook.id}/test`, { method: 'POST', key: ivy.key });
    const answers = await Promise.all(Array.from({ length: 100 }, test));
    const refused = answers.filter((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(TEST_PINGS_PER_MINUTE);
    expect(refused).toHaveLength(100 - TEST_PINGS_PER_MINUTE);
    await expectError(refused[0]!, 429, 'rate_limited');
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(receiver.received.length - from).toBe(TEST_PINGS_PER_MINUTE);
  });
});

describe('the words of the webhook routes (issue 38)', () => {
  it('says webhook, not link, when one does not exist or its URL is refused', async () => {
    const missing = await server.api('/api/v1/webhooks/0b9a6c1e-2f4d-4c8a-9e7b-5d3f1a2c4b6e', {
      method: 'DELETE',
      key: ivy.key,
    });
    const error = await expectError(missing, 404, 'not_found');
    expect(error.message).toMatch(/webhook/i);
    expect(error.message).not.toMatch(/link/i);
    const badScheme = await expectError(
      await addWebhook(ivy, 'ftp://hooks.example/'),
      400,
      'unsupported_scheme',
    );
    expect(badScheme.field).toBe('url');
    expect(badScheme.message).toMatch(/webhook/i);
    expect(badScheme.message).not.toMatch(/shortened/);
  });

  it(`refuses a webhook past the ${MAX_WEBHOOKS_PER_ACCOUNT}th naming the limit`, async () => {
    const jack = await server.createAccount('jack');
    for (let i = 0; i < MAX_WEBHOOKS_PER_ACCOUNT; i++)
      await jsonOf(await addWebhook(jack, `${receiver.url}/${i}`), 201);
    const error = await expectError(await addWebhook(jack, `${receiver.url}/last`), 400, 'too_many');
    expect(error.message).toContain(String(MAX_WEBHOOKS_PER_ACCOUNT));
  });

  it('says which setting allows a private address when the operator adds one', async () => {
    const add = server.cli('webhooks', 'add', 'ivy', 'http://10.0.0.1/hook');
    await expect(add).rejects.toThrow(/private_host/);
    await expect(add).rejects.toThrow(/WEBHOOK_ALLOW_PRIVATE=true/);
  });
});
