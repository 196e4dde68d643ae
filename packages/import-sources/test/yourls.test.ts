import type { Connection } from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { yourlsSource } from '../src/index.js';
import { yourlsStatements } from '../src/yourls/yourls-source.js';
import { collect, expectResumesAfterEachStep, failure, plain, visitsOf } from './collect.js';
import { connectMariaDb, uniqueName, urlFor, yourlsTables } from './mariadb.js';

const root = await connectMariaDb();

type Click = [keyword: string, time: string, referrer: string, agent: string, ip: string, country: string];
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
const MANY_CLICKS = 2500;
const MORE = Array.from({ length: 600 }, (_, i) => `k${String(i).padStart(4, '0')}`);

/** Links and clicks as YOURLS stores them, addresses included: the source must never read them. */
async function fill(db: Connection, prefix: string): Promise<void> {
  const links = [
    ['abc', 'https://example.com/a', 'Example A', '2024-01-05 10:00:00', '203.0.113.7', 5],
    ['Abc', 'https://example.com/upper', '', '2024-01-06 11:00:00', '203.0.113.8', 0],
    ['zeta', 'https://example.com/z', null, '2023-12-31 23:59:59', '2001:db8::1', 10],
    ['many', 'https://example.com/many', 'Many', '2024-02-01 00:00:00', '203.0.113.9', MANY_CLICKS],
    ...MORE.map((keyword, i) => [
      keyword,
      `https://example.com/more/${i}`,
      null,
      '2024-03-01 00:00:00',
      '198.51.100.1',
      0,
    ]),
  ];
  await db.query(`INSERT INTO \`${prefix}url\` (keyword, url, title, timestamp, ip, clicks) VALUES ?`, [
    links,
  ]);
  const clicks: Click[] = [
    ['abc', '2024-01-05 10:30:00', 'direct', FIREFOX, '203.0.113.50', 'FR'],
    ['abc', '2024-01-06 08:00:00', 'https://t.co/xyz', '', '203.0.113.51', ''],
    ['abc', '2024-01-07 09:15:00', 'https://news.example/item?id=1', FIREFOX, '2001:db8::50', 'de'],
    ...Array.from({ length: MANY_CLICKS }, (_, i): Click => {
      const time = new Date(Date.UTC(2024, 1, 1) + i * 60_000).toISOString().slice(0, 19).replace('T', ' ');
      return ['many', time, 'direct', FIREFOX, `198.51.100.${i % 250}`, 'US'];
    }),
  ];
  await db.query(
    `INSERT INTO \`${prefix}log\` (shorturl, click_time, referrer, user_agent, ip_address, country_code) VALUES ?`,
    [clicks],
  );
}

