import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runIn, useRemoteCli } from './cli-run.js';
import { tempDir } from './helpers.js';
import type { Json } from './http/harness.js';

// decisions §15 on the command line: --tag, --rule, --forward-query, --redirect-status, --crawlable,
// `links list --tag` and `tags`, against a server.

const cli = useRemoteCli('carol');
const { withKey } = cli;

describe('tags and rules on the command line', () => {
  it('creates with tags and rules, filters by tag, lists the tags and replaces them', async () => {
    const rule = JSON.stringify({ when: { os: 'ios' }, url: 'https://apps.example/ios' });
    const created = (
      await withKey(
        'shorten',
        'https://example.com/cli',
        '--tag',
        'Summer',
        '--tag',
        'print',
        '--rule',
        rule,
        '--forward-query',
        '--redirect-status',
        '307',
        '--crawlable',
        '--json',
      )
    ).json();
    const { tags, rules, forward_query, redirect_status, crawlable } = created;
    expect([tags, rules[0].url, forward_query, redirect_status, crawlable]).toEqual([
      ['Summer', 'print'],
      'https://apps.example/ios',
      true,
      307,
      true,
    ]);
    await withKey('shorten', 'https://example.com/other', '--tag', 'summer');
    const listed = (await withKey('links', 'list', '--tag', 'summer', '--tag', 'print', '--json')).json();
    expect(listed.links.map((l: { id: string }) => l.id)).toEqual([created.id]);
    expect((await withKey('tags', '--json')).json()).toEqual({
      tags: [
        { name: 'print', links: 1, clicks: 0 },
        { name: 'Summer', links: 2, clicks: 0 },
      ],
    });
    const updated = (
      await withKey('links', 'update', created.id, '--tag', 'winter', '--no-rules', '--json')
    ).json();
    expect(updated).toMatchObject({ tags: ['winter'], rules: [] });
  });

  it('names each rule by its words and its destination’s path in links show and stats (issue 52)', async () => {
    const rule = JSON.stringify({ when: { country: ['DE', 'AT'] }, url: 'https://example.com/de/pricing' });
    const created = (
      await withKey('shorten', 'https://example.com/en/pricing', '--rule', rule, '--json')
    ).json();
    const shown = (await withKey('links', 'show', created.id)).stdout;
    expect(shown).toContain('rule 1    In Germany or Austria → example.com/de/pricing');
    expect(shown).toContain('otherwise Otherwise → example.com/en/pricing');
    expect(shown).not.toContain('example.com/…');
    await cli.server.visit(String(created.short_url));
    const stats = (await withKey('stats', created.id)).stdout;
    expect(stats).toMatch(/rule +Otherwise → example\.com\/en\/pricing +1/);
  });

  it('refuses a bad --rule with a usage error and a bad tag with validation_error', async () => {
    expect((await withKey('shorten', 'https://example.com/x', '--rule', 'not json')).code).toBe(2);
    const bad = await withKey('shorten', 'https://example.com/x', '--tag', 'no/way');
    expect(bad.stderr).toMatch(/validation_error/);
  });
});

describe('a split test on the command line (decisions §19)', () => {
  it('creates with --split URL=WEIGHT, replaces the entries and removes them with --no-split', async () => {
    const split = ['--split', 'https://example.com/a=50', '--split', 'https://example.com/b=50'];
    const created = (await withKey('shorten', 'https://example.com/s', ...split, '--json')).json();
    expect(created.split).toEqual([
      { url: 'https://example.com/a', weight: 50 },
      { url: 'https://example.com/b', weight: 50 },
    ]);
    const moved = ['--split', 'https://example.org/x=90', '--split', 'https://example.org/y=10'];
    const updated = (await withKey('links', 'update', created.id, ...moved, '--json')).json();
    expect(updated.split.map((e: Json) => e.weight)).toEqual([90, 10]);
    const removed = (await withKey('links', 'update', created.id, '--no-split', '--json')).json();
    expect(removed.split).toBeNull();
    expect((await withKey('shorten', 'https://example.com/x', '--split', 'https://example.com/a')).code).toBe(
      2,
    );
    const unbalanced = await withKey(
      'shorten',
      'https://example.com/x',
      ...split.slice(0, 2),
      '--split',
      'https://example.com/b=10',
    );
    expect(unbalanced.stderr).toMatch(/invalid_request/);
  });
});

describe('tags and rules through export and import (local, lossless)', () => {
  it('brings tags, rules, the redirect settings and a split back from JSON lines and from CSV', async () => {
    const dir = tempDir();
    const site = { SHORT_DOMAINS: 'https://s.test', PUBLIC_BASE_URL: 'https://sho.test' };
    const local = (db: string, ...args: string[]) => runIn({ DB_PATH: join(dir, db), ...site }, args);
    const rule = JSON.stringify({ when: { country: ['AT'], language: 'de' }, url: 'https://example.at/' });
    const made = await local('source.db', 'shorten', 'https://example.com/r', '--tag', 'a', '--tag', 'b');
    expect(made.code).toBe(0);
    await local(
      'source.db',
      'links',
      'update',
      made.stdout.trim(),
      '--rule',
      rule,
      '--crawlable',
      '--redirect-status',
      '307',
      '--split',
      'https://example.com/a?x=1=60',
      '--split',
      'https://example.com/b=40',
    );
    const settings = (line: Json) => [
      line.tags,
      line.rules,
      line.forward_query,
      line.redirect_status,
      line.crawlable,
      line.split,
    ];
    const exported = JSON.parse((await local('source.db', 'export')).stdout) as Json;
    expect(settings(exported)).toEqual([
      ['a', 'b'],
      [{ when: { country: ['AT'], language: ['de'] }, url: 'https://example.at/' }],
      false,
      307,
      true,
      [
        { url: 'https://example.com/a?x=1', weight: 60 },
        { url: 'https://example.com/b', weight: 40 },
      ],
    ]);
    for (const format of ['jsonl', 'csv']) {
      const file = join(dir, `links.${format}`);
      expect((await local('source.db', 'export', '--format', format, '--out', file)).code).toBe(0);
      const imported = await local(`${format}.db`, 'import', file);
      expect(imported.stderr).toBe('');
      expect(settings(JSON.parse((await local(`${format}.db`, 'export')).stdout) as Json)).toEqual(
        settings(exported),
      );
    }
  });
});
