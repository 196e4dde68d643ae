import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RandomSource } from '@shortener/core';
import { generateSecret } from '@shortener/core';
import { createMemoryRateLimiter } from '@shortener/store-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createJsonLogger, loadConfig, startServer } from '@shortener/app';
import type { Services } from '@shortener/app';
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

/** `size` bytes of SHA-256 over `seed` and a counter: how a key's randomness was drawn before issue 60. */
function keyOnlyStream(seed: string, size: number): Buffer {
  const blocks = Array.from({ length: Math.ceil(size / 32) }, (_, counter) =>
    createHash('sha256').update(seed).update(String(counter)).digest(),
  );
  return Buffer.concat(blocks);
}

/** A random source reading `stream` from `offset` on. */
function bytesFrom(stream: Buffer, offset: number): RandomSource {
  let at = offset;
  return {
    bytes(size) {
      if (at + size > stream.length) throw new Error('the stream is too short');
      const out = Uint8Array.from(stream.subarray(at, at + size));
      at += size;
      return out;
    },
  };
}

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

  it('refuses the key with another body (422), and a key that is too short, naming the header', async () => {
    const k = key();
    await jsonOf(await create({ url: 'https://example.com/a' }, k), 201);
    const other = await expectError(
      await create({ url: 'https://example.com/b' }, k),
      422,
      'idempotency_key_reused',
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

  it('leaves the key free after a 4xx answer: the corrected request with it is made, then replayed', async () => {
    const k = key();
    await expectError(
      await create({ url: 'https://example.com/fix', alias: 'Not Valid!' }, k),
      400,
      'slug_invalid',
    );
    const fixed = { url: 'https://example.com/fix', alias: `fixed-${k.slice(0, 8)}` };
    const made = await jsonOf(await create(fixed, k), 201);
    expect(await jsonOf(await create(fixed, k), 201)).toStrictEqual(made);
  });

  it('takes the key quoted as a structured-field string or bare: the same key', async () => {
    const k = key();
    const body = { url: 'https://example.com/quoted' };
    const quoted = await jsonOf(await create(body, `"${k}"`), 201);
    expect(await jsonOf(await create(body, k), 201)).toStrictEqual(quoted);
    expect(await jsonOf(await create(body, ` "${k}" `), 201)).toStrictEqual(quoted);
    await expectError(
      await create({ url: 'https://example.com/other' }, `"${k}"`),
      422,
      'idempotency_key_reused',
    );
  });

  it('derives nothing of the answer from the key alone: the edit token is not the key’s SHA-256 stream', async () => {
    const k = key();
    const first = await jsonOf(await create({ url: 'https://example.com/secret' }, k), 201);
    // what the randomness was before (issue 60): SHA-256 of the key in counter mode, no secret
    const stream = keyOnlyStream(`idempotency-seed\nanonymous\n${k}`, 4096);
    const tokens = Array.from({ length: 1024 }, (_, offset) =>
      generateSecret(bytesFrom(stream, offset), 'et_'),
    );
    expect(first.edit_token).toMatch(/^et_[A-Za-z0-9]{32}$/);
    expect(tokens).not.toContain(first.edit_token);
  });

  it.runIf(process.env.SHORTENER_HTTP_STORE !== 'postgres')('stores only hashes of the key', async () => {
    const k = `visible-key-${key()}`;
    await jsonOf(await create({ url: 'https://example.com/hashed' }, k), 201);
    const files = [server.dbPath, `${server.dbPath}-wal`].filter((path) => existsSync(path));
    expect(files.length).toBeGreaterThan(0);
    for (const path of files) expect(readFileSync(path).includes(k)).toBe(false);
  });
});

describe('Idempotency-Key and the creation limit', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startTestServer({ RATE_LIMIT_ANON_HOUR: '2', RATE_LIMIT_ANON_DAY: '100' });
  });
  afterAll(() => limited.close());

  const send = (json: Json, k?: string) =>
    limited.api('/api/v1/links', { json, ...(k === undefined ? {} : { headers: { 'idempotency-key': k } }) });

  it('spends nothing on a retry answered from its key, and lets a 429 bind no key', async () => {
    const k = key();
    const body = { url: 'https://example.com/limited' };
    const first = await jsonOf(await send(body, k), 201);
    for (let i = 0; i < 3; i++) expect(await jsonOf(await send(body, k), 201)).toStrictEqual(first);
    await jsonOf(await send({ url: 'https://example.com/second' }), 201); // the hour's second unit
    const refused = key();
    await expectError(await send({ url: 'https://example.com/third' }, refused), 429, 'rate_limited');
    // the refused key is free: another body with it is limited again, not 422
    await expectError(await send({ url: 'https://example.com/fourth' }, refused), 429, 'rate_limited');
    expect(await jsonOf(await send(body, k), 201)).toStrictEqual(first);
  });
});

describe('Idempotency-Key while its first request runs', () => {
  // the creation limit answers after 300 ms, as a distant Redis might: the first request is still running
  // when the others arrive, on SQLite too (whose writes finish within one turn of the event loop)
  let slow: TestServer;
  beforeAll(async () => {
    const local = createMemoryRateLimiter();
    const rateLimiter: Services['rateLimiter'] = {
      hit: async (...args) => {
        await new Promise((resolve) => setTimeout(resolve, 300));
        return local.hit(...args);
      },
      refund: local.refund,
      hostTurns: null,
      check: async () => null,
      close: async () => {},
    };
    slow = await startTestServer({}, { rateLimiter });
  });
  afterAll(() => slow.close());

  const send = (json: Json, k: string) =>
    slow.api('/api/v1/links', { json, headers: { 'idempotency-key': k } });

  it('answers 409 to requests with a key while its first request runs, and makes one link', async () => {
    const k = key();
    const body = { url: 'https://example.com/concurrent' };
    const answers = await Promise.all(Array.from({ length: 50 }, () => send(body, k)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    expect(statuses).toContain(409);
    const made = answers.filter((a) => a.status === 201);
    const ids = new Set(await Promise.all(made.map(async (a) => ((await a.json()) as Json).id)));
    expect(ids.size).toBe(1);
    for (const busy of answers.filter((a) => a.status === 409)) {
      expect((await expectError(busy, 409, 'idempotency_key_in_use')).field).toBe('Idempotency-Key');
    }
    // once it has answered, a retry is answered as it was
    const retried = await jsonOf(await send(body, k), 201);
    expect(ids).toStrictEqual(new Set([retried.id]));
  });
});

describe('Idempotency-Key across nodes and restarts', () => {
  it('replays on another node of the database and after a restart: the secret is the server’s, kept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shortener-idem-'));
    const config = loadConfig({ DB_PATH: join(dir, 'shortener.db'), PORT: '0', HOST: '127.0.0.1' });
    const quiet = createJsonLogger({ level: 'error', stream: { write: () => undefined } });
    const start = () => startServer(config, { logger: quiet });
    const k = key();
    const post = (url: string) =>
      fetch(`${url}/api/v1/links`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': k },
        body: JSON.stringify({ url: 'https://example.com/nodes' }),
      });
    const [a, b] = [await start(), await start()];
    try {
      const first = await jsonOf(await post(a.url), 201);
      expect(await jsonOf(await post(b.url), 201)).toStrictEqual(first);
      await a.close();
      const restarted = await start();
      expect(await jsonOf(await post(restarted.url), 201)).toStrictEqual(first);
      await restarted.close();
    } finally {
      await a.close();
      await b.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
