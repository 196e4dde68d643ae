import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, buildBinary, collect, envOf, runBin, serveBin } from './bin-helpers.js';
import { tempDir } from './helpers.js';

// Root ignores file permissions, so the faults here are ones root cannot write through: a file size
// limit of one byte (RLIMIT_FSIZE, set on the running server with prlimit: every write past offset 0
// fails with EFBIG, as on a full disk) and an immutable database file (chattr +i, where supported).

beforeAll(buildBinary, 180_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const serve = (dbPath: string) => serveBin(dbPath, {});

const setFileSizeLimit = (pid: number, limit: string) =>
  execFileSync('prlimit', ['--pid', String(pid), `--fsize=${limit}:unlimited`]);

/** Polls `/healthz` until its status is `status`; returns the body. */
async function healthOnce(url: string, status: number): Promise<Record<string, unknown>> {
  for (let waited = 0; waited < 8000; waited += 100) {
    const response = await fetch(`${url}/healthz`);
    const body = (await response.json()) as Record<string, unknown>;
    if (response.status === status) return body;
    await sleep(100);
  }
  throw new Error(`/healthz never answered ${status}`);
}

describe('a store that cannot write', () => {
  it('turns /healthz 503 with the reason, keeps the visits and recovers when the fault clears', async () => {
    const server = await serve(join(tempDir(), 'shortener.db'));
    const created = await fetch(`${server.url}/api/v1/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/fault' }),
    });
    const link = (await created.json()) as { id: string; slug: string; edit_token: string };
    const visit = () => fetch(`${server.url}/${link.slug}`, { redirect: 'manual' }).then((r) => r.status);
    expect(await visit()).toBe(302);
    await healthOnce(server.url, 200);

    setFileSizeLimit(server.child.pid!, '1');
    for (let i = 0; i < 20; i += 1) expect(await visit()).toBe(302);
    const failing = await healthOnce(server.url, 503);
    expect(failing).toEqual({
      status: 'unavailable',
      reason: expect.stringMatching(/^the store cannot write: [^A-Z].*\(SQLITE_\w+\)$/),
    });
    expect(JSON.stringify(failing)).not.toMatch(/127\.0\.0\.1|::1/);
    // what needs a write answers 503 unavailable naming the cause, as /healthz does, never a 500
    const refused = await fetch(`${server.url}/api/v1/links`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/while-full' }),
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toEqual({
      error: { code: 'unavailable', message: expect.stringMatching(/cannot write.*SQLITE_/) },
    });

    setFileSizeLimit(server.child.pid!, 'unlimited');
    // the failed write is tried again when asked, so the recovery shows at once (not after the flush's back-off)
    const restored = Date.now();
    expect(await healthOnce(server.url, 200)).toEqual({ status: 'ok' });
    expect(Date.now() - restored).toBeLessThan(1000);
    const read = await fetch(`${server.url}/api/v1/links/${link.id}`, {
      headers: { 'x-edit-token': link.edit_token },
    });
    expect(((await read.json()) as { clicks: number }).clicks).toBe(21);
    server.child.kill('SIGTERM');
    const finished = await server.done;
    expect(finished.code).toBe(0);
    // a persistent fault is logged once per window, not once per failed flush
    expect(finished.stderr.match(/"msg":"writing visits failed"/g)?.length ?? 0).toBeLessThanOrEqual(2);
  }, 40_000);

  it('answers creations 503 unavailable naming SQLITE_FULL on a full disk, keeps redirecting, and recovers', async (context) => {
    // a real full disk: a small tmpfs (root may mount one here; elsewhere the test is skipped)
    const dir = tempDir();
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir], { stdio: 'ignore' });
    } catch {
      context.skip();
    }
    let server: Awaited<ReturnType<typeof serve>> | undefined;
    try {
      server = await serve(join(dir, 'shortener.db'));
      const { url } = server;
      const create = () =>
        fetch(`${url}/api/v1/links`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url: 'https://example.com/full-disk' }),
        });
      const link = (await (await create()).json()) as { id: string; slug: string; edit_token: string };
      const visit = () => fetch(`${url}/${link.slug}`, { redirect: 'manual' }).then((r) => r.status);
      expect(await visit()).toBe(302);
      try {
        execFileSync('dd', ['if=/dev/zero', `of=${join(dir, 'filler')}`, 'bs=64k'], { stdio: 'ignore' });
      } catch {
        // dd stops at the full disk
      }
      let refused: Response | undefined;
      for (let i = 0; i < 500 && refused === undefined; i++) {
        const response = await create();
        if (response.status !== 201) refused = response;
      }
      expect(refused?.status).toBe(503);
      expect(refused?.headers.get('retry-after')).toBe('5');
      expect(await refused?.json()).toEqual({
        error: { code: 'unavailable', message: expect.stringMatching(/\(SQLITE_FULL\)/) },
      });
      for (let i = 0; i < 10; i += 1) expect(await visit()).toBe(302);
      rmSync(join(dir, 'filler'));
      expect((await healthOnce(url, 200)).status).toBe('ok');
      expect((await create()).status).toBe(201);
      const read = await fetch(`${url}/api/v1/links/${link.id}`, {
        headers: { 'x-edit-token': link.edit_token },
      });
      expect(((await read.json()) as { clicks: number }).clicks).toBe(11);
    } finally {
      server?.child.kill('SIGKILL'); // it holds files of the tmpfs open
      await server?.done;
      execFileSync('umount', [dir]);
    }
  }, 40_000);

  it('stops start-up with one line naming DB_PATH when the database cannot be written', async () => {
    const dbPath = join(tempDir(), 'shortener.db');
    const first = await serve(dbPath);
    first.child.kill('SIGTERM');
    await first.done;
    const child = spawn('prlimit', ['--fsize=1', process.execPath, bin, 'serve'], {
      env: envOf({ PORT: '0', DB_PATH: dbPath }),
    });
    const finished = await collect(child).done;
    expect(finished.code).toBe(2);
    expect(finished.stderr).toMatch(/^error: DB_PATH \(.+shortener\.db\): the store cannot write: .+\n$/);
  }, 20_000);

  it('stops start-up with one line when the database file is read-only (immutable)', async (context) => {
    const dbPath = join(tempDir(), 'shortener.db');
    const first = await serve(dbPath);
    first.child.kill('SIGTERM');
    await first.done;
    try {
      execFileSync('chattr', ['+i', dbPath]);
    } catch {
      context.skip(); // no CAP_LINUX_IMMUTABLE or a file system without attributes
    }
    try {
      const finished = await runBin(bin, ['serve'], { PORT: '0', DB_PATH: dbPath });
      expect(finished.code).toBe(2);
      expect(finished.stderr).toMatch(/^error: DB_PATH \(.+\): the store cannot write: .*readonly.*\n$/);
    } finally {
      execFileSync('chattr', ['-i', dbPath]);
    }
  }, 20_000);
});
