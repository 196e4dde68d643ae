import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { csvSource } from '../src/index.js';
import { collect, expectResumesAfterEachStep, plain } from './collect.js';

/**
 * The export shapes, from the exporters' own code:
 * - shlink-export.csv: shlink-web-client's `ExportShortUrlsBtn` (columns `createdAt, domain, shortCode,
 *   shortUrl, longUrl, title, tags, visits`, tags joined with `|`).
 * - dub-export.csv: dubinc/dub `exportLinksColumns` labels (`Short link`, `Destination URL`, `Clicks`,
 *   `Created at`, `Tags` joined with `, `), written by json-2-csv.
 * - yourls-export.csv: the YOURLS export plugin's `feed()` (`source,target,hits`, CRLF, `/keyword/`).
 * - bitly-export.csv: Bitly's dashboard export; its headers could not be confirmed from a public source. The
 *   column order follows a published script that reads a real export (link, custom link, date created, ...,
 *   destination URL); the header names are assumptions.
 */
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const rowsOf = async (text: string) => (await collect(csvSource(text))).map((step) => plain(step.row));

describe('csvSource', () => {
  it('reads a file larger than a parse slice whole, quoted cells across slice edges too, resuming mid-file', async () => {
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `https://s.test/c${i},"https://example.com/${i}?a=1,2","Title ""${i}""\nline two"`,
    );
    const text = ['short url,long url,title', ...lines].join('\r\n');
    expect(text.length).toBeGreaterThan(5 * 16 * 1024);
    const rows = await rowsOf(text);
    expect(rows).toHaveLength(3000);
    rows.forEach((row, i) => {
      expect(row.url).toBe(`https://example.com/${i}?a=1,2`);
      expect(row.title).toBe(`Title "${i}"\nline two`);
    });
    const rest = await collect(csvSource(text), '2500');
    expect(rest.map((step) => step.row.originalShortUrl)).toEqual(
      lines.slice(2500).map((_, i) => `https://s.test/c${2500 + i}`),
    );
  });

  it("reads Shlink's export: short URL, code, domain, tags split on |, visits as a total", async () => {
    expect(await rowsOf(fixture('shlink-export.csv'))).toEqual([
      {
        originalShortUrl: 'https://s.test/abc',
        domain: 's.test',
        code: 'abc',
        url: 'https://example.com/a',
        title: 'Example A',
        tags: ['tech', 'news'],
        createdAt: Date.parse('2024-01-05T09:00:00Z'),
        totalClicks: 12,
      },
      {
        originalShortUrl: 'https://go.example/promo/2024',
        domain: 'go.example',
        code: 'promo/2024',
        url: 'https://example.com/b?x=1&y=2',
        title: 'Sale, 2024',
        tags: [],
        createdAt: Date.parse('2024-02-01T08:30:00Z'),
        totalClicks: 0,
      },
    ]);
  });

  it("reads Dub's export: the short link taken apart, tags split on commas", async () => {
    expect(await rowsOf(fixture('dub-export.csv'))).toEqual([
      {
        originalShortUrl: 'https://dub.sh/launch',
        domain: 'dub.sh',
        code: 'launch',
        url: 'https://example.com/launch',
        tags: ['launch', 'promo'],
        createdAt: Date.parse('2024-03-01T12:00:00Z'),
        totalClicks: 1520,
      },
      {
        originalShortUrl: 'https://acme.link/docs',
        domain: 'acme.link',
        code: 'docs',
        url: 'https://docs.example.com/start',
        tags: [],
        createdAt: Date.parse('2024-03-02T09:15:30.250Z'),
        totalClicks: 0,
      },
    ]);
  });

  it("reads Bitly's link export: the bitlink, its custom back-half as the code, its date as UTC, the destination", async () => {
    expect(await rowsOf(fixture('bitly-export.csv'))).toEqual([
      {
        originalShortUrl: 'https://bit.ly/3xYzAbc',
        domain: 'brand.example',
        code: 'talk',
        url: 'https://example.com/talks/1',
        title: 'A talk',
        createdAt: Date.parse('2023-05-01T14:03:22Z'),
      },
      {
        originalShortUrl: 'https://bit.ly/4QqRst',
        domain: 'bit.ly',
        code: '4QqRst',
        url: 'https://example.com/paper.pdf',
        title: null,
        createdAt: Date.parse('2023-06-10T08:00:00Z'),
      },
    ]);
  });

  it("keeps a custom back-half written bare or without a scheme as the code, on the bitlink's host", async () => {
    const text = [
      'Bitlink,Custom back-half,Long URL',
      'bit.ly/3xY,docs,https://example.com/d',
      'bit.ly/4QQ,bit.ly/Team-Page,https://example.com/t',
      'bit.ly/5RR,,https://example.com/n',
    ].join('\n');
    expect((await rowsOf(text)).map((row) => [row.originalShortUrl, row.domain, row.code])).toEqual([
      ['bit.ly/3xY', 'bit.ly', 'docs'],
      ['bit.ly/4QQ', 'bit.ly', 'Team-Page'],
      ['bit.ly/5RR', 'bit.ly', '5RR'],
    ]);
  });

  it("reads YOURLS's export plugin: source as a code without its slashes, hits as a total", async () => {
    expect(await rowsOf(fixture('yourls-export.csv'))).toEqual([
      { originalShortUrl: 'abc', domain: null, code: 'abc', url: 'https://example.com/x', totalClicks: 12 },
      {
        originalShortUrl: 'def',
        domain: null,
        code: 'def',
        url: 'https://example.com/y?list=1,2',
        totalClicks: 0,
      },
    ]);
  });

  it('finds a ; separator by itself and compares headers without case, spaces or _', async () => {
    const text =
      'LONG_URL;Keyword;Domain;Description;TAGS;Date Created;total_clicks\n' +
      'https://example.com/a,b;Promo;Old.Example;Preis, brutto;eins,zwei;2024-05-01;1.234\n';
    expect(await rowsOf(text)).toEqual([
      {
        originalShortUrl: 'https://old.example/Promo',
        domain: 'old.example',
        code: 'Promo',
        url: 'https://example.com/a,b',
        title: 'Preis, brutto',
        tags: ['eins', 'zwei'],
        createdAt: Date.parse('2024-05-01T00:00:00Z'),
        totalClicks: 1234,
      },
    ]);
  });

  it('reads quoted fields holding commas, quotes and new lines', async () => {
    const text =
      'url,short url,title,tags\r\n' +
      '"https://example.com/?q=a,b","https://s.example/x","Line one\nline ""two""","a|b"\r\n' +
      'https://example.com/plain,https://s.example/y,,\r\n';
    expect(await rowsOf(text)).toEqual([
      {
        originalShortUrl: 'https://s.example/x',
        domain: 's.example',
        code: 'x',
        url: 'https://example.com/?q=a,b',
        title: 'Line one\nline "two"',
        tags: ['a', 'b'],
      },
      {
        originalShortUrl: 'https://s.example/y',
        domain: 's.example',
        code: 'y',
        url: 'https://example.com/plain',
        title: null,
        tags: [],
      },
    ]);
  });

  it('reads dates in the pattern it is given, ISO 8601 still, and a day that does not exist as none', async () => {
    const text =
      'url;created\n' +
      'https://example.com/1;31.12.2024 23:10\n' +
      'https://example.com/2;2024-06-01T08:00:00Z\n' +
      'https://example.com/3;31.02.2024 10:00\n' +
      'https://example.com/4;1.2.2024 7:05\n';
    const rows = (await collect(csvSource(text, 'DD.MM.YYYY HH:mm'))).map((step) => step.row);
    expect(rows.map((row) => row.createdAt)).toEqual([
      Date.UTC(2024, 11, 31, 23, 10),
      Date.UTC(2024, 5, 1, 8),
      undefined,
      Date.UTC(2024, 1, 1, 7, 5),
    ]);
    expect(rows[2]?.notes).toEqual(['row 3: created "31.02.2024 10:00" not read, imported without a date']);
    await expect(collect(csvSource(text, 'DD.MM.YY'))).rejects.toThrow(/not a date pattern/);
  });

  it('gives a row it cannot read a problem instead of throwing, and reads the rows around it; a date it cannot read is left out and noted (§25)', async () => {
    const text =
      'destination,slug,created,clicks\n' +
      ',nothing,2024-01-01,1\n' +
      'https://example.com/late,late,yesterday,2\n' +
      'https://example.com/many,many,2024-01-01,lots\n' +
      'https://example.com/short\n' +
      'https://example.com/fine,fine,2024-01-01T10:00:00Z,3\n';
    const rows = await rowsOf(text);
    expect(rows.map((row) => row.problem)).toEqual([
      'no destination',
      undefined,
      'bad click count "lots"',
      undefined,
      undefined,
    ]);
    expect(rows[1]).toMatchObject({ url: 'https://example.com/late', totalClicks: 2 });
    expect(rows[1]?.createdAt).toBeUndefined();
    expect(rows[1]?.notes).toEqual(['row 2: created "yesterday" not read, imported without a date']);
    expect(rows[3]).toEqual({
      originalShortUrl: '',
      domain: null,
      code: null,
      url: 'https://example.com/short',
    });
    expect(rows[4]).toMatchObject({
      code: 'fine',
      createdAt: Date.parse('2024-01-01T10:00:00Z'),
      totalClicks: 3,
    });
  });

  it('resumes after any row with exactly the rows after it', async () => {
    const source = csvSource(
      fixture('shlink-export.csv') +
        '2024-03-01T00:00:00Z,s.test,c3,https://s.test/c3,https://example.com/c,,,\n',
    );
    const all = await collect(source);
    expect(all.map((step) => step.cursor)).toEqual(['1', '2', '3']);
    await expectResumesAfterEachStep(source, all);
  });

  it('throws a clear error naming the headers when no column holds the destination', async () => {
    await expect(collect(csvSource('name,slug\nA,a\n'))).rejects.toThrow(
      'CSV: no destination column (one of long url, url, destination, destination url, original url, target); the headers found are "name", "slug"',
    );
  });

  it('names a file that cannot be cut into rows (a quote never closed)', async () => {
    await expect(collect(csvSource('url,title\nhttps://example.com,"never closed\n'))).rejects.toThrow(
      /^CSV: the file cannot be read: Quote Not Closed/,
    );
  });

  it('refuses a cursor it did not give', async () => {
    await expect(collect(csvSource('url\nhttps://example.com\n'), 'abc')).rejects.toThrow(
      'is not a cursor of this source',
    );
  });

  it('tells its total on every step, counted before the first: the data rows, blank ones left out', async () => {
    const steps = await collect(csvSource('url\nhttps://a.example/\n\n ,\nhttps://b.example/\n'));
    expect(steps.map((step) => step.total)).toEqual([
      { rows: 2, estimated: false },
      { rows: 2, estimated: false },
    ]);
  });
});
