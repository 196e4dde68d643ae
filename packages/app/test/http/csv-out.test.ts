import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreCell } from '@shortener/core';
import { runIn } from '../cli-run.js';
import { readCsvTwice } from '../csv-parsers.js';
import { eventually, jsonOf, startTestServer } from './harness.js';
import type { TestAccount, TestServer } from './harness.js';

// Decisions §25 "CSV out": every CSV we write (links list, export, statistics, import reports) is
// RFC 4180 with CRLF line ends, read alike by csv-parse and Python's csv, formulas guarded with `'`.

// Fixed origins, so the CLI's databases and the server agree on short URLs whatever the port.
const SITE = { SHORT_DOMAINS: 'https://s.test', PUBLIC_BASE_URL: 'https://sho.test' };
const INJECTION = "Invoice\n=cmd|' /C calc'!A0";

let server: TestServer;
let alice: TestAccount;

/** A link setting every field a link can have, and two plainer ones. */
const LINKS = [
  {
    url: 'https://example.com/full',
    alias: 'full',
    title: INJECTION,
    tags: ['a', 'b-c', 'd_e'],
    expires_at: '2099-01-02T03:04:05.678Z',
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
  { url: 'https://example.com/plain', alias: '-plain' },
  {
    url: 'https://example.com/solo?x=1,2',
    alias: 'solo',
    title: '@home',
    tags: ['solo'],
    redirect_status: 301,
  },
];

beforeAll(async () => {
  server = await startTestServer(SITE);
  alice = await server.createAccount('alice');
  for (const link of LINKS)
    expect((await server.api('/api/v1/links', { key: alice.key, json: link })).status).toBe(201);
});
afterAll(() => server.close());

describe('the links CSV (decisions §25)', () => {
  it('keeps a title with a line break and a formula in one quoted cell of one row', async () => {
    const response = await server.api('/api/v1/links?format=csv', { key: alice.key });
    const [header = [], ...rows] = readCsvTwice(await response.text());
    expect(rows).toHaveLength(LINKS.length);
    const titles = rows.map((row) => row[header.indexOf('title')]);
    expect(titles).toContain(INJECTION);
    for (const cell of rows.flat()) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(rows.flat()).toContain("'-plain");
  });

  it('is written so by `export --format csv` too, tags joined by a comma in one cell', async () => {
    const run = await runIn({ DB_PATH: server.dbPath, ...SITE }, ['export', '--format', 'csv']);
    expect(run.code).toBe(0);
    const [header = [], ...rows] = readCsvTwice(run.stdout);
    expect(rows).toHaveLength(LINKS.length);
    expect(rows.map((row) => restoreCell(row[header.indexOf('title')] ?? ''))).toContain(INJECTION);
    expect(rows.map((row) => row[header.indexOf('tags')])).toContain('a,b-c,d_e');
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
