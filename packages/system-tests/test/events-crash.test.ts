import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '@shortener/app';
import { buildBinary, serveBin } from './bin-helpers.js';
import { tempDir } from './helpers.js';
import { startReceiver } from '../../app/test/webhook-receiver.js';

beforeAll(buildBinary, 180_000);

/** `shortener serve` as a child process on a free port; resolves once it listens. */
const serve = (dbPath: string) => serveBin(dbPath, { WEBHOOK_ALLOW_PRIVATE: 'true' });

/** A loopback port nothing listens on (yet). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function cli(dbPath: string, ...args: string[]): Promise<Record<string, string>> {
  const out: string[] = [];
  const io = {
    stdout: { write: (t: string) => out.push(t) },
    stderr: { write: () => {} },
    env: { DB_PATH: dbPath },
  };
  expect(await runCli([...args, '--json'], io)).toBe(0);
  return JSON.parse(out.join('')) as Record<string, string>;
}

describe('events across a crash (decisions §16)', () => {
  it('delivers a change made just before kill -9 after the restart, once', async () => {
    const dbPath = join(tempDir(), 'shortener.db');
    await cli(dbPath, 'accounts', 'create', 'alice');
    const { key } = await cli(dbPath, 'keys', 'create', 'alice');
    const port = await freePort();
    let server = await serve(dbPath);
    const api = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const hook = (await (
      await api('/api/v1/webhooks', { url: `http://127.0.0.1:${port}/hook`, events: ['link.created'] })
    ).json()) as { secret: string };
    // nothing listens at the endpoint yet: the change cannot have been received before the crash
    const created = await api('/api/v1/links', { url: 'https://example.com/crash', alias: 'crashed' });
    server.child.kill('SIGKILL');
    await server.done;
    expect(created.status).toBe(201);

    const receiver = await startReceiver('/hook', port);
    receiver.secret = hook.secret;
    server = await serve(dbPath);
    try {
      const got = await receiver.next((r) => r.body.type === 'link.created', 0, 45_000);
      expect(got).toMatchObject({ verified: true, body: { data: { slug: 'crashed' } } });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(receiver.received.filter((r) => r.id === got.id)).toHaveLength(1);
    } finally {
      server.child.kill('SIGTERM');
      await server.done;
      await receiver.close();
    }
  }, 90_000);
});
