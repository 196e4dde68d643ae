import { describe, expect, it } from 'vitest';
import { invitedBrowser } from './browser-session.js';
import { createAccounts, startFileServer } from './file-server.js';
import { BROWSER_UA, createLink, eventually, expectError, jsonOf } from './harness.js';
import type { Json } from './harness.js';

// Decisions §19 "Split tests": a link shares the visitors no rule matches among 2-5 destinations by
// weight, each visitor sent by their daily visitor hash (no cookie, nothing stored); rules come first,
// a permanent status is refused, statistics gain `variant`.

const server = await startFileServer();
const [owner] = await createAccounts(server, 'splitter');

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const SPLIT = [
  { url: 'https://example.com/a', weight: 50 },
  { url: 'https://example.com/b', weight: 50 },
];

const create = (body: Json) => createLink(server, body, { key: owner.key });
const patch = (link: Json, json: Json) =>
  server.api(`/api/v1/links/${link.id}`, { method: 'PATCH', key: owner.key, json });
/** Visitor `n`: a browser of their own (all come from the loopback address). */
const browser = (n: number) => `${BROWSER_UA} visitor/${n}`;
const locationOf = async (link: Json, userAgent: string) => {
  const answer = await server.visit(link.short_url as string, { headers: { 'user-agent': userAgent } });
  expect(answer.headers.get('set-cookie')).toBeNull();
  return answer.headers.get('location');
};

describe('split validation (decisions §19)', () => {
  const entry = (url: string, weight: unknown) => ({ url, weight });
  const BAD: [unknown, string][] = [
    [[entry('https://example.com/a', 100)], 'split'],
    [Array.from({ length: 6 }, (_, i) => entry(`https://example.com/${i}`, i === 0 ? 50 : 10)), 'split'],
    [[entry('https://example.com/a', 50), entry('https://example.com/b', 40)], 'split'],
    [[entry('https://example.com/a', 0), entry('https://example.com/b', 100)], 'split.0.weight'],
    [[entry('https://example.com/a', 50.5), entry('https://example.com/b', 49.5)], 'split.0.weight'],
    [[entry('https://example.com/a', 101), entry('https://example.com/b', -1)], 'split.0.weight'],
    [[entry('https://example.com/a', '50'), entry('https://example.com/b', 50)], 'split.0.weight'],
    [[{ weight: 50 }, entry('https://example.com/b', 50)], 'split.0.url'],
    [{ url: 'https://example.com/a', weight: 100 }, 'split'],
  ];

  it('answers 400 invalid_request naming the field for each bad shape, on create, bulk and update', async () => {
    const link = await create({ url: 'https://example.com/' });
    for (const [split, field] of BAD) {
      const label = JSON.stringify(split);
      const created = await server.api('/api/v1/links', { json: { url: 'https://example.com/', split } });
      expect((await expectError(created, 400, 'invalid_request')).field, label).toBe(field);
      const bulk = await server.api('/api/v1/bulk', { json: { urls: ['https://example.com/'], split } });
      expect((await expectError(bulk, 400, 'invalid_request')).field, label).toBe(field);
      expect((await expectError(await patch(link, { split }), 400, 'invalid_request')).field).toBe(field);
    }
  });

  it('checks every URL by the URL rules, naming the entry', async () => {
    for (const [url, code] of [
      ['ftp://example.com/b', 'unsupported_scheme'],
      ['https://127.0.0.1/b', 'private_host'],
      [`https://example.com/${'x'.repeat(4100)}`, 'invalid_url'],
    ]) {
      const split = [SPLIT[0], { url, weight: 50 }];
      const refused = await server.api('/api/v1/links', { json: { url: 'https://example.com/', split } });
      expect((await expectError(refused, 400, code!)).field).toBe('split.1.url');
    }
  });

  it('refuses a permanent redirect status with a split, however they come together', async () => {
    for (const status of [301, 308]) {
      const refused = await server.api('/api/v1/links', {
        json: { url: 'https://example.com/', split: SPLIT, redirect_status: status },
      });
      expect((await expectError(refused, 400, 'invalid_request')).field).toBe('redirect_status');
    }
    const permanent = await create({ url: 'https://example.com/p', redirect_status: 308 });
    expect((await expectError(await patch(permanent, { split: SPLIT }), 400, 'invalid_request')).field).toBe(
      'redirect_status',
    );
    const split = await create({ url: 'https://example.com/s', split: SPLIT, redirect_status: 307 });
    await expectError(await patch(split, { redirect_status: 301 }), 400, 'invalid_request');
  });
});

