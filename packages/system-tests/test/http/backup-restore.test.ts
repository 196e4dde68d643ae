import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runIn } from '../cli-run.js';
import { tempDir } from '../helpers.js';
import { BROWSER_UA, startTestServer } from './harness.js';
import type { Json } from './harness.js';

// Fixed origins, so the server started again on the restored file serves the same short URLs.
const SITE = { SHORT_DOMAINS: 'https://s.test', PUBLIC_BASE_URL: 'https://sho.test' };
const human = { headers: { 'user-agent': BROWSER_UA } };

it('restores a backup taken while serving, as docs/operating.md says, and serves its links', async () => {
  const dbPath = join(tempDir(), 'shortener.db');
  const server = await startTestServer({ ...SITE, DB_PATH: dbPath });
  const create = async (alias: string) => {
    const response = await server.api('/api/v1/links', {
      json: { url: `https://example.com/${alias}`, alias },
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Json;
  };
  const backup = join(tempDir(), 'backups', 'shortener.db');
  try {
    const before = await create('before');
    expect((await server.visit(before.short_url, human)).status).toBe(302);
    const copied = await runIn({ DB_PATH: dbPath, ...SITE }, ['backup', backup]);
    expect([copied.code, copied.stderr]).toEqual([0, '']);
    await create('after');
  } finally {
    await server.close();
  }

  // docs/operating.md's steps: the server is stopped; drop its WAL and shared memory; copy the backup over DB_PATH.
  for (const suffix of ['-wal', '-shm']) rmSync(`${dbPath}${suffix}`, { force: true });
  copyFileSync(backup, dbPath);
  expect(existsSync(`${dbPath}-wal`)).toBe(false);

  const restored = await startTestServer({ ...SITE, DB_PATH: dbPath });
  try {
    const redirect = await restored.visit('https://s.test/before', human);
    expect([redirect.status, redirect.headers.get('location')]).toEqual([302, 'https://example.com/before']);
    expect((await restored.visit('https://s.test/after', human)).status).toBe(404);
    const listed = await runIn({ DB_PATH: dbPath, ...SITE }, ['links', 'show', 'before', '--json']);
    expect(listed.json()).toMatchObject({ slug: 'before', status: 'active' });
  } finally {
    await restored.close();
  }
}, 20_000); // two server starts on a shared machine
