import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIn } from '../cli-run.js';
import { tempDir } from '../helpers.js';
import { BROWSER_UA, startTestServer } from './harness.js';
import type { Json } from './harness.js';

// Fixed short domain and base URL, so the CLI and every server agree whatever port they get.
const SITE = { SHORT_DOMAINS: 'https://s.test', PUBLIC_BASE_URL: 'https://sho.test' };
const cli = (dbPath: string, ...args: string[]) => runIn({ DB_PATH: dbPath, ...SITE }, args);
const json = async (dbPath: string, ...args: string[]): Promise<Json> => {
  const run = await cli(dbPath, ...args, '--json');
  expect(run.stderr).toBe('');
  return run.json() as Json;
};
const exportLines = async (dbPath: string): Promise<Json[]> =>
  (await cli(dbPath, 'export')).stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Json)
    .sort((a, b) => String(a.slug).localeCompare(String(b.slug)));
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const human = { 'user-agent': BROWSER_UA };
const LATER = '2099-03-04T05:06:07.089Z';

/**
 * Every kind of link on a database that has served clicks: password, capped and used up, expired,
 * disabled, anonymous with a token and private stats, owned by an account.
 */
async function givenEveryKindOfLink(dbPath: string): Promise<{ token: string }> {
  await json(dbPath, 'accounts', 'create', 'alice');
  const owned = ['--account', 'alice'];
  await json(dbPath, 'shorten', 'https://example.com/pw', '--alias', 'pw', '--password', 'secret1', ...owned);
  await json(dbPath, 'shorten', 'https://example.com/cap', '--alias', 'cap', '--max-clicks', '1', ...owned);
  await json(dbPath, 'shorten', 'https://example.com/old', '--alias', 'old', '--title', '-50% "sale"');
  await json(dbPath, 'links', 'update', 'old', '--expires-at', '2020-01-02T03:04:05.678Z');
  await json(dbPath, 'shorten', 'https://example.com/off', '--alias', 'off', '--expires-in', '30');
  await json(dbPath, 'links', 'disable', 'off');
  await json(dbPath, 'shorten', 'https://example.com/later', '--alias', 'later', '--starts-at', LATER);
  const anon = await json(
    dbPath,
    'shorten',
    'https://example.com/a?q=1',
    '--alias',
    'anon',
    '--private-stats',
    '--title',
    '=HYPERLINK("x")',
  );
  const server = await startTestServer({ ...SITE, DB_PATH: dbPath });
  try {
    expect((await server.visit('https://s.test/cap', { headers: human })).status).toBe(302);
    expect((await server.visit('https://s.test/anon', { headers: human })).status).toBe(302);
    expect((await server.visit('https://s.test/anon', { headers: human })).status).toBe(302);
  } finally {
    await server.close(); // flushes the buffered clicks of `anon`
  }
  return { token: String(anon.edit_token) };
}

