import { describe, expect, it } from 'vitest';
import { csvText, LINK_CSV_COLUMNS, linkCsvRow, toLinkView } from '@shortener/core';
import type { LinkRecord, LinkView } from '@shortener/core';
import { aLink, aServiceConfig, FIXTURE_TIME } from '@shortener/testkit';
import { csvSource } from '../src/index.js';
import { findColumns, LINK_CSV_FIELDS } from '../src/csv/columns.js';
import { collect, plain } from './collect.js';

// Decisions §25: a links CSV we wrote (`GET /api/v1/links?format=csv`, `export --format csv`), imported
// with `--from csv`, gives back the same links: every column is read, and the `'` guard taken off.

const rule = { when: { country: ['AT'], language: ['de'] }, url: 'https://example.at/' };
const split = [
  { url: 'https://example.com/a', weight: 60 },
  { url: 'https://example.com/b', weight: 40 },
];
const preview = { title: '=Preview, "quoted"', description: 'one\ntwo', image: 'https://example.com/i.png' };

/** A link setting every field a link can have, as the Link object shows it (a CSV's row is made of it). */
const link = (overrides: Partial<LinkRecord> = {}): LinkView =>
  toLinkView(
    aLink({
      domain: 's.test',
      slug: 'full',
      url: 'https://example.com/full',
      title: "Invoice\n=cmd|' /C calc'!A0",
      clicks: 3,
      publicStats: false,
      expiresAt: Date.parse('2099-01-02T03:04:05.678Z'),
      maxClicks: 5,
      tags: ['a', 'b-c'],
      rules: [rule],
      forwardQuery: true,
      redirectStatus: 307,
      crawlable: true,
      expiredUrl: 'https://example.com/gone',
      preview,
      split,
      ...overrides,
    }),
    aServiceConfig({ shortDomains: [{ origin: 'https://s.test', host: 's.test' }] }),
    FIXTURE_TIME,
  );

const rowsOf = async (links: readonly LinkView[]) =>
  (await collect(csvSource(csvText(LINK_CSV_COLUMNS, links.map(linkCsvRow))))).map((step) => plain(step.row));

describe('csvSource on our own links CSV (decisions §25)', () => {
  it('reads every field back, the guard against formulas taken off', async () => {
    expect(await rowsOf([link({})])).toEqual([
      {
        originalShortUrl: 'https://s.test/full',
        domain: 's.test',
        code: 'full',
        url: 'https://example.com/full',
        title: "Invoice\n=cmd|' /C calc'!A0",
        tags: ['a', 'b-c'],
        createdAt: FIXTURE_TIME,
        totalClicks: 3,
        expiresAt: Date.parse('2099-01-02T03:04:05.678Z'),
        maxClicks: 5,
        publicStats: false,
        forwardQuery: true,
        crawlable: true,
        redirectStatus: 307,
        expiredUrl: 'https://example.com/gone',
        rules: [rule],
        split,
        preview,
      },
    ]);
  });

  it('reads a plain link as having none of the settings', async () => {
    const [row] = await rowsOf([
      link({
        title: null,
        tags: [],
        rules: [],
        split: null,
        preview: null,
        expiredUrl: null,
        maxClicks: null,
        expiresAt: null,
      }),
    ]);
    expect(row).toMatchObject({ title: null, tags: [], publicStats: false });
    for (const field of ['rules', 'split', 'preview', 'expiredUrl', 'maxClicks', 'expiresAt'])
      expect(row, field).not.toHaveProperty(field);
  });

  it('refuses a link that had a password or was disabled: here it would be open', async () => {
    const rows = await rowsOf([link({ passwordHash: 'scrypt$…' }), link({ disabled: true })]);
    expect(rows.map((row) => row.problem)).toEqual([
      expect.stringMatching(/^password at the source/),
      expect.stringMatching(/^disabled at the source/),
    ]);
  });

  it('names a cell it cannot read as the row’s problem', async () => {
    const text = 'url,rules,max_clicks,crawlable\r\nhttps://example.com/,[oops,-1,maybe\r\n';
    const [step] = await collect(csvSource(text));
    expect(step?.row.problem).toBe('bad max_clicks "-1"; bad crawlable "maybe"; bad rules "[oops"');
  });

  it('has a cell for every column: tags joined by a comma, rules, a split and a preview as JSON', () => {
    const row = linkCsvRow(link({ rules: [] }));
    for (const column of LINK_CSV_COLUMNS) expect(row, column).toHaveProperty(column);
    expect(row).toMatchObject({ alias: 'full', tags: 'a,b-c', rules: '', split: JSON.stringify(split) });
    expect(row.preview).toBe(JSON.stringify(preview));
  });

  it('finds the column of every field the links CSV carries', () => {
    const columns = findColumns(LINK_CSV_COLUMNS);
    for (const [column, field] of Object.entries(LINK_CSV_FIELDS)) {
      if (field !== null) expect(columns[field], column).toBe(LINK_CSV_COLUMNS.indexOf(column as never));
    }
  });
});
