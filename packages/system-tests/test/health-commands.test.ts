import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, buildBinary, collect, envOf } from './bin-helpers.js';
import { runIn } from './cli-run.js';
import { jsonOf, startTestServer } from './http/harness.js';
import type { Json, TestAccount, TestServer } from './http/harness.js';

// `shortener links check` and `links list --health` (decisions §23) against a real server and its
// database. The links point at a site on the loopback (ALLOW_PRIVATE_HOSTS lets them): 200 on /ok, 404
// on /gone. Each test has an account of its own, since "Check now" counts 10 a minute per account.

/** A destination site: 200 on `/ok`, 404 on `/gone`. */
interface Site {
  readonly url: string;
  close(): Promise<void>;
}

async function startSite(): Promise<Site> {
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    res.writeHead(path === '/gone' ? 404 : 200, { 'content-type': 'text/plain' }).end('hello');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let site: Site;
let server: TestServer;

beforeAll(async () => {
  buildBinary();
  site = await startSite();
  server = await startTestServer({ ALLOW_PRIVATE_HOSTS: 'true', HEALTH_HOST_GAP_MS: '100' });
});

afterAll(async () => {
  await server.close();
  await site.close();
});

const create = async (account: TestAccount, path: string, fields: Json = {}): Promise<Json> =>
  jsonOf(
    await server.api('/api/v1/links', { key: account.key, json: { url: `${site.url}${path}`, ...fields } }),
    201,
  );
const linkOf = async (account: TestAccount, id: string): Promise<Json> =>
  jsonOf(await server.api(`/api/v1/links/${id}`, { key: account.key }));

/** `shortener args` in remote mode with the account's key; `tty`: stdout and stderr are terminals. */
const remote = (account: TestAccount, args: string[], tty = false) =>
  runIn({ SHORTENER_URL: server.origin }, [...args, '--key', account.key], { tty });

/** `shortener args` on the server's database, with the server's probe settings (`vars` besides). */
const local = (args: string[], vars: Record<string, string> = {}) =>
  runIn({ DB_PATH: server.dbPath, ALLOW_PRIVATE_HOSTS: 'true', HEALTH_HOST_GAP_MS: '100', ...vars }, args);

/** The lines of a command's stdout. */
const lines = (text: string): string[] => text.split('\n').filter((line) => line !== '');

describe('shortener links check, remote', () => {
  it('checks one link now and prints its state: a line, a sentence on a terminal, the Link as JSON', async () => {
    const owner = await server.createAccount('check-one');
    const link = await create(owner, '/ok', { alias: 'check-one' });
    const piped = await remote(owner, ['links', 'check', link.short_url]);
    expect(piped, piped.stderr).toMatchObject({ code: 0, stdout: `${link.short_url}\tok\t-\t200\n` });
    const json = await remote(owner, ['links', 'check', 'check-one', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(json.json()).toMatchObject({
      id: link.id,
      health: { state: 'ok', status: 200, reason: null, checked_at: expect.any(String) },
    });
    const tty = await remote(owner, ['links', 'check', link.id], true);
    expect(tty.stdout).toBe(`${link.short_url} is ok (200)\n`);
    expect((await linkOf(owner, link.id)).health.state).toBe('ok');

    const mixed = await remote(owner, ['links', 'check', link.id, '--broken']);
    expect(mixed).toMatchObject({ code: 2, stderr: expect.stringContaining('without a link') });
    expect((await remote(owner, ['links', 'check', 'no-such-link'])).stderr).toMatch(/\(not_found\)\n$/);
  });

  it('--broken checks only the links that are broken now; every link otherwise, with a summary', async () => {
    const owner = await server.createAccount('check-broken');
    const fine = await create(owner, '/ok');
    const gone = await create(owner, '/gone');
    for (let n = 0; n < 3; n += 1) {
      const checked = await remote(owner, ['links', 'check', gone.id]);
      expect(checked.stdout, checked.stderr).toBe(
        `${gone.short_url}\t${n < 2 ? 'unknown' : 'broken'}\thttp_4xx\t404\n`,
      );
    }
    const broken = await remote(owner, ['links', 'check', '--broken']);
    expect(broken, broken.stderr).toMatchObject({
      code: 0,
      stdout: `${gone.short_url}\tbroken\thttp_4xx\t404\n`,
      stderr: 'checked 1 link: 1 broken\n',
    });
    expect((await linkOf(owner, fine.id)).health.state).toBe('unknown');

    const every = await remote(owner, ['links', 'check']);
    expect(every.code, every.stderr).toBe(0);
    expect(lines(every.stdout).sort()).toEqual(
      [`${fine.short_url}\tok\t-\t200`, `${gone.short_url}\tbroken\thttp_4xx\t404`].sort(),
    );
    expect(every.stderr).toBe('checked 2 links: 1 ok, 1 broken\n');
    const json = await remote(owner, ['links', 'check', '--json']);
    expect(
      json
        .json()
        .links.map((l: Json) => [l.id, l.health.state])
        .sort(),
    ).toEqual(
      [
        [fine.id, 'ok'],
        [gone.id, 'broken'],
      ].sort(),
    );
    expect(json.stderr).toBe('');
  });

  it('waits at the limit of 10 checks a minute instead of failing', async () => {
    const owner = await server.createAccount('check-many');
    const made = [];
    for (let n = 0; n < 12; n += 1) made.push(await create(owner, `/ok?n=${n}`));
    // the server's Retry-After is close to a minute: the test sees the wait begin, then stops it (the
    // retry after the wait is the client's unit test, against a server that asks for a second)
    const child = spawn(
      process.execPath,
      [bin, 'links', 'check', '--server', server.origin, '--key', owner.key],
      { env: envOf({}) },
    );
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const { done, stderr } = collect(child);
    try {
      for (let waited = 0; !/waiting \d+ s/.test(stderr()); waited += 50) {
        if (waited > 30_000) throw new Error(`no wait; stdout ${stdout}; stderr ${stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const seconds = Number(/waiting (\d+) s: 10 checks a minute\n/.exec(stderr())?.[1]);
      expect(seconds).toBeGreaterThan(30);
      expect(seconds).toBeLessThanOrEqual(60);
      expect(lines(stdout)).toHaveLength(10);
      expect(lines(stdout).every((line) => /\tok\t-\t200$/.test(line))).toBe(true);
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGTERM');
      await done;
    }
  });
});

describe('shortener links check, local', () => {
  it('checks on the database with the server’s probe settings and writes the health the API shows', async () => {
    const owner = await server.createAccount('check-local');
    const fine = await create(owner, '/ok', { tags: ['local'] });
    const gone = await create(owner, '/gone', { tags: ['local'] });
    const checked = await local(['links', 'check', '--account', 'check-local']);
    expect(checked.code, checked.stderr).toBe(0);
    expect(lines(checked.stdout).sort()).toEqual(
      [`${fine.short_url}\tok\t-\t200`, `${gone.short_url}\tunknown\thttp_4xx\t404`].sort(),
    );
    expect(checked.stderr).toBe('checked 2 links: 1 ok, 1 unknown\n');
    expect((await linkOf(owner, fine.id)).health).toMatchObject({ state: 'ok', status: 200 });
    expect((await linkOf(owner, gone.id)).health).toMatchObject({ state: 'unknown', reason: 'http_4xx' });

    // the operator has no minute limit, and HEALTH_FAILURES is the configuration's
    const one = await local(['links', 'check', gone.short_url], { HEALTH_FAILURES: '1' });
    expect(one.stdout, one.stderr).toBe(`${gone.short_url}\tbroken\thttp_4xx\t404\n`);
    expect((await linkOf(owner, gone.id)).health.state).toBe('broken');
    const tagged = await local(['links', 'check', '--broken', '--tag', 'local', '--json']);
    expect(tagged.json().links.map((l: Json) => l.id)).toEqual([gone.id]);

    // without ALLOW_PRIVATE_HOSTS the probe refuses the loopback, as `serve`'s would
    const refused = await local(['links', 'check', fine.id], { ALLOW_PRIVATE_HOSTS: 'false' });
    expect(refused.stdout).toBe(`${fine.short_url}\tok\tblocked\t-\n`);
  });
});

describe('shortener links list --health', () => {
  it('lists only the links in that state, with a health column', async () => {
    const owner = await server.createAccount('list-health');
    const fine = await create(owner, '/ok');
    const gone = await create(owner, '/gone');
    expect((await local(['links', 'check', gone.id], { HEALTH_FAILURES: '1' })).code).toBe(0);
    expect((await local(['links', 'check', fine.id])).code).toBe(0);

    const broken = await remote(owner, ['links', 'list', '--health', 'broken', '--json']);
    expect(broken.json().links.map((l: Json) => l.id)).toEqual([gone.id]);
    const table = await remote(owner, ['links', 'list', '--health', 'broken']);
    expect(table.stdout).toMatch(/^SHORT URL +STATUS +HEALTH +CLICKS/);
    expect(table.stdout).toContain('broken (http_4xx)');
    expect(table.stdout).not.toContain(fine.short_url);
    const all = await remote(owner, ['links', 'list']);
    expect(all.stdout).toMatch(new RegExp(`${fine.short_url} +active +ok `));
    const locally = await local(['links', 'list', '--account', 'list-health', '--health', 'ok', '--json']);
    expect(locally.json().links.map((l: Json) => l.id)).toEqual([fine.id]);
  });

  it('refuses a state that is none as a usage error naming the states', async () => {
    const owner = await server.createAccount('list-bad');
    const bad = await remote(owner, ['links', 'list', '--health', 'sick']);
    expect(bad.code).toBe(2);
    for (const state of ['unknown', 'ok', 'redirected', 'broken']) expect(bad.stderr).toContain(state);
    expect((await local(['links', 'list', '--health', 'sick'])).code).toBe(2);
  });
});
