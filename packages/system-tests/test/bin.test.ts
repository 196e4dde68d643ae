import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, buildBinary, collect, envOf, launcher, listeningUrl, runBin } from './bin-helpers.js';
import { tempDir } from './helpers.js';

beforeAll(buildBinary, 180_000);

describe('the shortener binary', () => {
  it('serves /healthz on a free port, keeps stdout clean and exits 0 on SIGTERM', async () => {
    const dbPath = join(tempDir(), 'shortener.db');
    const child = spawn(process.execPath, [bin, 'serve'], { env: envOf({ PORT: '0', DB_PATH: dbPath }) });
    const { done, stderr } = collect(child);
    const url = await listeningUrl(stderr);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/);

    const response = await fetch(`${url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });

    const started = Date.now();
    child.kill('SIGTERM');
    const finished = await done;
    expect(finished.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(finished.stdout).toBe('');
    expect(finished.stderr).toMatch(/"msg":"stopped"/);
  }, 20_000);

  it('stops start-up with one line naming a bad variable and exit code 2', async () => {
    const finished = await runBin(bin, ['serve'], { PORT: 'abc' });
    expect(finished.code).toBe(2);
    expect(finished.stderr).toBe('error: PORT must be an integer from 0 to 65535 (got "abc")\n');
  });

  it('prints a new key alone on stdout through the npm launcher', async () => {
    const vars = { DB_PATH: join(tempDir(), 'shortener.db') };
    expect((await runBin(launcher, ['accounts', 'create', 'alice'], vars)).code).toBe(0);
    const created = await runBin(launcher, ['keys', 'create', 'alice'], vars);
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^shk_[0-9A-Za-z]{32}\n$/);
    expect(created.stderr).toMatch(/shown once/);
  }, 20_000);

  it('closes open connections on a second signal and still exits 0', async () => {
    const child = spawn(process.execPath, [bin, 'serve'], { env: envOf({ PORT: '0', STORE: 'memory' }) });
    const { done, stderr } = collect(child);
    const { hostname, port } = new URL(await listeningUrl(stderr));
    const socket = connect(Number(port), hostname);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n'); // in flight until the drain cap
    socket.on('error', () => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));

    child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));
    child.kill('SIGINT');
    const finished = await done;
    expect(finished.code).toBe(0);
    expect(finished.stderr).toMatch(/"msg":"closing open connections now"/);
    expect(finished.stderr).toMatch(/"msg":"stopped"/);
  }, 20_000);
});
