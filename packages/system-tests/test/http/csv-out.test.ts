import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreCell } from '@shortener/core';
import { runIn } from '../cli-run.js';
import { readCsvTwice } from '../csv-parsers.js';
import { tempDir } from '../helpers.js';
import { eventually, jsonOf, startTestServer } from './harness.js';
import type { Json, TestServer } from './harness.js';

// Decisions §25 "CSV out": every CSV we write (links list, export, statistics, import reports) is
// RFC 4180 with CRLF line ends, read alike by csv-parse and Python's csv, formulas guarded with `'`; and
// a links CSV imported again with `shortener import --from csv` gives back the same links.

// Fixed origins, so the CLI's databases and the server agree on short URLs whatever the port.
const SITE = { SHORT_DOMAINS: 'https://s.test', PUBLIC_BASE_URL: 'https://sho.test' };
// The server's store is a SQLite file the CLI exports from, on every run of the suite: what is written
// to CSV does not depend on the store.
let source: Record<string, string>;
const INJECTION = "Invoice\n=cmd|' /C calc'!A0";

let server: TestServer;
let alice: { key: string };
let dir: string;

/** A link setting every field a link can have, and two plainer ones. */
const LINKS = [
  {
    url: 'https://example.com/full',
    alias: 'full',
    title: INJECTION,
    tags: ['a', 'b-c', 'd_e'],
    expires_at: '2099-01-02T03:04:05.678Z',
    starts_at: '2098-12-31T23:59:59.001Z',
    max_clicks: 5,
    public_stats: false,
    forward_query: true,
    redirect_status: 307,
    crawlable: true,
    expired_url: 'https://example.com/gone',
    preview: { title: '=Preview, "quoted"', description: 'one\r\ntwo', image: 'https://example.com/i.png' },
    rules: [
      { when: { country: ['AT'], language: ['de'] }, url: 'https://example.at/' },
      { when: { device: ['mobile'], after: '2026-01-01T00:00:00.000Z' }, url: 'https://m.example.com/' },
    ],
    split: [
      { url: 'https://example.com/a', weight: 60 },
      { url: 'https://example.com/b', weight: 40 },
    ],
  },
  // a lone tag with a space, and tags of other scripts, come back as they were (decisions §25)
  { url: 'https://example.com/plain', alias: '-plain', tags: ['spring sale'] },
  {
    url: 'https://example.com/solo?x=1,2',
    alias: 'solo',
    title: '@home',
    tags: ['Café Menu', '東京'],
    redirect_status: 301,
  },
];

beforeAll(async () => {
  dir = tempDir();
  source = { ...SITE, STORE: 'sqlite', DB_PATH: join(dir, 'source.db') };
  server = await startTestServer(source);
  expect((await runIn(source, ['accounts', 'create', 'alice'])).code).toBe(0);
  alice = (await runIn(source, ['keys', 'create', 'alice', '--json'])).json();
  for (const link of LINKS)
    expect((await server.api('/api/v1/links', { key: alice.key, json: link })).status).toBe(201);
});
afterAll(() => server.close());

/**
 * Alice's links as the API shows them, by slug, without what a new link has afresh: its id, times of
 * change, and who made and changed it (the importer, there).
 */
const comparable = (links: readonly Json[]) =>
  links
    .map(
      ({
        id: _id,
        stats_url: _stats,
        updated_at: _updated,
        created_by: _by,
        updated_by: _changed,
        ...link
      }) => link,
    )
    .sort((a, b) => String(a.slug).localeCompare(String(b.slug)));

const listed = async () =>
  comparable((await jsonOf(await server.api('/api/v1/links', { key: alice.key }))).links as Json[]);

