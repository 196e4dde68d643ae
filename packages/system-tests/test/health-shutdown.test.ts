import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBinary } from './bin-helpers.js';
import { startSite } from './http/destination-site.js';
import type { Site } from './http/destination-site.js';
import { HOST, serve, within } from './scale-helpers.js';

// A graceful shutdown while the background link checks wait their turns at one host (decisions §23: a
// gap after each request there): the round ends at once, the stores close and the exit code is 0. It
// waited a gap per link left, on timers that keep no process alive, and the process ended there: exit
// code 13 (a top-level await never settled), the stores never closed.

describe('shortener serve stopping during a round of link checks', () => {
  let site: Site;
  let dir: string;

  beforeAll(async () => {
    buildBinary();
    site = await startSite();
    dir = mkdtempSync(join(tmpdir(), 'health-shutdown-'));
  }, 30_000);

  afterAll(async () => {
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('ends the round at once, closes the stores and exits 0', async () => {
    const node = await serve({
      DB_PATH: join(dir, 'shortener.db'),
      ALLOW_PRIVATE_HOSTS: 'true',
      HEALTH_CHECKS: 'on',
      HEALTH_HOST_GAP_MS: '60000',
      LOG_LEVEL: 'info',
    });
    const urls = Array.from({ length: 8 }, (_, i) => `${site.url}/page-${i}`);
    const created = await fetch(`${node.url}/api/v1/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', host: HOST },
      body: JSON.stringify({ urls }),
    });
    expect(created.status).toBe(200);
    const pages = () => site.seen.filter((s) => s.path.startsWith('/page-'));
    // the first round (a tick every 5 s) checks one link, then waits a minute for the next
    expect(await within(15_000, async () => pages().length === 1)).toBe(true);

    const asked = Date.now();
    const finished = await node.stop();
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(finished.code, finished.stderr).toBe(0);
    const messages = finished.stderr
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages.slice(-3)).toEqual(['stopping on signal', 'shutting down', 'stopped']);
    expect(pages()).toHaveLength(1);
  }, 40_000);
});
