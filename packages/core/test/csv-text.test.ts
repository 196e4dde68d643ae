import { describe, expect, it } from 'vitest';
import { csvText, LINK_CSV_COLUMNS, linkCsvRow } from '../src/index.js';
import type { LinkView } from '../src/index.js';

describe('csvText (decisions §25 "CSV out")', () => {
  it('quotes every cell holding a comma, a quote, a CR or an LF, and ends every row with CRLF', () => {
    const cells = { a: "Invoice\n=cmd|' /C calc'!A0", b: 'x\ry', c: 'say "hi", twice', d: 'plain' };
    expect(csvText(['a', 'b', 'c', 'd'], [cells])).toBe(
      'a,b,c,d\r\n"Invoice\n=cmd|\' /C calc\'!A0","x\ry","say ""hi"", twice",plain\r\n',
    );
  });

  it('guards a cell starting with a formula, and writes null and absent values as empty cells', () => {
    const text = csvText(
      ['v', 'w', 'x'],
      [
        { v: '=1+1', w: null },
        { v: '\r=1', x: false },
      ],
    );
    expect(text).toBe('v,w,x\r\n\'=1+1,,\r\n"\'\r=1",,false\r\n');
  });

  it('writes the header alone for no rows', () => {
    expect(csvText(['url', 'alias'], [])).toBe('url,alias\r\n');
  });
});

const LINK: LinkView = {
  id: '0190a4f2-7c3e-7b1a-9d4e-2f6a8b0c1d2e',
  domain: 's.test',
  slug: 'full',
  short_url: 'https://s.test/full',
  url: 'https://example.com/',
  title: 'T',
  status: 'active',
  clicks: 0,
  has_password: false,
  public_stats: true,
  expires_at: null,
  max_clicks: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  last_click_at: null,
  preview_url: 'https://s.test/full+',
  qr_svg_url: 'https://s.test/full.svg',
  qr_png_url: 'https://s.test/full.png',
  stats_url: 'https://sho.test/api/v1/links/0190a4f2-7c3e-7b1a-9d4e-2f6a8b0c1d2e/stats',
  tags: ['a', 'b'],
  rules: [],
  forward_query: false,
  redirect_status: 302,
  crawlable: false,
  expired_url: null,
  preview: { title: 'P', description: null, image: null },
  split: null,
};

describe('linkCsvRow', () => {
  it('gives every column of the links CSV a cell: tags joined by a comma, lists and objects as JSON', () => {
    const row = linkCsvRow(LINK);
    for (const column of LINK_CSV_COLUMNS) expect(row, column).toHaveProperty(column);
    expect(row).toMatchObject({
      alias: 'full',
      tags: 'a,b',
      rules: '',
      split: '',
      preview: '{"title":"P","description":null,"image":null}',
    });
    expect(LINK_CSV_COLUMNS).not.toContain('stats_url');
  });
});
