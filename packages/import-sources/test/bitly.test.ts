import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bitlySource } from '../src/index.js';
import { collect, expectResumesAfterEachStep, failure, plain } from './collect.js';
import type { BitlyGroups, BitlyLink } from './stand-ins/bitly.js';
import { BITLY_TOKEN, startBitly } from './stand-ins/bitly.js';
import type { StandIn } from './stand-ins/loopback.js';

const LAUNCH: BitlyLink = {
  id: 'bit.ly/3abcDEF',
  long_url: 'https://example.com/launch',
  title: 'Launch',
  tags: ['launch', 'promo'],
  custom_bitlinks: ['https://brand.example/launch', 'https://brand.example/launch-2'],
  created_at: '2024-01-05T10:00:00+0000',
  expiration_at: '2030-01-01T00:00:00+0000',
  clicks: [
    { date: '2024-01-07T00:00:00+0000', clicks: 4 },
    { date: '2024-01-06T00:00:00+0000', clicks: 0 },
    { date: '2024-01-05T00:00:00+0000', clicks: 2 },
  ],
};
const ARCHIVED: BitlyLink = {
  id: 'bit.ly/2old',
  long_url: 'https://example.com/old',
  created_at: '2019-03-01T08:00:00+0000',
  archived: true,
};
const MANY: BitlyLink[] = Array.from({ length: 150 }, (_, i) => ({
  id: `brand.example/m${i}`,
  long_url: `https://example.com/m/${i}`,
  created_at: new Date(Date.UTC(2023, 0, 1) + i * 60_000).toISOString().replace('.000Z', '+0000'),
}));
const GROUPS: BitlyGroups = { Ba1: [LAUNCH, ARCHIVED], Bb2: MANY };

const noWait = async () => {};

describe('bitlySource', () => {
  let bitly: StandIn;
  beforeAll(async () => {
    bitly = await startBitly(GROUPS);
  });
  afterAll(() => bitly.close());
  const source = () => bitlySource({ token: BITLY_TOKEN, url: bitly.url, fetch, sleep: noWait });

  it("reads every group's bitlinks, archived ones too, each back-half as a row to the same destination", async () => {
    const fresh = await startBitly(GROUPS);
    try {
      const waits: number[] = [];
      const sleep = async (ms: number) => {
        waits.push(ms);
      };
      const steps = await collect(bitlySource({ token: BITLY_TOKEN, url: fresh.url, fetch, sleep }));
      expect(steps).toHaveLength(4 + 150);
      const common = {
        url: 'https://example.com/launch',
        title: 'Launch',
        tags: ['launch', 'promo'],
        createdAt: Date.parse('2024-01-05T10:00:00Z'),
        expiresAt: Date.parse('2030-01-01T00:00:00Z'),
      };
      expect(steps.slice(0, 4).map((step) => plain(step.row))).toEqual([
        { originalShortUrl: 'https://bit.ly/3abcDEF', domain: 'bit.ly', code: '3abcDEF', ...common },
        {
          originalShortUrl: 'https://brand.example/launch',
          domain: 'brand.example',
          code: 'launch',
          ...common,
        },
        {
          originalShortUrl: 'https://brand.example/launch-2',
          domain: 'brand.example',
          code: 'launch-2',
          ...common,
        },
        {
          originalShortUrl: 'https://bit.ly/2old',
          domain: 'bit.ly',
          code: '2old',
          url: 'https://example.com/old',
          title: null,
          tags: [],
          createdAt: Date.parse('2019-03-01T08:00:00Z'),
          expiresAt: null,
        },
      ]);
      expect(steps.slice(4).map((step) => step.row.code)).toEqual(MANY.map((_, i) => `m${i}`));
      // the daily clicks go with the hash's row only: Bitly counts a back-half's clicks on its bitlink
      expect(steps.slice(1, 4).map((step) => step.row.days)).toEqual([
        undefined,
        undefined,
        expect.any(Function),
      ]);
      expect(await steps[0]!.row.days!()).toEqual([
        { day: '2024-01-07', clicks: 4 },
        { day: '2024-01-05', clicks: 2 },
      ]);
      // a 429 without Retry-After waits a backoff, one with it waits as asked, and the same request goes on
      expect(waits).toEqual([1000, 2000]);
      const paths = fresh.requests.map((request) => `${request.path}?${request.query.toString()}`);
      expect(paths).toEqual([
        '/v4/groups?',
        '/v4/groups/Ba1/bitlinks?archived=both&size=100',
        '/v4/groups/Ba1/bitlinks?archived=both&size=100',
        '/v4/groups/Bb2/bitlinks?archived=both&size=100',
        // `next` names api-ssl.bitly.com: it is asked of the configured URL, where the token goes
        '/v4/groups/Bb2/bitlinks?archived=both&size=100&page=2',
        '/v4/bitlinks/bit.ly/3abcDEF/clicks?unit=day&units=-1',
        '/v4/bitlinks/bit.ly/3abcDEF/clicks?unit=day&units=-1',
      ]);
      expect(new Set(fresh.requests.map((request) => request.headers.authorization))).toEqual(
        new Set([`Bearer ${BITLY_TOKEN}`]),
      );
    } finally {
      await fresh.close();
    }
  });

  it('resumes after a row, a back-half or a page boundary with exactly the rows after it', async () => {
    const all = await collect(source());
    await expectResumesAfterEachStep(source(), all, [0, 1, 2, 3, 4, 102, 103, 104, 152, 153]);
  });

  it('names Bitly and the status when the token is refused, never the token', async () => {
    const error = await failure(collect(bitlySource({ token: 'wrong-token-secret', url: bitly.url, fetch })));
    expect(error.message).toBe(
      'Bitly answered 403 Forbidden to GET /v4/groups: the key or token was refused',
    );
    expect(error.message).not.toContain('wrong-token-secret');
    expect((await fetch(`${bitly.url}/v4/groups`)).status).toBe(401);
  });

  it('names a wrong URL', async () => {
    await expect(
      collect(bitlySource({ token: BITLY_TOKEN, url: `${bitly.url}/api`, fetch, sleep: noWait })),
    ).rejects.toThrow(
      'Bitly answered 404 Not Found to GET /api/v4/groups: not found: is the URL the right one?',
    );
  });

  it("guesses its total from each group's count, flagged estimated (back-halves add rows)", async () => {
    const steps = await collect(source());
    const totals = steps.map((step) => step.total);
    expect(totals.every((total) => total?.estimated === true)).toBe(true);
    expect(totals.at(-1)!.rows).toBeGreaterThan(0);
    expect(totals.at(-1)!.rows).toBeLessThanOrEqual(steps.length);
  });
});