/** What `shortener import --from csv` of `csv` into a fresh database gives: its links, comparable. */
async function importedBack(csv: string, name: string): Promise<Json[]> {
  const file = join(dir, `${name}.csv`);
  writeFileSync(file, csv);
  const env = { DB_PATH: join(dir, `${name}.db`), ...SITE };
  expect((await runIn(env, ['accounts', 'create', 'bob'])).code).toBe(0);
  const run = await runIn(env, ['import', '--from', 'csv', file, '--account', 'bob', '--json']);
  expect([run.code, run.stderr]).toEqual([0, '']);
  expect(run.json()).toMatchObject({ state: 'done', imported: LINKS.length, not_imported: [] });
  const lines = (await runIn(env, ['export'])).stdout.split('\n').filter((line) => line !== '');
  return comparable(lines.map((line) => JSON.parse(line) as Json)).map(
    ({
      imported_clicks: _i,
      disabled: _d,
      account: _a,
      account_id: _ai,
      password_hash: _p,
      edit_token_hash: _e,
      health_failures: _h,
      ...link
    }) => link,
  );
}

describe('the links CSV (decisions §25)', () => {
  it('keeps a title with a line break and a formula in one quoted cell of one row', async () => {
    const response = await server.api('/api/v1/links?format=csv', { key: alice.key });
    const [header = [], ...rows] = readCsvTwice(await response.text());
    expect(rows).toHaveLength(LINKS.length);
    const titles = rows.map((row) => row[header.indexOf('title')]);
    expect(titles).toContain(INJECTION);
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(rows.flat()).toContain("'-plain");
    // the health as JSON, as the Link object shows it (not an object's name)
    const health = rows.map((row) => JSON.parse(row[header.indexOf('health')] ?? '') as Json);
    expect(health[0]).toEqual({ state: 'unknown', status: null, reason: null, final_url: null, checked_at: null, since: null }); // prettier-ignore
  });

  it('is written so by `export --format csv` too, tags joined by a comma in one cell', async () => {
    const run = await runIn(source, ['export', '--format', 'csv']);
    expect(run.code).toBe(0);
    const [header = [], ...rows] = readCsvTwice(run.stdout);
    expect(rows).toHaveLength(LINKS.length);
    expect(rows.map((row) => restoreCell(row[header.indexOf('title')] ?? ''))).toContain(INJECTION);
    expect(rows.map((row) => row[header.indexOf('tags')])).toContain('a,b-c,d_e');
  });
});

describe('a links CSV imported again (decisions §25)', () => {
  it('gives back the same links from the API’s CSV, field for field', async () => {
    const csv = await (await server.api('/api/v1/links?format=csv', { key: alice.key })).text();
    expect(await importedBack(csv, 'from-api')).toEqual(await listed());
  });

  it('gives back the same links from `export --format csv`, field for field', async () => {
    const run = await runIn(source, ['export', '--format', 'csv']);
    expect(await importedBack(run.stdout, 'from-export')).toEqual(await listed());
  });
});

describe('the other CSV files (decisions §25)', () => {
  it('writes statistics as CSV that both parsers read alike', async () => {
    const { links } = await jsonOf(await server.api('/api/v1/links', { key: alice.key }));
    const response = await server.api(`/api/v1/links/${links[0].id}/stats?format=csv`, { key: alice.key });
    const [header, ...rows] = readCsvTwice(await response.text());
    expect(header).toEqual(['dimension', 'key', 'count']);
    expect(rows.slice(0, 3).map((row) => row[0])).toEqual(['total', 'unique', 'bots']);
  });

  it('writes an import report with CRLF line ends and a formula guarded, whatever its cells hold', async () => {
    const csv = `short url,long url\r\nhttps://old.example/x,"javascript:x\n=cmd|' /C calc'!A0"\r\n`;
    const started = await jsonOf(
      await server.api('/api/v1/imports', { key: alice.key, json: { source: 'csv', csv } }),
      202,
    );
    await eventually(async () => {
      const job = await jsonOf(await server.api(`/api/v1/imports/${started.id}`, { key: alice.key }));
      expect(job.state).toBe('done');
    });
    const report = await server.api(`/api/v1/imports/${started.id}/report`, { key: alice.key });
    const rows = readCsvTwice(await report.text());
    expect(rows).toHaveLength(2);
    expect(rows[1]?.slice(0, 2)).toEqual(['https://old.example/x', 'refused']);
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});
