import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIn, useRemoteCli } from './cli-run.js';
import { tempDir } from './helpers.js';

const cli = useRemoteCli('alice');
const { run, withKey } = cli;

describe('shortener link commands against a server (remote mode)', () => {
  it('creates anonymously and manages the link by id with its edit token', async () => {
    const created = (await run('shorten', 'https://example.com/anon', '--json')).json();
    expect(created.short_url).toBe(`http://${cli.server.hostA}/${created.slug}`);
    const token = created.edit_token as string;
    const updated = await run('links', 'update', created.id, '--token', token, '--title', 'Anon', '--json');
    expect(updated.json()).toMatchObject({ id: created.id, title: 'Anon' });
    const bySlug = await run('links', 'show', created.slug);
    expect(bySlug).toMatchObject({ code: 1, stderr: expect.stringMatching(/--key.*\(invalid_request\)\n$/) });
    expect((await run('links', 'show', created.id)).stderr).toMatch(/\(forbidden\)\n$/);
    expect((await run('links', 'delete', created.id, '--token', token)).code).toBe(0);
  });

  it('manages the key’s links by slug or short URL: list, show, stats, update, delete', async () => {
    const piped = await withKey('shorten', 'https://example.com/keyed', '--alias', 'keyed');
    expect(piped).toMatchObject({ code: 0, stdout: `http://${cli.server.hostA}/keyed\n`, stderr: '' });
    expect(
      (await withKey('links', 'list', '--json')).json().links.map((l: { slug: string }) => l.slug),
    ).toEqual(['keyed']);
    expect((await withKey('links', 'show', `http://${cli.server.hostA}/keyed`, '--json')).json().slug).toBe(
      'keyed',
    );
    expect(
      (await withKey('stats', 'keyed', '--days', '3', '--tz', 'Europe/Vienna', '--json')).json(),
    ).toMatchObject({
      days: 3,
      total: 0,
      tz: 'Europe/Vienna',
    });
    const ranged = await withKey('stats', 'keyed', '--from', '2026-01-01', '--to', '2026-01-02', '--json');
    expect(ranged.json()).toMatchObject({ from: '2026-01-01', to: '2026-01-02', days: 2 });
    expect((await withKey('links', 'update', 'keyed', '--private-stats', '--json')).json().public_stats).toBe(
      false,
    );
    expect((await withKey('links', 'delete', 'keyed')).stdout).toBe(
      `deleted http://${cli.server.hostA}/keyed\n`,
    );
    expect((await withKey('links', 'show', 'keyed')).stderr).toMatch(/\(not_found\)\n$/);
  });

  it('checks aliases, draws QR codes and claims anonymous links', async () => {
    const { edit_token: token } = (
      await run('shorten', 'https://example.com/q', '--alias', 'remote-qr', '--json')
    ).json();
    expect((await run('check', 'remote-qr', '--json')).json()).toMatchObject({
      status: 'taken',
      domain: cli.server.hostA,
    });
    const qr = await run('qr', 'remote-qr');
    expect(qr.stdout.trimEnd().endsWith(`http://${cli.server.hostA}/remote-qr`)).toBe(true);
    const png = join(tempDir(), 'r.png');
    expect((await run('qr', `http://${cli.server.hostA}/remote-qr`, '--out', png)).code).toBe(0);
    expect(readFileSync(png).subarray(1, 4).toString()).toBe('PNG');
    expect((await run('qr', 'no-such-link')).stderr).toMatch(/\(not_found\)\n$/);

    expect((await withKey('claim', token)).stdout).toBe('claimed 1 link\n');
    expect((await withKey('links', 'show', 'remote-qr', '--json')).json().slug).toBe('remote-qr');
  });

  it('exports the key’s links and imports them with per-line results', async () => {
    await withKey('shorten', 'https://example.com/e', '--alias', 'exported', '--title', 'E');
    const exported = await withKey('export');
    const file = join(tempDir(), 'links.jsonl');
    writeFileSync(file, exported.stdout.replace(/"slug":"exported"/, '"slug":"imported"') + exported.stdout);
    const imported = await withKey('import', file, '--json');
    expect(imported.code).toBe(1);
    const results = imported.json().results as {
      ok: boolean;
      link?: { slug: string };
      error?: { code: string };
    }[];
    expect(results.find((r) => r.link?.slug === 'imported')).toBeDefined();
    expect(results.filter((r) => !r.ok).map((r) => r.error?.code)).toContain('slug_taken');
  });

  it('refuses operator commands remotely and reports bad keys and unreachable servers', async () => {
    for (const args of [
      ['backup', join(tempDir(), 'b.db')],
      ['links', 'disable', 'x'],
    ]) {
      const refused = await run(...args);
      expect(refused, args.join(' ')).toMatchObject({
        code: 2,
        stderr: expect.stringMatching(/\(usage\)\n$/),
      });
    }
    const bad = await runIn(cli.env, ['links', 'list', '--key', 'shk_00000000000000000000000000000000']);
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/\(unauthorized\)\n$/) });
    const gone = await runIn({ SHORTENER_URL: 'http://127.0.0.1:9' }, ['check', 'abc']);
    expect(gone).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/^error: cannot reach .+ \(unreachable\)\n$/),
    });
    expect((await run('shorten', 'https://example.com', '--account', 'alice')).code).toBe(2);
  });
});