describe('split redirects (decisions §19)', () => {
  it('sends each visitor to one entry, the same on every visit, with no cookie', async () => {
    const link = await create({ url: 'https://example.com/', split: SPLIT, utm_source: 'news' });
    expect(link.split).toEqual([
      { url: 'https://example.com/a?utm_source=news', weight: 50 },
      { url: 'https://example.com/b?utm_source=news', weight: 50 },
    ]);
    const seen = new Map<string, number>();
    for (let n = 0; n < 40; n++) {
      const first = await locationOf(link, browser(n));
      expect(await locationOf(link, browser(n))).toBe(first);
      seen.set(first!, (seen.get(first!) ?? 0) + 1);
    }
    expect([...seen.keys()].sort()).toEqual(link.split.map((e: Json) => e.url));
    await eventually(async () => {
      const stats = await jsonOf(await server.api(`/api/v1/links/${link.id}/stats`, { key: owner.key }));
      expect(stats.total).toBe(80);
      const variants = Object.fromEntries(stats.variants.map((v: Json) => [v.key, v.count]));
      expect(variants).toEqual({
        '0': 2 * (seen.get(link.split[0].url) ?? 0),
        '1': 2 * (seen.get(link.split[1].url) ?? 0),
      });
      expect(stats.rules).toEqual([]);
    });
  });

  it('routes by the rules first, and splits only the visitors no rule matches', async () => {
    const link = await create({
      url: 'https://example.com/',
      rules: [{ when: { os: 'ios' }, url: 'https://apps.example/ios' }],
      split: SPLIT,
    });
    expect(await locationOf(link, IPHONE)).toBe('https://apps.example/ios');
    expect(await locationOf(link, IPHONE)).toBe('https://apps.example/ios');
    const split = SPLIT.map((e) => e.url);
    for (let n = 0; n < 4; n++) expect(split).toContain(await locationOf(link, browser(n)));
    await eventually(async () => {
      const stats = await jsonOf(await server.api(`/api/v1/links/${link.id}/stats`, { key: owner.key }));
      expect(stats.rules).toEqual([
        { key: 'default', count: 4 },
        { key: '0', count: 2 },
      ]);
      expect(stats.variants.reduce((sum: number, v: Json) => sum + v.count, 0)).toBe(4);
    });
  });

  it('counts the variants of a capped link, whose clicks the store counts at once', async () => {
    const link = await create({ url: 'https://example.com/', split: SPLIT, max_clicks: 3 });
    const locations: (string | null)[] = [];
    for (let n = 0; n < 3; n++) locations.push(await locationOf(link, browser(n)));
    expect(
      (await server.visit(link.short_url as string, { headers: { 'user-agent': browser(9) } })).status,
    ).toBe(410);
    const stats = await jsonOf(await server.api(`/api/v1/links/${link.id}/stats`, { key: owner.key }));
    const expected = ['0', '1']
      .map((key, i) => ({ key, count: locations.filter((l) => l === SPLIT[i]!.url).length }))
      .filter((v) => v.count > 0)
      .sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1));
    expect(stats.variants).toEqual(expected);
  });

  it('follows a changed split at once, and the plain URL once it is removed', async () => {
    const link = await create({ url: 'https://example.com/plain', split: SPLIT });
    expect(SPLIT.map((e) => e.url)).toContain(await locationOf(link, browser(1)));
    const moved = [
      { url: 'https://example.org/x', weight: 99 },
      { url: 'https://example.org/y', weight: 1 },
    ];
    expect((await jsonOf(await patch(link, { split: moved }))).split).toEqual(moved);
    const after = await Promise.all([1, 2, 3, 4].map((n) => locationOf(link, browser(n))));
    expect(after.every((l) => l === 'https://example.org/x' || l === 'https://example.org/y')).toBe(true);
    expect((await jsonOf(await patch(link, { split: null }))).split).toBeNull();
    expect(await locationOf(link, browser(1))).toBe('https://example.com/plain');
  });

  it('lists the entries with their weights on the preview page', async () => {
    const link = await create({ url: 'https://example.com/', split: SPLIT });
    const page = await (await server.visit(`${link.short_url as string}+`)).text();
    expect(page).toContain('https://example.com/a');
    expect(page).toContain('https://example.com/b');
    expect(page).toMatch(/50%/);
  });
});

