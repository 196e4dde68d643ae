import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toLinkView } from '@shortener/core';
import type { LinkView } from '@shortener/core';
import { aLink, aServiceConfig, FIXTURE_TIME } from '@shortener/testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../src/cli.js';
import type { CliHost, LocalStore } from '../src/host.js';
import { createLocalClient } from '../src/client/local-client.js';
import { createRemoteClient } from '../src/client/remote-client.js';
import { summaryOf } from '../src/commands/health-commands.js';
import { healthLine, healthText, linksTable } from '../src/render.js';

// `links check` (decisions §23): the remote client's wait at the server's limit, against a small API on
// the loopback that answers 429 with `Retry-After: 1` once, and the lines the command prints.

const ID_A = '0b9a6f8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const ID_B = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

/** A link's view as core makes it, with `fields` changed. */
const link = (fields: Partial<LinkView>): LinkView => ({
  ...toLinkView(aLink(), aServiceConfig(), FIXTURE_TIME),
  ...fields,
});
const checked = (id: string, slug: string): LinkView =>
  link({
    id,
    slug,
    short_url: `https://s.example/${slug}`,
    health: {
      state: 'ok',
      status: 200,
      reason: null,
      final_url: null,
      checked_at: '2026-12-02T10:00:00.000Z',
      since: '2026-12-02T10:00:00.000Z',
    },
  });

/** The API's part `links check` uses: lists two links, and limits the checks of `limited` once. */
async function startApi(
  limited: string,
): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  let refused = false;
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    const check = /^\/api\/v1\/links\/([\w-]+)\/check$/.exec(req.url ?? '');
    if (req.method === 'GET' && req.url?.startsWith('/api/v1/links?') === true) {
      return json(200, { links: [checked(ID_A, 'a'), checked(ID_B, 'b')], next_cursor: null });
    }
    if (req.method === 'POST' && check !== null) {
      const id = check[1] ?? '';
      if (id === limited && !refused) {
        refused = true;
        const error = { code: 'rate_limited', message: 'At most 10 checks a minute; try again later.' };
        return json(429, { error }, { 'retry-after': '1' });
      }
      return json(200, checked(id, id === ID_A ? 'a' : 'b'));
    }
    return json(404, { error: { code: 'not_found', message: 'Not found.' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let api: Awaited<ReturnType<typeof startApi>> | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

/** `shortener args` in-process on `env`; stdout and stderr are terminals with `tty`. */
async function run(env: Record<string, string>, args: string[], tty = false) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    env,
    stdout: { isTTY: tty, write: (text: string) => (stdout += text) },
    stderr: { isTTY: tty, write: (text: string) => (stderr += text) },
    host: { serveOptions: [] } as unknown as CliHost,
  });
  return { code, stdout, stderr };
}

describe('the remote client’s checkHealth', () => {
  it('waits the seconds of Retry-After at the limit and asks again', async () => {
    api = await startApi(ID_A);
    const client = createRemoteClient({ server: api.url, key: 'shk_test', token: null });
    const waits: number[] = [];
    const started = Date.now();
    const result = await client.checkHealth(ID_A, (seconds) => waits.push(seconds));
    expect(result).toMatchObject({ ok: true, value: { id: ID_A, health: { state: 'ok' } } });
    expect(waits).toEqual([1]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(api.requests).toEqual([`POST /api/v1/links/${ID_A}/check`, `POST /api/v1/links/${ID_A}/check`]);
  });
});

describe('shortener links check', () => {
  it('checks every link in turn, waits at the limit, and ends with a summary', async () => {
    api = await startApi(ID_B);
    const done = await run({ SHORTENER_URL: api.url }, ['links', 'check', '--key', 'shk_test']);
    expect(done).toEqual({
      code: 0,
      stdout: 'https://s.example/a\tok\t-\t200\nhttps://s.example/b\tok\t-\t200\n',
      stderr: 'waiting 1 s: 10 checks a minute\nchecked 2 links: 2 ok\n',
    });
  });

  it('shows its progress on a terminal and clears it before each line', async () => {
    api = await startApi('none');
    const done = await run({ SHORTENER_URL: api.url }, ['links', 'check', '--key', 'shk_test'], true);
    expect(done.code).toBe(0);
    expect(done.stdout).toBe('https://s.example/a is ok (200)\nhttps://s.example/b is ok (200)\n');
    expect(done.stderr).toContain('checking 1/2 https://s.example/a');
    expect(done.stderr).toContain('checking 2/2 https://s.example/b');
    expect(done.stderr.endsWith('\r\x1b[2Kchecked 2 links: 2 ok\n')).toBe(true);
  });

  it('says locally that a host without the probe cannot check', async () => {
    const client = createLocalClient({} as LocalStore, null);
    await expect(client.checkHealth(ID_A)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('cannot check links'),
    });
  });
});

describe('the health lines', () => {
  const health = (fields: Partial<LinkView['health']>): LinkView =>
    link({ short_url: 'https://s.example/x', health: { ...checked(ID_A, 'x').health, ...fields } });

  it('prints a tab-separated line, or a sentence', () => {
    expect(healthLine(health({}))).toBe('https://s.example/x\tok\t-\t200');
    const broken = health({ state: 'broken', status: 404, reason: 'http_4xx' });
    expect(healthLine(broken)).toBe('https://s.example/x\tbroken\thttp_4xx\t404');
    expect(healthText(broken)).toBe(
      'https://s.example/x is broken since 2026-12-02T10:00:00.000Z: http_4xx (404)',
    );
    const dns = health({ state: 'broken', status: null, reason: 'dns' });
    expect(healthLine(dns)).toBe('https://s.example/x\tbroken\tdns\t-');
    expect(healthText(health({ reason: 'http_5xx', status: 503 }))).toBe(
      'https://s.example/x is ok, but its last check failed: http_5xx (503)',
    );
    expect(healthText(health({ state: 'redirected', final_url: 'https://new.example/' }))).toBe(
      'https://s.example/x is redirected: its destination answers at https://new.example/ (200)',
    );
    expect(healthText(health({ state: 'unknown', status: null }))).toBe(
      'https://s.example/x is not checked yet',
    );
  });

  it('sums up the states some link is in', () => {
    const counts = new Map([
      ['broken', 1],
      ['ok', 10],
      ['redirected', 1],
    ] as const);
    expect(summaryOf(12, counts)).toBe('checked 12 links: 10 ok, 1 redirected, 1 broken');
    expect(summaryOf(1, new Map([['ok', 1]]), 1)).toBe('checked 1 link: 1 ok; 1 deleted meanwhile');
  });

  it('has a health column once a link was checked, or when the list asks for a state', () => {
    const never = link({ health: { ...checked(ID_A, 'x').health, state: 'unknown' } });
    expect(linksTable([never])).not.toContain('HEALTH');
    expect(linksTable([never], true)).toMatch(/^SHORT URL +STATUS +HEALTH +CLICKS/);
    expect(linksTable([never, health({ state: 'broken', reason: 'http_4xx' })])).toContain(
      'broken (http_4xx)',
    );
  });
});
