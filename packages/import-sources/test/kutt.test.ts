import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kuttSource } from '../src/index.js';
import { collect, expectResumesAfterEachStep, failure, plain } from './collect.js';
import type { KuttLink, KuttStore } from './stand-ins/kutt.js';
import { KUTT_KEY, startKutt } from './stand-ins/kutt.js';
import type { StandIn } from './stand-ins/loopback.js';

const aLink = (i: number, overrides: Partial<KuttLink> = {}): KuttLink => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  address: `k${i}`,
  domain: null,
  target: `https://example.com/k/${i}`,
  description: null,
  expire_in: null,
  created_at: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
  visit_count: i,
  ...overrides,
});

// newest first, as Kutt lists them
const LINKS: KuttLink[] = [
  aLink(200, {
    address: 'docs',
    domain: 'go.example',
    description: 'The docs',
    expire_in: '2030-06-01T12:00:00.000Z',
    visit_count: 1234,
  }),
  // Kutt on SQLite keeps times as UTC text without a zone
  aLink(199, { created_at: '2024-01-09 07:00:00', visit_count: 0, password: true }),
  aLink(198, { banned: true }),
  ...Array.from({ length: 117 }, (_, i) => aLink(197 - i)),
];

describe('kuttSource', () => {
  const store: KuttStore = { links: [...LINKS] };
  let kutt: StandIn;
  beforeAll(async () => {
    kutt = await startKutt(store);
  });
  afterAll(() => kutt.close());
  const source = () => kuttSource({ url: kutt.url, apiKey: KUTT_KEY, fetch });

  it('reads every link with its fields and its visit count as a total, 50 a page, a password-protected one to come across disabled and a banned one refused', async () => {
    const steps = await collect(source());
    expect(steps).toHaveLength(120);
    expect(steps.map((step) => plain(step.row)).slice(0, 2)).toEqual([
      {
        originalShortUrl: 'https://go.example/docs',
        domain: 'go.example',
        code: 'docs',
        url: 'https://example.com/k/200',
        title: 'The docs',
        createdAt: Date.UTC(2024, 0, 1) + 200 * 3_600_000,
        expiresAt: Date.parse('2030-06-01T12:00:00Z'),
        totalClicks: 1234,
      },
      {
        originalShortUrl: 'https://kutt.test/k199',
        domain: 'kutt.test',
        code: 'k199',
        url: 'https://example.com/k/199',
        title: null,
        createdAt: Date.parse('2024-01-09T07:00:00Z'),
        expiresAt: null,
        totalClicks: 0,
        disabled: 'password at the source: set one and enable it',
      },
    ]);
    expect(steps[2]!.row).toMatchObject({ code: 'k198', problem: 'banned at the source' });
    expect(
      steps.filter((step) => step.row.problem !== undefined || step.row.disabled !== undefined),
    ).toHaveLength(2);
    expect(steps.map((step) => step.row.code).slice(2)).toEqual(LINKS.slice(2).map((link) => link.address));
    const pages = kutt.requests.filter((request) => request.path === '/api/v2/links');
    expect(pages.map((request) => [request.query.get('skip'), request.query.get('limit')])).toEqual([
      ['0', '50'],
      ['50', '50'],
      ['100', '50'],
    ]);
  });

  it('resumes after a row with exactly the rows after it', async () => {
    await expectResumesAfterEachStep(source(), await collect(source()), [0, 1, 48, 49, 50, 100, 118, 119]);
  });

  it('resumes after the same row when links were made meanwhile (Kutt lists them first)', async () => {
    const all = await collect(source());
    store.links.unshift(aLink(301), aLink(302));
    try {
      const rest = await collect(source(), all[60]!.cursor);
      expect(rest.map((step) => step.row.code)).toEqual(all.slice(61).map((step) => step.row.code));
    } finally {
      store.links.splice(0, 2);
    }
  });

  it('sends the key in X-API-KEY and names Kutt and the status when it is refused, never the key', async () => {
    const error = await failure(collect(kuttSource({ url: kutt.url, apiKey: 'wrong-secret-key', fetch })));
    expect(error.message).toBe(
      'Kutt answered 401 Unauthorized to GET /api/v2/links?skip=0&limit=50: the key or token was refused',
    );
    expect(error.message).not.toContain('wrong-secret-key');
    expect((await fetch(`${kutt.url}/api/v2/links`)).status).toBe(401);
  });

  it('names a wrong URL', async () => {
    await expect(collect(kuttSource({ url: `${kutt.url}/kutt`, apiKey: KUTT_KEY, fetch }))).rejects.toThrow(
      'Kutt answered 404 Not Found to GET /kutt/api/v2/links?skip=0&limit=50: not found: is the URL the right one?',
    );
  });

  it('tells its total from the answer (total)', async () => {
    const steps = await collect(source());
    expect(steps.every((step) => step.total?.rows === 120 && !step.total.estimated)).toBe(true);
  });
});