/** The link page's split rows as its form posts them: `[url, weight]` for rows 0, 1, … */
const splitRows = (...rows: [string, string][]): Record<string, string> =>
  Object.fromEntries(
    rows.flatMap(([url, weight], n) => [
      [`split_${n}_url`, url],
      [`split_${n}_weight`, weight],
    ]),
  );

describe('the split on the link page (decisions §19)', () => {
  it('edits the entries with a plain form and shows the clicks of each side by side', async () => {
    const browserOwner = await invitedBrowser(server, 'split-page', 'a long enough password');
    const created = await browserOwner.send('/api/v1/links', {
      method: 'POST',
      json: { url: 'https://example.com/', split: SPLIT },
    });
    const link = await jsonOf(created, 201);
    const pagePath = `/account/links/${String(link.id)}`;
    const page = await (await browserOwner.send(pagePath)).text();
    expect(page).toMatch(/name="split_1_url"\s+value="https:\/\/example\.com\/b"/);
    // the rows given and two empty ones for a page without script (issue 52), never more than five
    expect(page).toContain('name="split_3_weight"');
    expect(page).not.toContain('name="split_4_weight"');
    expect(page).toContain('1. example.com/a (50%)');
    expect(page).toContain('2. example.com/b (50%)');
    // the Destination row names every entry with its weight, not only the link's own URL
    expect(page).toMatch(
      /<ol class="split" id="split">\s*<li>\s*<span class="destination">https:\/\/example\.com\/a<\/span> <span class="weight">\(50%\)<\/span>/,
    );

    const form = { url: 'https://example.com/', redirect_status: '302' };
    const saved = await browserOwner.post(`${pagePath}/edit`, {
      ...form,
      ...splitRows(['https://example.org/x', '70'], ['', ''], ['https://example.org/y', '30']),
    });
    expect(saved.status).toBe(303);
    expect((await jsonOf(await browserOwner.send(`/api/v1/links/${String(link.id)}`))).split).toEqual([
      { url: 'https://example.org/x', weight: 70 },
      { url: 'https://example.org/y', weight: 30 },
    ]);
    const refused = await browserOwner.post(`${pagePath}/edit`, {
      ...form,
      ...splitRows(['https://example.org/x', '70'], ['https://example.org/y', '20']),
    });
    expect(refused.status).toBe(400);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain('value="20"');
    // the page says what is missing and marks the weights (issue 52)
    expect(refusedPage).toContain('Total 90 %, must be 100');
    expect(refusedPage).toMatch(/name="split_1_weight"\s+value="20"[^>]*aria-invalid="true"/);
    // an entry's fault names its row, counted as the page shows them (the empty row included)
    const badUrl = await browserOwner.post(`${pagePath}/edit`, {
      ...form,
      ...splitRows(['https://example.org/x', '50'], ['', ''], ['http://127.0.0.1/', '50']),
    });
    expect(badUrl.status).toBe(400);
    const badPage = await badUrl.text();
    expect(badPage).toMatch(/Destination 3: /);
    expect(badPage).toMatch(/name="split_2_url"\s+value="http:\/\/127\.0\.0\.1\/"[^>]*aria-invalid="true"/);

    const locations = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => locationOf(link, browser(n))));
    await eventually(async () => {
      const shown = await (await browserOwner.send(pagePath)).text();
      const clicks = (n: number) =>
        locations.filter((l) => l === ['https://example.org/x', 'https://example.org/y'][n]).length;
      expect(shown).toMatch(
        new RegExp(`1\\. example\\.org/x \\(70%\\)</dt>\\s*<dd class="total">${clicks(0)}<`),
      );
      expect(shown).toMatch(
        new RegExp(`2\\. example\\.org/y \\(30%\\)</dt>\\s*<dd class="total">${clicks(1)}<`),
      );
    });
    const removed = await browserOwner.post(`${pagePath}/edit`, { ...form, split_0_url: '' });
    expect(removed.status).toBe(303);
    expect((await jsonOf(await browserOwner.send(`/api/v1/links/${String(link.id)}`))).split).toBeNull();
  });
});
