import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, jsonOf, startTestServer } from './harness.js';
import type { Json, TestAccount, TestServer } from './harness.js';

// Idempotency-Key on POST /api/v1/links and /api/v1/bulk (issue 38): a retry of a creation whose answer
// was lost makes nothing more and answers as the first did. Runs on SQLite and, in CI, on PostgreSQL.

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_ANON_HOUR: '10000', RATE_LIMIT_ANON_DAY: '10000' });
  alice = await server.createAccount('idem-alice');
});
afterAll(() => server.close());

const key = () => crypto.randomUUID();
const create = (json: Json, idempotencyKey?: string, apiKey?: string) =>
  server.api('/api/v1/links', {
    json,
    ...(apiKey === undefined ? {} : { key: apiKey }),
    ...(idempotencyKey === undefined ? {} : { headers: { 'idempotency-key': idempotencyKey } }),
  });
const countLinks = async (apiKey: string) =>
  ((await jsonOf(await server.api('/api/v1/links?limit=100', { key: apiKey }))).links as Json[]).length;

describe('Idempotency-Key', () => {
  it('answers a retry of an anonymous creation as the first, edit token included, and makes one link', async () => {
    const k = key();
    const body = { url: 'https://example.com/idem', title: 'once' };
    const first = await jsonOf(await create(body, k), 201);
    const again = await jsonOf(await create(body, k), 201);
    expect(again).toStrictEqual(first);
    expect(first.edit_token).toMatch(/^et_/);
    // the token works: it is the link's own
    const read = await server.api(`/api/v1/links/${first.id}`, { token: first.edit_token });
    expect(read.status).toBe(200);
    // without the key, the same body makes another link
    const other = await jsonOf(await create(body), 201);
    expect(other.id).not.toBe(first.id);
  });

  it('makes one link of fifty concurrent requests with one key, all answered alike', async () => {
    const k = key();
    const before = await countLinks(alice.key);
    const body = { url: 'https://example.com/concurrent' };
    const answers = await Promise.all(Array.from({ length: 50 }, () => create(body, k, alice.key)));
    expect(answers.map((a) => a.status)).toStrictEqual(Array(50).fill(201));
    const ids = new Set(await Promise.all(answers.map(async (a) => ((await a.json()) as Json).id)));
    expect(ids.size).toBe(1);
    expect(await countLinks(alice.key)).toBe(before + 1);
  });

  it('refuses the key with another body, and a key that is too short, naming the header', async () => {
    const k = key();
    await jsonOf(await create({ url: 'https://example.com/a' }, k), 201);
    const other = await expectError(
      await create({ url: 'https://example.com/b' }, k),
      400,
      'invalid_request',
    );
    expect(other.field).toBe('Idempotency-Key');
    const short = await expectError(
      await create({ url: 'https://example.com/a' }, 'short'),
      400,
      'invalid_request',
    );
    expect(short.field).toBe('Idempotency-Key');
  });

  it('keeps the keys of accounts apart: one account’s key makes its own link for another', async () => {
    const bob = await server.createAccount('idem-bob');
    const k = key();
    const body = { url: 'https://example.com/scoped' };
    const forAlice = await jsonOf(await create(body, k, alice.key), 201);
    const forBob = await jsonOf(await create(body, k, bob.key), 201);
    expect(forBob.id).not.toBe(forAlice.id);
  });

  it('answers a retried bulk creation as the first, with one link per URL', async () => {
    const k = key();
    const json = { urls: ['https://example.com/b1', 'https://example.com/b2'] };
    const send = () =>
      server.api('/api/v1/bulk', { json, key: alice.key, headers: { 'idempotency-key': k } });
    const before = await countLinks(alice.key);
    const first = await jsonOf(await send());
    const again = await jsonOf(await send());
    expect(again).toStrictEqual(first);
    expect(await countLinks(alice.key)).toBe(before + 2);
  });

  it.runIf(process.env.SHORTENER_HTTP_STORE !== 'postgres')('stores only hashes of the key', async () => {
    const k = `visible-key-${key()}`;
    await jsonOf(await create({ url: 'https://example.com/hashed' }, k), 201);
    const files = [server.dbPath, `${server.dbPath}-wal`].filter((path) => existsSync(path));
    expect(files.length).toBeGreaterThan(0);
    for (const path of files) expect(readFileSync(path).includes(k)).toBe(false);
  });
});