describe('export then import into a fresh database', () => {
  it('brings every field of every kind of link back, and passwords and edit tokens keep working', async () => {
    const dir = tempDir();
    const source = join(dir, 'source.db');
    const { token } = await givenEveryKindOfLink(source);
    const exported = await exportLines(source);
    expect(exported.map((l) => [l.slug, l.status, l.clicks])).toEqual([
      ['anon', 'active', 2], ['cap', 'expired', 1], ['later', 'active', 0], ['off', 'disabled', 0],
      ['old', 'expired', 0], ['pw', 'active', 0],
    ]); // prettier-ignore
    const [anonLine, , laterLine, , , pwLine] = exported;
    expect(laterLine?.starts_at).toBe(LATER);
    expect(anonLine).toMatchObject({ last_click_at: expect.any(String), account: null, public_stats: false });
    expect(anonLine?.edit_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(pwLine).toMatchObject({ account: 'alice', has_password: true, edit_token_hash: null });
    expect(pwLine?.password_hash).toMatch(/^scrypt\$/);

    for (const format of ['jsonl', 'csv']) {
      const file = join(dir, `links.${format}`);
      expect((await cli(source, 'export', '--format', format, '--out', file)).code).toBe(0);
      expect(statSync(file).mode & 0o077).toBe(0); // hashes inside: owner only
      const target = join(dir, `${format}.db`);
      const alice = await json(target, 'accounts', 'create', 'alice');
      const imported = await cli(target, 'import', file, '--json');
      expect(imported.stderr).toBe('');
      expect(imported.code).toBe(0);
      const back = await exportLines(target);
      const expected = exported.map((l) => (l.account === 'alice' ? { ...l, account_id: alice.id } : l));
      expect(back).toEqual(expected);
    }

    const server = await startTestServer({ ...SITE, DB_PATH: join(dir, 'csv.db') });
    try {
      const post = (password: string) =>
        server.visit('https://s.test/pw', { method: 'POST', body: `password=${password}`, headers: form });
      expect((await server.visit('https://s.test/pw', { headers: human })).status).toBe(200);
      expect((await post('wrong')).status).toBe(401);
      const opened = await post('secret1');
      expect([opened.status, opened.headers.get('location')]).toEqual([302, 'https://example.com/pw']);
      const anon = exported.find((l) => l.slug === 'anon')!;
      const detail = await server.api(`/api/v1/links/${anon.id}`, { token });
      expect(detail.status).toBe(200);
      expect(((await detail.json()) as Json).title).toBe('=HYPERLINK("x")');
      expect(
        // another last character (a token ending in x stayed right with "x", 1 run in 62)
        (
          await server.api(`/api/v1/links/${anon.id}`, {
            token: `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`,
          })
        ).status,
      ).not.toBe(200);
      for (const gone of ['cap', 'old', 'off']) {
        expect((await server.visit(`https://s.test/${gone}`, { headers: human })).status).toBe(410);
      }
      // not started yet: an unknown slug till then
      expect((await server.visit('https://s.test/later', { headers: human })).status).toBe(404);
    } finally {
      await server.close();
    }
  }, 30_000); // two servers, four databases and scrypt, on a shared machine
});

describe('export then import of what the health checks found', () => {
  it('keeps a broken link broken and a link one failure from it so, in JSON lines and in CSV', async () => {
    const dir = tempDir();
    const source = join(dir, 'source.db');
    // links to the loopback (their URLs allowed), checked with the loopback refused: no request leaves
    const allowed = (dbPath: string, ...args: string[]) =>
      runIn({ DB_PATH: dbPath, ...SITE, ALLOW_PRIVATE_HOSTS: 'true' }, args);
    const check = (dbPath: string, slug: string, failures: string) =>
      runIn({ DB_PATH: dbPath, ...SITE, ALLOW_PRIVATE_HOSTS: 'false', HEALTH_FAILURES: failures }, [
        'links',
        'check',
        slug,
      ]);
    for (const slug of ['down', 'twice', 'never'])
      expect((await allowed(source, 'shorten', `http://127.0.0.1:9/${slug}`, '--alias', slug)).code).toBe(0);
    expect((await check(source, 'down', '1')).stdout).toBe('https://s.test/down\tbroken\tblocked\t-\n');
    expect((await check(source, 'twice', '3')).stdout).toBe('https://s.test/twice\tunknown\tblocked\t-\n');
    const exported = await exportLines(source);
    expect(exported.map((l) => [l.slug, (l.health as Json).state, l.health_failures])).toEqual([
      ['down', 'broken', 1], ['never', 'unknown', 0], ['twice', 'unknown', 1],
    ]); // prettier-ignore
    expect(exported[0]!.health).toMatchObject({ reason: 'blocked', checked_at: expect.any(String) });

    for (const format of ['jsonl', 'csv']) {
      const file = join(dir, `links.${format}`);
      expect((await cli(source, 'export', '--format', format, '--out', file)).code).toBe(0);
      const target = join(dir, `${format}.db`);
      const imported = await allowed(target, 'import', file, '--json');
      expect(imported.code, imported.stderr).toBe(0);
      expect(await exportLines(target)).toEqual(exported);
      // two more failures break `twice` here, as three in a row do: its first one came along
      expect((await check(target, 'twice', '3')).stdout).toBe('https://s.test/twice\tunknown\tblocked\t-\n');
      expect((await check(target, 'twice', '3')).stdout).toBe('https://s.test/twice\tbroken\tblocked\t-\n');
    }
  }, 30_000);
});

describe('import of an export, line by line', () => {
  it('refuses a taken slug, an id that exists and an unknown owner per line, writing nothing of them', async () => {
    const dir = tempDir();
    const source = join(dir, 'source.db');
    await json(source, 'accounts', 'create', 'bob');
    await json(source, 'shorten', 'https://example.com/1', '--alias', 'one');
    await json(source, 'shorten', 'https://example.com/2', '--alias', 'two', '--account', 'bob');
    const [one, two] = await exportLines(source);
    const file = join(dir, 'links.jsonl');
    const other = { ...one, id: '0f0f0f0f-0000-4000-8000-000000000001', url: 'https://evil.example/' };
    writeFileSync(file, [one, two, other].map((l) => JSON.stringify(l)).join('\n'));

    const again = await cli(source, 'import', file, '--json');
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('error: 3 of 3 lines failed (partial_failure)\n');
    const codes = again.json().results.map((r: Json) => [r.line, r.error.code, r.error.field]);
    expect(codes).toEqual([[1, 'invalid_request', 'id'], [2, 'invalid_request', 'id'], [3, 'slug_taken', expect.anything()]]); // prettier-ignore
    expect((await cli(source, 'links', 'show', other.id)).code).toBe(1);

    const fresh = join(dir, 'fresh.db');
    const partly = await cli(fresh, 'import', file, '--json');
    expect(partly.json().results.map((r: Json) => [r.line, r.ok, r.error?.code])).toEqual([
      [1, true, undefined], [2, false, 'not_found'], [3, false, 'slug_taken'],
    ]); // prettier-ignore
    expect((await exportLines(fresh)).map((l) => l.id)).toEqual([one!.id]);
  });

  it('refuses a forged password hash and a line that claims a password it does not carry', async () => {
    const dir = tempDir();
    const source = join(dir, 'source.db');
    await json(source, 'shorten', 'https://example.com/1', '--alias', 'one', '--password', 'secret1');
    const [line] = await exportLines(source);
    const costly = String(line!.password_hash).replace(/^scrypt\$16384\$/, 'scrypt$1048576$');
    const file = join(dir, 'links.jsonl');
    const lines = [
      { ...line, password_hash: costly },
      { ...line, password_hash: null },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const fresh = join(dir, 'fresh.db');
    const refused = await cli(fresh, 'import', file, '--json');
    expect(refused.json().results.map((r: Json) => r.error.field)).toEqual([
      'password_hash',
      'password_hash',
    ]);
    expect(await exportLines(fresh)).toEqual([]);
  });

  it('refuses a health that is not one the checks could have written, naming it', async () => {
    const dir = tempDir();
    const source = join(dir, 'source.db');
    await json(source, 'shorten', 'https://example.com/1', '--alias', 'one');
    const [line] = await exportLines(source);
    const health = line!.health as Json;
    const forged = [
      { ...health, state: 'fine' },
      { ...health, final_url: 'https://example.com/\u0000x' },
      { ...health, final_url: 'not a url' },
      { ...health, status: 1000 },
    ];
    const file = join(dir, 'links.jsonl');
    writeFileSync(file, forged.map((h) => JSON.stringify({ ...line, health: h })).join('\n'));
    const fresh = join(dir, 'fresh.db');
    const refused = await cli(fresh, 'import', file, '--json');
    expect(refused.code).toBe(1);
    const errors = refused.json().results.map((r: Json) => r.error);
    expect(errors.map((e: Json) => e.code)).toEqual(Array(forged.length).fill('invalid_request'));
    for (const error of errors) expect(String(error.field)).toMatch(/^health/);
    expect(await exportLines(fresh)).toEqual([]);
  });

  it('refuses --account with a lossless export, whose lines name their owners', async () => {
    const dir = tempDir();
    const source = join(dir, 'source.db');
    await json(source, 'accounts', 'create', 'carol');
    await json(source, 'shorten', 'https://example.com/1', '--alias', 'one');
    const file = join(dir, 'links.jsonl');
    writeFileSync(file, (await cli(source, 'export')).stdout);
    const refused = await cli(source, 'import', file, '--account', 'carol');
    expect(refused.code).toBe(2);
  });
});
