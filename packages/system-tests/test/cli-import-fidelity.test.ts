import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KUTT_KEY, startKutt } from '../../import-sources/test/stand-ins/kutt.js';
import type { StandIn } from '../../import-sources/test/stand-ins/loopback.js';
import { bin, buildBinary, runBin } from './bin-helpers.js';
import { tempDir } from './helpers.js';

// What the source holds comes along (decisions §25, issue 60), through the `shortener` binary as a
// process: a German Excel CSV, Kutt's password-protected links, tags with spaces and accents.

let vars: Record<string, string>;
let dir: string;
const shortener = (...args: string[]) => runBin(bin, args, vars);

beforeAll(() => buildBinary(), 180_000);
beforeEach(async () => {
  dir = tempDir();
  vars = { DB_PATH: join(dir, 'shortener.db') };
  expect((await shortener('accounts', 'create', 'greta')).code).toBe(0);
});

/** A German Excel export: `;` separated, dates as `31.12.2024 23:10`, tags with spaces and accents. */
function germanCsv(rows: number): string {
  const lines = ['Short URL;Long URL;Title;Tags;Created at'];
  for (let i = 1; i <= rows; i++) {
    const day = String(((i - 1) % 28) + 1).padStart(2, '0');
    lines.push(
      `https://alt.example/de${i};https://example.com/de/${i};Seite ${i};Café Menu,東京,spring sale;${day}.12.2024 23:10`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** `shortener import --from csv` of a German file of `rows` rows into greta's account, with `flags`. */
function importGerman(rows: number, ...flags: string[]) {
  const csv = join(dir, 'export.csv');
  writeFileSync(csv, germanCsv(rows));
  return shortener('import', '--from', 'csv', csv, '--account', 'greta', ...flags);
}

describe('shortener import --from csv of a German-format file', () => {
  it('imports every row with an unreadable date, leaving the date out and saying so', async () => {
    const result = await importGerman(20);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^20 rows: 20 imported, 0 renamed, 0 skipped, 0 refused/);
    expect(lines.slice(1)).toEqual([
      'notice   20 rows: created not read, imported without a date',
      '(the rows with a notice: --verbose lists them, --json and the import report too)',
    ]);
    const json = (await importGerman(20, '--json', '--dry-run')).stdout;
    expect(JSON.parse(json).skipped).toBe(20);
    // the tags came as the file spells them, found by their key (decisions §25)
    const tagged = await shortener(
      'links',
      'list',
      '--tag',
      'café menu',
      '--tag',
      'SPRING SALE',
      '--all',
      '--json',
    );
    const links = JSON.parse(tagged.stdout).links as { tags: string[] }[];
    expect(links).toHaveLength(20);
    expect(links[0]?.tags).toEqual(['Café Menu', '東京', 'spring sale']);
  }, 60_000);

  it('reads the dates in the pattern --date-format names', async () => {
    const result = await importGerman(3, '--date-format', 'DD.MM.YYYY HH:mm', '--verbose');
    expect(result.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^3 rows: 3 imported, 0 renamed, 0 skipped, 0 refused/),
    ]);
    const links = JSON.parse((await shortener('links', 'list', '--all', '--json')).stdout).links as {
      url: string;
      created_at: string;
    }[];
    expect(links.find((link) => link.url === 'https://example.com/de/3')?.created_at).toBe(
      '2024-12-03T23:10:00.000Z',
    );
  }, 60_000);

  it('refuses a pattern that is not one, as a usage error', async () => {
    const result = await importGerman(1, '--date-format', 'DD.QQ');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--date-format/);
  }, 30_000);

  it('lists the rows noted with --verbose, each with its row number', async () => {
    const result = await importGerman(2, '--verbose');
    expect(result.stdout.trimEnd().split('\n').slice(1)).toEqual([
      'notice   2 rows: created not read, imported without a date',
      'noted    https://alt.example/de1: row 1: created "01.12.2024 23:10" not read, imported without a date',
      'noted    https://alt.example/de2: row 2: created "02.12.2024 23:10" not read, imported without a date',
    ]);
  }, 30_000);
});

describe('shortener import --from kutt', () => {
  let kutt: StandIn;
  const link = (address: string, password: boolean) => ({
    id: `00000000-0000-4000-8000-00000000000${address.length}`,
    address,
    domain: null,
    target: `https://example.com/${address}`,
    description: null,
    expire_in: null,
    created_at: '2024-05-01T10:00:00.000Z',
    visit_count: 3,
    password,
  });
  beforeAll(async () => {
    kutt = await startKutt({ links: [link('locked', true), link('open', false), link('secret', true)] });
  });
  afterAll(() => kutt.close());

  it('ends with the notice of the links that were password-protected at the source', async () => {
    const result = await shortener(
      'import',
      '--from',
      'kutt',
      '--url',
      kutt.url,
      '--api-key',
      KUTT_KEY,
      '--account',
      'greta',
    );
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^3 rows: 3 imported, 0 renamed, 0 skipped, 0 refused/),
      'notice   2 rows: password at the source: set one and enable it',
      '(the rows with a notice: --verbose lists them, --json and the import report too)',
    ]);
    const shown = JSON.parse((await shortener('links', 'show', 'locked', '--json')).stdout);
    expect(shown.status).toBe('disabled');
  }, 60_000);
});
