import { describe, expect, it } from 'vitest';
import { csvText, LINK_CSV_COLUMNS, linkCsvRow } from '@shortener/core';
import type { LinkView } from '@shortener/core';
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

const link = (overrides: Partial<LinkView>): LinkView => ({
  id: '0190a4f2-7c3e-7b1a-9d4e-2f6a8b0c1d2e',
  domain: 's.test',
  slug: 'full',
  short_url: 'https://s.test/full',
  url: 'https://example.com/full',
  title: "Invoice\n=cmd|' /C calc'!A0",
  status: 'active',
  clicks: 3,
  has_password: false,
  public_stats: false,
  expires_at: '2099-01-02T03:04:05.678Z',
  max_clicks: 5,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-02T00:00:00.000Z',
  last_click_at: null,
  preview_url: 'https://s.test/full+',
  qr_svg_url: 'https://s.test/full.svg',
  qr_png_url: 'https://s.test/full.png',
  stats_url: 'https://sho.test/api/v1/links/0190a4f2-7c3e-7b1a-9d4e-2f6a8b0c1d2e/stats',
  tags: ['a', 'b-c'],
  rules: [rule],
  forward_query: true,
  redirect_status: 307,
  crawlable: true,
  expired_url: 'https://example.com/gone',
  preview,
  split,
  ...overrides,
});

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
        createdAt: Date.parse('2026-01-01T00:00:00.000Z'),
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
        expired_url: null,
        max_clicks: null,
        expires_at: null,
      }),
    ]);
    expect(row).toMatchObject({ title: null, tags: [], publicStats: false });
    for (const field of ['rules', 'split', 'preview', 'expiredUrl', 'maxClicks', 'expiresAt'])
      expect(row, field).not.toHaveProperty(field);
  });

  it('refuses a link that had a password or was disabled: here it would be open', async () => {
    const rows = await rowsOf([link({ has_password: true }), link({ status: 'disabled' })]);
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

  it('finds the column of every field the links CSV carries', () => {
    const columns = findColumns(LINK_CSV_COLUMNS);
    for (const [column, field] of Object.entries(LINK_CSV_FIELDS)) {
      if (field !== null) expect(columns[field], column).toBe(LINK_CSV_COLUMNS.indexOf(column as never));
    }
  });
});
