import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeEach, describe, expect, it } from 'vitest';
import { neutraliseCell, restoreCell } from '@shortener/core';
import { runIn } from './cli-run.js';
import { tempDir } from './helpers.js';

let env: Record<string, string>;
let dir: string;
const run = (...args: string[]) => runIn(env, args);
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const titles = async () =>
  Object.fromEntries(
    ((await run('links', 'list', '--json')).json().links as { slug: string; title: string }[]).map((l) => [
      l.slug,
      l.title,
    ]),
  );

beforeEach(() => {
  dir = tempDir();
  env = { DB_PATH: join(dir, 'shortener.db') };
});

describe('import of CSV files', () => {
  it('reads an Excel file: byte order mark, CRLF line ends, quoted line breaks and quotes', async () => {
    const excel = file(
      'excel.csv',
      '\uFEFF"URL",Alias,Title\r\nhttps://example.com/a,alpha,"two\r\nlines"\r\nhttps://example.com/b,beta,"say ""hi"", twice"\r\n',
    );
    const result = await run('import', excel, '--json');
    expect(result.code).toBe(0);
    expect(result.json().results.map((r: { line: number }) => r.line)).toEqual([2, 4]);
    expect(await titles()).toEqual({ alpha: 'two\r\nlines', beta: 'say "hi", twice' });
  });

  it('stops at a quote that is never closed, naming its line, and imports nothing', async () => {
    const broken = file(
      'broken.csv',
      'url,alias,title\nhttps://example.com/a,alpha,ok\nhttps://example.com/b,beta,"oops\nhttps://example.com/c,gamma,fine\n',
    );
    const result = await run('import', broken);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: line 3: a quote opened on this line is never closed/);
    expect((await run('links', 'list', '--json')).json().links).toEqual([]);
  });

  it('reports each bad row with the line it starts on and imports the others', async () => {
    const mixed = file(
      'mixed.csv',
      [
        'url,alias,title',
        'https://example.com/a,a1,"multi',
        'line"',
        'https://example.com/b,b1',
        '',
        'ftp://example.com/c,c1,t',
        'https://example.com/d,d1,"x""y"',
        '',
      ].join('\r\n'),
    );
    const result = await run('import', mixed, '--json');
    expect(result.code).toBe(1);
    const lines = result
      .json()
      .results.map((r: { line: number; ok: boolean; error?: { code: string } }) => [
        r.line,
        r.error?.code ?? 'ok',
      ]);
    expect(lines).toEqual([[2, 'ok'], [4, 'invalid_request'], [6, 'unsupported_scheme'], [7, 'ok']]); // prettier-ignore
    expect(await titles()).toEqual({ a1: 'multi\r\nline', d1: 'x"y' });
  });
});

describe('export as CSV', () => {
  const risky = ['=1+1', '+1', '-50% off', '@home', '\tTab', "'=already quoted", "''+twice"];

  it('neutralises every cell a spreadsheet would run, and import restores it exactly', async () => {
    for (const [i, title] of risky.entries()) {
      expect(
        (await run('shorten', `https://example.com/${i}`, '--alias', `-r${i}`, '--title', title)).code,
      ).toBe(0);
    }
    const text = (await run('export', '--format', 'csv')).stdout;
    const csv = file('links.csv', text);
    const rows = parse(text) as string[][];
    const cells = rows.flat();
    expect(cells.filter((cell) => /^[=+\-@\t\r]/.test(cell))).toEqual([]);
    expect(cells).toContain("'-r0");

    env = { DB_PATH: join(dir, 'copy.db') };
    expect((await run('import', csv)).code).toBe(0);
    const back = await titles();
    expect(risky.map((_, i) => back[`-r${i}`])).toEqual(risky);
  });

  it('neutralises and restores cells as a bijection, leaving plain ones alone', () => {
    for (const text of [...risky, 'plain', "'plain", "it's", '', "'", 'https://example.com/?a=-1']) {
      expect(restoreCell(neutraliseCell(text))).toBe(text);
    }
    expect(neutraliseCell('plain')).toBe('plain');
    expect(neutraliseCell("'plain")).toBe("'plain");
    expect(neutraliseCell('=SUM(A1)')).toBe("'=SUM(A1)");
  });
});