describe.runIf(root !== null)('yourlsSource on MariaDB', () => {
  const db = root as Connection;
  const database = uniqueName('shortener_yourls');
  const reader = uniqueName('yourls_reader');
  const password = uniqueName('pw');
  // a user that may read every column but the addresses: a statement naming them, or `*`, fails
  const readerUrl = urlFor(reader, password, database);

  beforeAll(async () => {
    await db.query(`CREATE DATABASE \`${database}\` CHARACTER SET utf8mb4`);
    await db.query(`USE \`${database}\`; ${yourlsTables('yourls_')} ${yourlsTables('y2_')}`);
    await fill(db, 'yourls_');
    await db.query(
      `INSERT INTO y2_url (keyword, url, title, timestamp, ip, clicks) VALUES ('other', 'https://example.com/o', 'O', '2024-01-01 00:00:00', '203.0.113.1', 1)`,
    );
    await db.query(`CREATE USER '${reader}'@'%' IDENTIFIED BY '${password}'`);
    for (const prefix of ['yourls_', 'y2_']) {
      await db.query(
        `GRANT SELECT (keyword, url, title, timestamp, clicks) ON \`${database}\`.${prefix}url TO '${reader}'@'%'`,
      );
      await db.query(
        `GRANT SELECT (click_id, click_time, shorturl, referrer, user_agent, country_code) ON \`${database}\`.${prefix}log TO '${reader}'@'%'`,
      );
    }
  }, 60_000);

  afterAll(async () => {
    await db.query(`DROP USER IF EXISTS '${reader}'@'%'`);
    await db.query(`DROP DATABASE IF EXISTS \`${database}\``);
    await db.end();
  });

  const source = (domain: string | null = 'sho.rt') => yourlsSource({ database: readerUrl, domain });

  it('reads every link in keyword order, with a total for the clicks its log lacks', async () => {
    const steps = await collect(source());
    expect(steps.map((step) => step.row.code)).toEqual(['Abc', 'abc', ...MORE, 'many', 'zeta']);
    expect(steps.map((step) => step.cursor)).toEqual(steps.map((step) => step.row.code));
    // its total, counted before the first link (decisions §17: the job's bar)
    expect(steps.every((step) => step.total?.rows === steps.length && !step.total.estimated)).toBe(true);
    const byCode = new Map(steps.map((step) => [step.row.code, step.row]));
    expect(plain(byCode.get('abc')!)).toEqual({
      originalShortUrl: 'https://sho.rt/abc',
      domain: 'sho.rt',
      code: 'abc',
      url: 'https://example.com/a',
      title: 'Example A',
      createdAt: Date.parse('2024-01-05T10:00:00Z'),
      totalClicks: 2,
    });
    expect(plain(byCode.get('Abc')!)).toEqual({
      originalShortUrl: 'https://sho.rt/Abc',
      domain: 'sho.rt',
      code: 'Abc',
      url: 'https://example.com/upper',
      title: null,
      createdAt: Date.parse('2024-01-06T11:00:00Z'),
    });
    expect(plain(byCode.get('zeta')!)).toMatchObject({ title: null, totalClicks: 10 });
    expect(byCode.get('zeta')!.visits).toBeUndefined();
    expect(plain(byCode.get('many')!).totalClicks).toBeUndefined();
  });

  it("reads a link's log when asked: direct is no referrer, and never an address", async () => {
    const steps = await collect(source());
    const abc = steps.find((step) => step.row.code === 'abc')!.row;
    expect(await visitsOf(abc)).toEqual([
      { at: Date.parse('2024-01-05T10:30:00Z'), referrer: null, userAgent: FIREFOX, country: 'FR' },
      {
        at: Date.parse('2024-01-06T08:00:00Z'),
        referrer: 'https://t.co/xyz',
        userAgent: null,
        country: null,
      },
      {
        at: Date.parse('2024-01-07T09:15:00Z'),
        referrer: 'https://news.example/item?id=1',
        userAgent: FIREFOX,
        country: 'de',
      },
    ]);
    const many = await visitsOf(steps.find((step) => step.row.code === 'many')!.row);
    expect(many).toHaveLength(MANY_CLICKS);
    expect(many.at(-1)?.at).toBe(Date.UTC(2024, 1, 1) + (MANY_CLICKS - 1) * 60_000);
    expect(JSON.stringify(many)).not.toMatch(/198\.51\.100|203\.0\.113/);
  });

  it('resumes after a keyword with exactly the links after it', async () => {
    const all = await collect(source());
    await expectResumesAfterEachStep(source(), all, [0, 1, 2, 499, 500, 501, all.length - 2, all.length - 1]);
  });

  it('gives bare keywords without a domain, and reads another table prefix', async () => {
    const [first] = await collect(source(null));
    expect(plain(first!.row)).toMatchObject({ originalShortUrl: 'Abc', domain: null, code: 'Abc' });
    const other = await collect(yourlsSource({ database: readerUrl, prefix: 'y2_' }));
    expect(other.map((step) => plain(step.row))).toEqual([
      {
        originalShortUrl: 'other',
        domain: null,
        code: 'other',
        url: 'https://example.com/o',
        title: 'O',
        createdAt: Date.parse('2024-01-01T00:00:00Z'),
        totalClicks: 1,
      },
    ]);
  });

  it('names its columns: the reader without rights on the addresses fails on SELECT *', async () => {
    const reading = yourlsSource({ database: readerUrl, prefix: 'yourls_' });
    await expect(collect(reading)).resolves.toHaveLength(MORE.length + 4);
    expect(() =>
      yourlsSource({ database: readerUrl, prefix: 'yourls_url` UNION SELECT ip FROM `yourls_' }),
    ).toThrow('YOURLS: the table prefix may hold letters, digits and _ only');
    const { createConnection } = await import('mysql2/promise');
    const asReader = await createConnection({ uri: readerUrl });
    try {
      await expect(asReader.query('SELECT * FROM yourls_url')).rejects.toThrow(/denied/);
      await expect(asReader.query('SELECT ip_address FROM yourls_log')).rejects.toThrow(/denied/);
    } finally {
      await asReader.end();
    }
    for (const statement of Object.values(yourlsStatements('yourls_'))) {
      const text = typeof statement === 'function' ? statement(3) : statement;
      expect(text).not.toMatch(/\*|\bip\b|ip_address/);
    }
  });

  it('names YOURLS and the cause when the database cannot be read, never the password', async () => {
    const wrong = urlFor(reader, 'not-the-password', database);
    const error = await failure(collect(yourlsSource({ database: wrong })));
    expect(error.message).toMatch(/^YOURLS: the database could not be read: Access denied/);
    expect(error.message).not.toContain('not-the-password');
    expect(() => yourlsSource({ database: 'postgres://u:secret@h/db' })).toThrow(
      'YOURLS: the database is not a URL like mysql://user:pass@host:3306/name',
    );
  });
});
