import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers.js';
import { runIn } from './cli-run.js';

let env: Record<string, string>;
let dir: string;
const run = (...args: string[]) => runIn(env, args);

beforeEach(() => {
  dir = tempDir();
  env = { DB_PATH: join(dir, 'shortener.db') };
});

describe('shortener link commands on the local database', () => {
  it('prints only the short URL when piped, the edit token on stderr, and the Link with --json', async () => {
    const piped = await run('shorten', 'https://example.com/a/long/page', '--alias', 'hello');
    expect(piped).toMatchObject({ code: 0, stdout: 'http://localhost:3000/hello\n' });
    expect(piped.stderr).toMatch(/edit token .*: et_[0-9A-Za-z]{32}\n$/);

    const json = await run('shorten', 'example.com', '--max-clicks', '3', '--utm-source', 'cli', '--json');
    expect(json.json()).toMatchObject({ url: 'https://example.com/?utm_source=cli', max_clicks: 3 });
    expect(json.json().edit_token).toMatch(/^et_/);
    expect(json.stderr).toBe('');
  });

  it('shows a summary of the new link on a terminal', async () => {
    const tty = await runIn(env, ['shorten', 'https://example.com/', '--title', 'Hi', '--private-stats'], {
      tty: true,
    });
    expect(tty.stdout).toMatch(/^http:\/\/localhost:3000\/[a-z0-9]{6}\n {2}url +https:\/\/example\.com\//);
    expect(tty.stdout).toMatch(/stats +private/);
  });

  it('exits 2 on bad flags and 1 on domain errors, with error: message (code) on stderr', async () => {
    const flag = await run('shorten', 'https://example.com/', '--max-clicks', 'many');
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe('error: --max-clicks must be a number. (invalid_request)\n');
    const scheme = await run('shorten', 'ftp://example.com/');
    expect({ code: scheme.code, stderr: scheme.stderr }).toEqual({
      code: 1,
      stderr: 'error: Only http and https URLs can be shortened. (unsupported_scheme)\n',
    });
    expect((await run('shorten')).code).toBe(2);
    expect((await run('links', 'update', 'hello')).code).toBe(2);
    // the other commands' flags are named as typed too
    const bulk = await run('bulk', '-', '--expires-in', 'soon');
    expect({ code: bulk.code, stderr: bulk.stderr }).toEqual({
      code: 2,
      stderr: 'error: --expires-in must be a number. (invalid_request)\n',
    });
    await run('accounts', 'create', 'flagged');
    const role = await run('keys', 'create', 'flagged', '--role', 'boss');
    expect({ code: role.code, stderr: role.stderr }).toEqual({
      code: 2,
      stderr: 'error: --role must be one of admin, editor, viewer or creator. (invalid_request)\n',
    });
    const hosts = await run('keys', 'create', 'flagged', '--url-hosts', 'example.com,not a host');
    expect(hosts.stderr).toMatch(/^error: --url-hosts, value 2: .*\(invalid_request\)\n$/);
  });

  it('shows, updates and deletes a link named by slug, short URL or id', async () => {
    const { id } = (await run('shorten', 'https://example.com/', '--alias', 'promo', '--json')).json();
    expect((await run('links', 'show', 'http://localhost:3000/promo+', '--json')).json().id).toBe(id);
    const updated = await run('links', 'update', 'promo', '--title', 'Promo', '--max-clicks', '5', '--json');
    expect(updated.json()).toMatchObject({ id, title: 'Promo', max_clicks: 5 });
    const removed = await run('links', 'update', id, '--no-title', '--no-max-clicks', '--json');
    expect(removed.json()).toMatchObject({ title: null, max_clicks: null });
    expect((await run('links', 'delete', 'promo')).stdout).toBe('deleted http://localhost:3000/promo\n');
    const gone = await run('links', 'show', id);
    expect({ code: gone.code, stderr: gone.stderr }).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/\(not_found\)\n$/),
    });
  });

  it('lists every link, or an account’s, page by page or all at once', async () => {
    expect((await run('accounts', 'create', 'alice')).code).toBe(0);
    await run('shorten', 'https://example.com/1', '--alias', 'one');
    await run('shorten', 'https://example.com/2', '--alias', 'two', '--account', 'alice');
    await run('shorten', 'https://example.com/3', '--alias', 'three', '--account', 'alice');
    const slugs = (result: { json(): { links: { slug: string }[] } }) =>
      result.json().links.map((l) => l.slug);
    expect(slugs(await run('links', 'list', '--json'))).toEqual(['three', 'two', 'one']);
    expect(slugs(await run('links', 'list', '--account', 'alice', '--json'))).toEqual(['three', 'two']);
    const page = await run('links', 'list', '--limit', '1');
    expect(page.stdout).toMatch(
      /^SHORT URL +STATUS +CLICKS +CREATED +TAGS +URL\nhttp:\/\/localhost:3000\/three /,
    );
    expect(page.stderr).toMatch(/^more: --cursor \S+, or --all\n$/);
    expect(slugs(await run('links', 'list', '--limit', '1', '--all', '--json'))).toEqual([
      'three',
      'two',
      'one',
    ]);
    expect(slugs(await run('links', 'list', '--query', 'TW', '--json'))).toEqual(['two']);
  });

  it('prints statistics with a by-day sparkline, checks aliases and claims by edit token', async () => {
    const { edit_token: token } = (
      await run('shorten', 'https://example.com/', '--alias', 'mine', '--json')
    ).json();
    const stats = await run('stats', 'mine', '--days', '7', '--tz', 'Asia/Kolkata');
    expect(stats.stdout).toMatch(
      /^clicks 0 .*last 7 days\nby day {2}▁{7} {2}\d{4}-\d\d-\d\d … \d{4}-\d\d-\d\d \(Asia\/Kolkata\)\n/,
    );
    const ranged = (
      await run('stats', 'mine', '--from', '2026-01-01', '--to', '2026-01-03', '--json')
    ).json();
    expect(ranged).toMatchObject({ from: '2026-01-01', to: '2026-01-03', days: 3 });
    expect(ranged.tz).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    const csv = await run(
      'stats',
      'mine',
      '--from',
      '2026-01-01',
      '--to',
      '2026-01-02',
      '--tz',
      'UTC',
      '--format',
      'csv',
    );
    expect(csv.stdout).toBe(
      'dimension,key,count\r\ntotal,,0\r\nunique,,0\r\nbots,,0\r\nimported,,0\r\nby_day,2026-01-01,0\r\nby_day,2026-01-02,0\r\n',
    );
    expect((await run('stats', 'mine', '--tz', 'Nowhere/Else')).code).toBe(2);
    expect((await run('stats', 'mine', '--from', '2026-01-02', '--to', '2026-01-01')).code).toBe(2);
    expect((await run('stats', 'mine', '--json')).json()).toMatchObject({ total: 0, days: 30 });
    expect((await run('stats', 'mine', '--days', '0')).code).toBe(2);

    expect((await run('check', 'mine', '--json')).json()).toMatchObject({
      status: 'taken',
      alternative: '127.0.0.1:3000',
    });
    expect((await run('check', 'api')).stdout).toMatch(/^reserved\tapi on localhost:3000\n$/);

    expect((await run('claim', token)).stderr).toMatch(/--account.*\(invalid_request\)/);
    await run('accounts', 'create', 'bob');
    expect((await run('claim', token, '--account', 'bob')).stdout).toBe('claimed 1 link\n');
    expect((await run('links', 'list', '--account', 'bob', '--json')).json().links).toHaveLength(1);
  });

  it('exits 1 when claim matches no link, saying so', async () => {
    await run('accounts', 'create', 'carol');
    const claimed = await run('claim', 'et_nothingmatchesthistoken000000000', '--account', 'carol');
    expect(claimed.code).toBe(1);
    expect(claimed.stdout).toBe('claimed 0 links\n');
    expect(claimed.stderr).toMatch(/no link was claimed.*\(not_found\)/);
  });

  it('offers backup only the flags it takes', async () => {
    const help = (await run('backup', '--help')).stdout;
    expect(help).toMatch(/--db-path/);
    expect(help).not.toMatch(/--server|--key|--token|--account/);
  });

  it('draws the QR code in the terminal or writes a PNG or SVG', async () => {
    await run('shorten', 'https://example.com/', '--alias', 'qr');
    const text = await run('qr', 'qr');
    expect(text.stdout).toMatch(/[▀▄█]/);
    expect(text.stdout.trimEnd().endsWith('http://localhost:3000/qr')).toBe(true);

    const png = join(dir, 'qr.png');
    expect((await run('qr', 'qr', '--out', png, '--size', '256')).code).toBe(0);
    const image = PNG.sync.read(readFileSync(png));
    expect(image.width).toBe(256);
    expect(jsQRModule.default(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(
      'http://localhost:3000/qr',
    );
    await run('qr', 'qr', '--out', join(dir, 'qr.svg'), '--fg', '#123456');
    expect(readFileSync(join(dir, 'qr.svg'), 'utf8')).toMatch(/^<svg[^]*#123456/);
    expect((await run('qr', 'qr', '--out', join(dir, 'qr.gif'))).code).toBe(2);
    expect((await run('qr', 'nothing')).code).toBe(1);
  });

  it('backs the database up, refuses to overwrite without --force, and refuses a memory store', async () => {
    await run('shorten', 'https://example.com/', '--alias', 'kept');
    const backup = join(dir, 'backups', 'copy.db');
    expect((await run('backup', backup, '--json')).json()).toMatchObject({ file: backup });
    expect((await runIn({ DB_PATH: backup }, ['links', 'show', 'kept'])).code).toBe(0);
    expect((await run('backup', backup)).stderr).toMatch(/--force.*\(usage\)\n$/);
    expect((await run('backup', backup, '--force')).code).toBe(0);
    const memory = await runIn({ ...env, STORE: 'memory' }, ['backup', join(dir, 'm.db')]);
    expect(memory.code).toBe(2);
    expect(existsSync(join(dir, 'm.db'))).toBe(false);
  });
});

describe('bulk, export and import', () => {
  it('shortens one URL per line from stdin, reports every line and exits 1 when one fails', async () => {
    const result = await runIn(env, ['bulk', '-', '--json'], {
      stdin: 'https://a.example\n\n# note\nnot a url\nb.example\n',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: 1 of 3 lines failed (partial_failure)\n');
    const lines = result.json().results.map((r: { line: number; ok: boolean }) => [r.line, r.ok]);
    expect(lines).toEqual([[1, true], [4, false], [5, true]]); // prettier-ignore
    expect(result.json().results[0].link.edit_token).toMatch(/^et_/);
  });

  it('counts a single line in the singular', async () => {
    const result = await runIn(env, ['bulk', '-'], { stdin: 'not a url\n' });
    expect(result.stderr).toMatch(/^error: 1 of 1 line failed \(partial_failure\)\n$/m);
  });

  it('draws a progress bar on a terminal’s stderr only', async () => {
    const file = join(dir, 'urls.txt');
    writeFileSync(file, 'https://a.example\nhttps://b.example\n');
    expect((await runIn(env, ['bulk', file], { tty: true })).stderr).toMatch(/\[#{15}-{15}\] 1\/2/);
    expect((await runIn(env, ['bulk', file])).stderr).toBe('');
  });

  it('creates new links from Link objects (a remote export), refusing those that would fail open', async () => {
    await run(
      'shorten',
      'https://example.com/x',
      '--alias',
      'xx',
      '--title',
      'X, "quoted"',
      '--max-clicks',
      '9',
    );
    await run('shorten', 'https://example.com/y', '--alias', 'yy', '--password', 'secret');
    await run('shorten', 'https://example.com/z', '--alias', 'zz');
    await run('links', 'disable', 'zz');
    const views = (await run('links', 'list', '--json')).json().links as Record<string, unknown>[];
    const jsonl = join(dir, 'links.jsonl');
    writeFileSync(jsonl, views.map((view) => `${JSON.stringify(view)}\n`).join(''));

    env = { DB_PATH: join(dir, 'other.db') };
    const imported = await run('import', jsonl, '--json');
    expect(imported.code).toBe(1);
    const [z, y, x] = imported.json().results;
    expect(x.link).toMatchObject({ slug: 'xx', title: 'X, "quoted"', max_clicks: 9, status: 'active' });
    expect(x.notes).toHaveLength(1);
    expect([y.error.field, z.error.field]).toEqual(['password', 'status']);
    expect((await run('links', 'list', '--json')).json().links).toHaveLength(1);
  });

  it('imports a CSV of url,alias,title and reports the lines it could not create', async () => {
    const csv = join(dir, 'links.csv');
    writeFileSync(
      csv,
      'url,alias,title\nhttps://example.com/a,alpha,"A, first"\nftp://nope,beta,\nhttps://example.com/c,,\n',
    );
    const result = await run('import', csv);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^LINE +SHORT URL/);
    expect(result.stdout).toMatch(/\n2 +http:\/\/localhost:3000\/alpha +et_/);
    expect(result.stdout).toMatch(/\n3 +error: .+ \(unsupported_scheme\)/);
    expect((await run('links', 'show', 'alpha', '--json')).json().title).toBe('A, first');
    expect((await run('links', 'list', '--json')).json().links).toHaveLength(2);
  });
});

describe('shortener import --from on the local database', () => {
  it('ends with the counts and the renamed and refused rows, listing skipped ones only with --verbose', async () => {
    expect((await run('accounts', 'create', 'ines')).code).toBe(0);
    const csv = join(dir, 'bitly.csv');
    writeFileSync(
      csv,
      'Link,Destination URL,Title\n' +
        'https://bit.ly/inesone,https://example.com/1,One\n' +
        'https://bit.ly/inestwo,https://example.com/2,Two\n' +
        'https://bit.ly/inesftp,ftp://example.com/x,Refused\n',
    );
    const importIt = (...flags: string[]) =>
      run('import', '--from', 'csv', csv, '--account', 'ines', ...flags);
    expect((await importIt()).stdout).toMatch(/^3 rows: 2 imported, 0 renamed, 0 skipped, 1 refused/);

    // a re-run skips every row it brought before: counted, not listed (issue 60)
    const again = await importIt();
    expect(again.code).toBe(0);
    const lines = again.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^3 rows: 0 imported, 0 renamed, 2 skipped, 1 refused/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^refused +https:\/\/bit\.ly\/inesftp: /),
      '(2 skipped rows not listed: --verbose lists them)',
    ]);

    const verbose = (await importIt('--verbose')).stdout.trimEnd().split('\n');
    expect(verbose.slice(1).map((line) => line.split(/ +/, 2).join(' '))).toEqual([
      'skipped https://bit.ly/inesone:',
      'skipped https://bit.ly/inestwo:',
      'refused https://bit.ly/inesftp:',
    ]);
    // --json is for programs: every row not imported, as before
    const json = (await importIt('--json')).json();
    expect(json.not_imported.map((row: { outcome: string }) => row.outcome)).toEqual([
      'skipped',
      'skipped',
      'refused',
    ]);
  });
});
