import { join } from 'node:path';
import { ANONYMOUS, createLink } from '@shortener/core';
import { CommanderError } from 'commander';
import { beforeEach, describe, expect, it } from 'vitest';
import { createContainer, createProgram, loadConfig, resolve, runCli } from '@shortener/app';
import { captureIo, tempDir } from './helpers.js';
import type { CapturedIo } from './helpers.js';

let env: { DB_PATH: string };

beforeEach(() => {
  env = { DB_PATH: join(tempDir(), 'shortener.db') };
});

async function run(...args: string[]): Promise<CapturedIo> {
  const io = captureIo(env);
  await createProgram(io).parseAsync(args, { from: 'user' });
  return io;
}

async function exitCodeOf(...args: string[]): Promise<{ code: number; io: CapturedIo }> {
  const io = captureIo(env);
  return { code: await runCli(args, io), io };
}

describe('operator commands', () => {
  it('creates an account and prints its id and name', async () => {
    const io = await run('accounts', 'create', 'alice');
    expect(io.stdoutText()).toMatch(/^[0-9a-f-]{36}\talice\n$/);
    const list = await run('accounts', 'list');
    expect(list.stdoutText()).toContain('alice');
  });

  it('prints a new key alone on its stdout line, hints on stderr, and never lists it', async () => {
    await run('accounts', 'create', 'alice');
    const created = await run('keys', 'create', 'alice');
    expect(created.stdoutText()).toMatch(/^shk_[0-9A-Za-z]{32}\n$/);
    expect(created.stderrText()).toMatch(/shown once/);
    const key = created.stdoutText().trim();

    const listed = await run('keys', 'list', 'alice');
    expect(listed.stdoutText()).not.toContain(key);
    expect(listed.stdoutText()).toContain(key.slice(0, 8));
    expect((await run('keys', 'list', 'alice', '--json')).stdoutText()).not.toContain(key);
  });

  it('revokes a key by id and shows when it was revoked', async () => {
    await run('accounts', 'create', 'alice');
    await run('keys', 'create', 'alice');
    const [listed] = JSON.parse((await run('keys', 'list', 'alice', '--json')).stdoutText()) as {
      id: string;
      revoked_at: string | null;
    }[];
    expect(listed?.revoked_at).toBeNull();

    const revoked = await run('keys', 'revoke', listed?.id ?? '');
    expect(revoked.stdoutText()).toBe(`revoked ${listed?.id}\n`);
    const [after] = JSON.parse((await run('keys', 'list', 'alice', '--json')).stdoutText()) as {
      revoked_at: string | null;
    }[];
    expect(after?.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('exits 1 with the error code on stderr when the operation fails', async () => {
    await run('accounts', 'create', 'alice');
    const duplicate = await exitCodeOf('accounts', 'create', 'alice');
    expect(duplicate.code).toBe(1);
    expect(duplicate.io.stderrText()).toMatch(/^error: .+ \(invalid_request\)\n$/);

    const unknown = await exitCodeOf('keys', 'revoke', 'no-such-key');
    expect(unknown.code).toBe(1);
    expect(unknown.io.stderrText()).toMatch(/\(not_found\)\n$/);
  });

  it('prints the version with --version and exits 0', async () => {
    const { code, io } = await exitCodeOf('--version');
    expect(code).toBe(0);
    expect(io.stdoutText()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('exits 2 on usage errors', async () => {
    expect((await exitCodeOf('accounts', 'create')).code).toBe(2);
    expect((await exitCodeOf('nonsense')).code).toBe(2);
    await expect(run('keys', 'create')).rejects.toBeInstanceOf(CommanderError);
  });

  it('exits 2 with one line naming the variable on a bad configuration', async () => {
    env = { ...env, DB_PATH: tempDir() };
    const { code, io } = await exitCodeOf('accounts', 'list');
    expect(code).toBe(2);
    expect(io.stderrText()).toMatch(/^error: DB_PATH .*\n$/);
  });

  it('refuses to work on a memory store', async () => {
    const io = captureIo({ ...env, STORE: 'memory' });
    expect(await runCli(['accounts', 'list'], io)).toBe(2);
    expect(io.stderrText()).toMatch(/^error: STORE /);
  });

  it('uses --db-path over DB_PATH', async () => {
    const other = join(tempDir(), 'other.db');
    await run('accounts', 'create', 'bob', '--db-path', other);
    expect((await run('accounts', 'list')).stdoutText()).not.toContain('bob');
    expect((await run('accounts', 'list', '--db-path', other)).stdoutText()).toContain('bob');
  });

  it('disables and re-enables a link found by short URL or slug', async () => {
    const container = createContainer(loadConfig(env));
    const created = await createLink(
      resolve(container, 'coreDeps'),
      { url: 'https://example.com/', alias: 'promo' },
      ANONYMOUS,
    );
    expect(created.ok).toBe(true);
    await resolve(container, 'stores').close();

    const disabled = await run('links', 'disable', 'http://localhost:3000/promo');
    expect(disabled.stdoutText()).toMatch(/^http:\/\/localhost:3000\/promo\t[0-9a-f-]{36}\tdisabled\n$/);
    const enabled = JSON.parse((await run('links', 'enable', 'promo', '--json')).stdoutText()) as {
      status: string;
    };
    expect(enabled.status).toBe('active');
    expect((await exitCodeOf('links', 'disable', 'nothing-here')).code).toBe(1);
  });

  it('shows examples in the help of every command', async () => {
    for (const path of [
      ['serve'],
      ['accounts', 'create'],
      ['accounts', 'list'],
      ['keys', 'create'],
      ['keys', 'list'],
      ['keys', 'revoke'],
      ['links', 'disable'],
      ['links', 'enable'],
      ['links', 'list'],
      ['links', 'show'],
      ['links', 'update'],
      ['links', 'delete'],
      ['shorten'],
      ['bulk'],
      ['stats'],
      ['qr'],
      ['check'],
      ['claim'],
      ['backup'],
      ['export'],
      ['import'],
    ]) {
      const { code, io } = await exitCodeOf(...path, '--help');
      expect(code, path.join(' ')).toBe(0);
      expect(io.stdoutText(), path.join(' ')).toMatch(/Examples?:\n {2}\$ shortener /);
    }
  });
});
