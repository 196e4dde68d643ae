import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf, invitedBrowser } from './browser-session.js';
import { expectError, jsonOf, startTestServer } from './harness.js';
import type { TestServer } from './harness.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

const KEY_FIELDS = [
  'created_at',
  'domains',
  'id',
  'last_used_at',
  'name',
  'prefix',
  'revoked_at',
  'role',
  'url_hosts',
];

describe('GET/POST/DELETE /api/v1/keys (decisions §10)', () => {
  it('creates a named key shown once, lists it without the key, and refuses it once revoked', async () => {
    const browser = await invitedBrowser(server, 'kate', 'kate password');
    const created = await jsonOf(await browser.send('/api/v1/keys', { json: { name: ' laptop ' } }), 201);
    expect(Object.keys(created).sort()).toEqual([...KEY_FIELDS, 'key'].sort());
    expect(created).toMatchObject({ name: 'laptop', last_used_at: null, revoked_at: null });
    expect(created.key).toMatch(/^shk_[0-9A-Za-z]{32}$/);
    expect(created.prefix).toBe(created.key.slice(0, 8));

    const listed = await jsonOf(await browser.send('/api/v1/keys'));
    expect(listed.keys).toHaveLength(1);
    expect(Object.keys(listed.keys[0]).sort()).toEqual(KEY_FIELDS);
    expect(JSON.stringify(listed)).not.toContain(created.key);

    expect((await server.api('/api/v1/links', { key: created.key })).status).toBe(200);
    const used = await jsonOf(await server.api('/api/v1/keys', { key: created.key }));
    expect(Date.parse(used.keys[0].last_used_at)).toBeGreaterThanOrEqual(Date.parse(created.created_at));

    const second = await jsonOf(
      await server.api('/api/v1/keys', { key: created.key, json: { name: 'ci' } }),
      201,
    );
    expect(
      (await server.api(`/api/v1/keys/${created.id}`, { method: 'DELETE', key: second.key })).status,
    ).toBe(204);
    await expectError(await server.api('/api/v1/links', { key: created.key }), 401, 'unauthorized');
    const after = await jsonOf(await browser.send('/api/v1/keys'));
    expect(after.keys.map((k: { revoked_at: string | null }) => k.revoked_at !== null)).toEqual([
      true,
      false,
    ]);
  });

  it("answers not_found for another account's key and for a revoked one", async () => {
    const mine = await invitedBrowser(server, 'liam', 'liam password');
    const theirs = await invitedBrowser(server, 'mona', 'mona password');
    const key = await jsonOf(await theirs.send('/api/v1/keys', { json: { name: 'phone' } }), 201);
    await expectError(await mine.send(`/api/v1/keys/${key.id}`, { method: 'DELETE' }), 404, 'not_found');
    expect((await server.api('/api/v1/links', { key: key.key })).status).toBe(200);
    expect((await theirs.send(`/api/v1/keys/${key.id}`, { method: 'DELETE' })).status).toBe(204);
    await expectError(await theirs.send(`/api/v1/keys/${key.id}`, { method: 'DELETE' }), 404, 'not_found');
  });

  it('needs a session or a key, a name, and a page of this site', async () => {
    await expectError(await server.api('/api/v1/keys'), 401, 'unauthorized');
    await expectError(await server.api('/api/v1/keys', { json: { name: 'x' } }), 401, 'unauthorized');
    const browser = await invitedBrowser(server, 'nina', 'nina password');
    await expectError(await browser.send('/api/v1/keys', { json: {} }), 400, 'invalid_request');
    await expectError(
      await browser.send('/api/v1/keys', { json: { name: 'x'.repeat(65) } }),
      400,
      'invalid_request',
    );
    await expectError(
      await browser.send('/api/v1/keys', { json: { name: 'x', extra: 1 } }),
      400,
      'invalid_request',
    );
    const forged = { origin: 'https://evil.example' };
    await expectError(
      await browser.send('/api/v1/keys', { json: { name: 'x' }, headers: forged }),
      403,
      'forbidden',
    );
    await expectError(await browserOf(server).send('/api/v1/keys'), 401, 'unauthorized');
  });
});
