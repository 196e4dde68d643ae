import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, buildBinary, runBin } from './bin-helpers.js';
import { tempDir } from './helpers.js';
import { startTestServer } from './http/harness.js';
import type { TestAccount, TestServer } from './http/harness.js';

let server: TestServer;
let alice: TestAccount;

beforeAll(async () => {
  buildBinary();
  server = await startTestServer();
  alice = await server.createAccount('alice');
}, 180_000);
afterAll(() => server.close());

describe('the shortener binary on the local database', () => {
  it('walks shorten → stats → qr → backup as docs/cli.md does', async () => {
    const dir = tempDir();
    const vars = { DB_PATH: join(dir, 'shortener.db') };
    const shortened = await runBin(
      bin,
      ['shorten', 'https://example.com/a/long/page', '--alias', 'hello'],
      vars,
    );
    expect(shortened).toMatchObject({ code: 0, stdout: 'http://localhost:3000/hello\n' });
    expect(shortened.stderr).toMatch(/edit token .*et_/);

    const [stats, qr, backup] = await Promise.all([
      runBin(bin, ['stats', 'hello'], vars),
      runBin(bin, ['qr', 'hello', '--out', join(dir, 'hello.png')], vars),
      runBin(bin, ['backup', join(dir, 'backup.db')], vars),
    ]);
    expect(stats).toMatchObject({ code: 0, stdout: expect.stringMatching(/^clicks 0 .*\nby day {2}▁{30} /) });
    expect(qr.code).toBe(0);
    expect(readFileSync(join(dir, 'hello.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(backup).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^backed up to .+backup\.db \(\d+ bytes\)\n$/),
    });
    const copy = await runBin(bin, ['links', 'show', 'hello', '--json'], { DB_PATH: join(dir, 'backup.db') });
    expect(JSON.parse(copy.stdout)).toMatchObject({ slug: 'hello', url: 'https://example.com/a/long/page' });
  }, 30_000);

  it('exits 1 on a domain error and 2 on a usage error, with one line on stderr', async () => {
    const vars = { DB_PATH: join(tempDir(), 'shortener.db') };
    const [domain, usage] = await Promise.all([
      runBin(bin, ['shorten', 'ftp://example.com/'], vars),
      runBin(bin, ['shorten', 'https://example.com/', '--no-such-flag'], vars),
    ]);
    expect(domain).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: Only http and https URLs can be shortened. (unsupported_scheme)\n',
    });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^error: unknown option '--no-such-flag'/);
  }, 30_000);
});

describe('the shortener binary against a server (remote mode)', () => {
  it('shortens with --server and --key, lists with the environment variables, bulk-creates from stdin', async () => {
    const flags = ['--server', server.origin, '--key', alice.key];
    const shortened = await runBin(
      bin,
      ['shorten', 'https://example.com/bin', '--alias', 'from-bin', ...flags],
      {},
    );
    expect(shortened).toEqual({ code: 0, stdout: `http://${server.hostA}/from-bin\n`, stderr: '' });

    const vars = { SHORTENER_URL: server.origin, SHORTENER_API_KEY: alice.key };
    const [listed, bulk, backup] = await Promise.all([
      runBin(bin, ['links', 'list', '--json'], vars),
      runBin(bin, ['bulk', '-', '--json'], vars, 'https://example.com/1\nhttps://example.com/2\n'),
      runBin(bin, ['backup', 'x.db'], vars),
    ]);
    expect(JSON.parse(listed.stdout).links.map((l: { slug: string }) => l.slug)).toContain('from-bin');
    expect(bulk.code).toBe(0);
    expect(JSON.parse(bulk.stdout).results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true]);
    expect(backup).toMatchObject({ code: 2, stderr: expect.stringMatching(/^error: .+ \(usage\)\n$/) });
  }, 30_000);

  it('shows examples in the help of the program', async () => {
    const help = await runBin(bin, ['--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Examples:\n {2}\$ shortener serve/);
  });
});
